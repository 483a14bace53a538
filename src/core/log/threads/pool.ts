/**
 * Indexing a large log with several threads: the file is cut at line starts into parts,
 * long ones first and short ones last, and worker threads (`partWorker.ts`) each take the
 * next part as they finish one, so they finish together whatever a core's speed or a part's
 * cost (two even halves of one file can differ by half again in CPU); the results are
 * merged in file order. Only whole lines are indexed here (up to the last newline); the
 * caller reads the rest as it always does. The calling thread is one of the readers (`n`
 * threads are it and `n - 1` workers): it would otherwise wait idle, and every worker costs
 * its own start, heap and optimizing compiler on the same cores.
 */
import { availableParallelism, loadavg } from 'node:os';
import { busyCoresNow } from './busyCores';
import { openLog, readRoots } from '../logFile';
import { join } from 'node:path';
import type { ReadLimits } from '../jsonlFile';
import { foreignEncoding } from '../jsonlFile';
import { threadCpu } from './cpu';
import type { ThreadCpu } from './cpu';
import { cutAt, endOfLastLine, guidedTargets } from './split';
import { mergeParts } from './merge';
import type { MergedParts } from './merge';
import type { PartReader, PartTask } from './parts';
import { PartWorker } from './partWorker';
import type { PartRunner, TaskRunner } from './partWorker';
import { MainThreadRunner } from './mainThreadRunner';

/** How many threads index a log, and from what size. */
export interface ThreadOptions {
  /** threads to use; 0 = the cores the load leaves free (`autoThreads`); 1 = no worker */
  threads: number;
  /** a smaller log is indexed on one thread (default 32 MB) */
  minBytes?: number;
  /** the worker bundle (default: `indexWorker.js` next to the running bundle) */
  workerPath?: string;
  /** byte offsets to cut near, instead of the guided cut (for tests) */
  cutNear?: number[];
  /** false: every thread is a worker, the calling thread reads no part (for tests of the workers' scheduling) */
  mainThreadReads?: boolean;
  /** called once the workers are started, before the parts are read */
  onStarted?: () => void;
}

export const DEFAULT_MIN_THREAD_BYTES = 32 * 1024 * 1024;

/**
 * The threads the default (`0`) stands for: the cores the others' load leaves free, one at
 * least. A second thread pays only on a core nobody else keeps busy: threads cost about a fifth
 * more CPU in all than one (a second heap, its collector and compiler), so on a core another
 * process holds, two threads ended no sooner than one. A core counts as free from 0.7 of it
 * (`cores - load` rounded up from .3).
 */
export function autoThreads(cores: number, load: number): number {
  return Math.max(1, Math.min(cores, Math.floor(cores - load + 0.7)));
}

/**
 * The number of threads `threads` stands for on this machine (a number asked for is taken as it
 * is): the load is what other processes kept busy since this one started (`busyCoresNow`), else
 * the 1-minute load average.
 */
export async function threadCount(threads: number): Promise<number> {
  return threads === 0 ? autoThreads(availableParallelism(), (await busyCoresNow()) ?? loadavg()[0] ?? 0) : threads;
}

/** Where a threaded read spent its CPU time (for the benchmark). */
export interface ThreadTiming {
  /** main-thread CPU ms before the workers start (cutting the file) */
  beforeMs: number;
  /** main-thread CPU ms while the parts were read (the workers' answers, and its own parts when it reads) */
  duringMs: number;
  /** main-thread CPU ms after the last part was read (the merge) */
  mergeMs: number;
  /** wall ms from the workers' start to the last part's answer */
  workersWallMs: number;
  /**
   * each reading thread's CPU: a worker's, its start included; the calling thread's (first, when it reads)
   * from the workers' start to its last part, its other work in between included
   */
  workers: ThreadCpu[];
  /** the parts each thread read */
  partsPerThread: number[];
}

export interface ThreadedIndex extends MergedParts {
  /** parts the file was cut into */
  parts: number;
  /** threads that read them (the calling thread included, when it reads) */
  threads: number;
  /** undefined where the system does not give a thread its CPU time */
  timing: ThreadTiming | undefined;
}

const cpuMs = (): number => threadCpu()?.cpuMs ?? NaN;

export interface RunAll<R> {
  results: R[];
  /** per runner: the parts it read, and its thread's CPU at its last answer */
  done: number[];
  cpu: (ThreadCpu | undefined)[];
}

/**
 * Runs `tasks` on `runners`, each runner taking the next task as it finishes one, and gives
 * the results in the tasks' order; the first failure, a part's overflow or `signal` stops every runner.
 */
export async function runAll<T, R extends { cpu?: ThreadCpu | undefined; overflow?: boolean }>(
  tasks: T[],
  runners: TaskRunner<T, R>[],
  signal?: AbortSignal,
): Promise<RunAll<R>> {
  const out: RunAll<R> = { results: [], done: runners.map(() => 0), cpu: runners.map(() => undefined) };
  // workers take parts from the front (long ones first), a runner `fromEnd` from the back (short ones first)
  let next = 0;
  let end = tasks.length;
  let stopped = false;
  /** the failure that stopped the others (theirs then only say they were ended) */
  let first: { error: unknown } | undefined;
  const stop = (): void => {
    stopped = true;
    for (const r of runners) r.close();
  };
  signal?.addEventListener('abort', stop, { once: true });
  const drain = async (r: TaskRunner<T, R>, k: number): Promise<void> => {
    while (!stopped && next < end) {
      const i = r.fromEnd === true ? --end : next++;
      const result = await r.run(tasks[i]!).catch((error: unknown) => {
        first ??= { error };
        stop();
        return undefined;
      });
      if (!result) return;
      out.results[i] = result;
      out.done[k]!++;
      out.cpu[k] = result.cpu;
      if (result.overflow) stopped = true;
    }
  };
  try {
    await Promise.all(runners.map(drain));
    signal?.throwIfAborted();
    if (first) throw first.error;
    return out;
  } finally {
    signal?.removeEventListener('abort', stop);
    for (const r of runners) r.close();
  }
}

/** Where the file is cut, and where a whole read's chunks start; undefined when threads do not apply. */
async function planParts(
  path: string,
  t: ThreadOptions,
): Promise<{ cuts: [number, number][]; align: number; end: number; n: number } | undefined> {
  const fh = await openLog(path);
  try {
    const size = (await fh.stat()).size;
    if (t.threads === 1 || size < (t.minBytes ?? DEFAULT_MIN_THREAD_BYTES)) return undefined;
    // only a log large enough for threads asks how many (the default may wait to judge the others' load)
    const n = await threadCount(t.threads);
    if (n < 2) return undefined;
    const head = Buffer.alloc(Math.min(256, size));
    await fh.read(head, 0, head.length, 0);
    if (foreignEncoding(head) !== undefined) return undefined;
    const align = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    const end = await endOfLastLine(fh, size);
    if (end === 0) return undefined;
    return { cuts: await cutAt(fh, end, t.cutNear ?? guidedTargets(end, n)), align, end, n };
  } finally {
    await fh.close();
  }
}

/**
 * The index of the whole lines of `path`, built by `threads` worker threads; undefined when
 * the file is too small for threads or is not one a reader can start on (it is then read on
 * one thread, which says why).
 */
export async function indexInParts(
  path: string,
  options: PartTask['options'],
  limits: ReadLimits | undefined,
  t: ThreadOptions,
  signal?: AbortSignal,
  readHere?: PartReader,
): Promise<ThreadedIndex | undefined> {
  const cpu0 = cpuMs();
  const plan = await planParts(path, t);
  if (!plan) return undefined;
  const n = plan.n;
  signal?.throwIfAborted();
  const workerPath = t.workerPath ?? join(__dirname, 'indexWorker.js');
  const count = Math.min(n, plan.cuts.length);
  const main = readHere !== undefined && t.mainThreadReads !== false;
  const runners: PartRunner[] = Array.from({ length: main ? count - 1 : count }, () => new PartWorker(workerPath));
  if (readHere && main) runners.unshift(new MainThreadRunner(readHere));
  const cpu1 = cpuMs();
  const wall1 = performance.now();
  // a worker reads in the caller's read scope: its opens are confined to the same roots
  const roots = readRoots();
  const tasks = plan.cuts.map(([start, stop]) => ({ path, start, end: stop, align: plan.align, options, limits, roots }));
  t.onStarted?.();
  const run = await runAll(tasks, runners, signal);
  const wall2 = performance.now();
  const cpu2 = cpuMs();
  if (run.results.some((r) => r.overflow)) return undefined;
  const merged = mergeParts(run.results, plan.end);
  const workers = run.cpu.flatMap((c) => (c ? [c] : []));
  const timing: ThreadTiming | undefined =
    Number.isNaN(cpu0) || workers.length < runners.length
      ? undefined
      : {
          beforeMs: cpu1 - cpu0,
          duringMs: cpu2 - cpu1,
          mergeMs: cpuMs() - cpu2,
          workersWallMs: wall2 - wall1,
          workers,
          partsPerThread: run.done,
        };
  return { ...merged, parts: plan.cuts.length, threads: runners.length, timing };
}
