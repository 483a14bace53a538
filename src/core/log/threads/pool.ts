/**
 * Indexing a large log with several threads: the file is cut at line starts, each part
 * is indexed by a child process (`indexWorker.js`, its own bundle, given the path and
 * the byte range) and the results are merged in file order. Only whole lines are
 * indexed here (up to the last newline); the caller reads the rest as it always does.
 */
import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReadLimits } from '../jsonlFile';
import { foreignEncoding } from '../jsonlFile';
import { threadCpu } from './cpu';
import type { ThreadCpu } from './cpu';
import { cutAt, endOfLastLine, evenTargets } from './split';
import { mergeParts } from './merge';
import type { MergedParts } from './merge';
import type { PartResult, PartTask } from './parts';

/** How many threads index a log, and from what size. */
export interface ThreadOptions {
  /** threads to use; 0 = every core; 1 = no worker */
  threads: number;
  /** a smaller log is indexed on one thread (default 32 MB) */
  minBytes?: number;
  /** the worker bundle (default: `indexWorker.js` next to the running bundle) */
  workerPath?: string;
  /** byte offsets to cut near, instead of an even cut (for tests) */
  cutNear?: number[];
}

export const DEFAULT_MIN_THREAD_BYTES = 32 * 1024 * 1024;

/** The number of threads `threads` stands for on this machine. */
export function threadCount(threads: number): number {
  return threads === 0 ? availableParallelism() : threads;
}

/** Where a threaded read spent its CPU time (for the benchmark): on the main thread before and after the workers, and each worker's. */
export interface ThreadTiming {
  /** main-thread CPU ms before the workers start (cutting the file) */
  beforeMs: number;
  /** main-thread CPU ms after the last worker answered (the merge) */
  mergeMs: number;
  /** wall ms from the workers' start to the last one's answer */
  workersWallMs: number;
  /** each worker's CPU, its start included */
  workers: ThreadCpu[];
}

export interface ThreadedIndex extends MergedParts {
  parts: number;
  /** undefined where the system does not give a thread its CPU time */
  timing: ThreadTiming | undefined;
}

const cpuMs = (): number => threadCpu()?.cpuMs ?? NaN;

/**
 * A worker's V8 flags: a 64 MB young generation (16 MB by default), since parsing JSON
 * lines makes many short-lived objects and fewer scavenges cut a worker's CPU; and its
 * garbage collector and its optimizing compiler on its own thread, since helper threads
 * of every worker compete with the workers for the same cores: with the compiler on four
 * helpers each worker waited about 700 ms of 5 s for a core here and the workers spent
 * 10.8 s of CPU in all; with it on the worker's thread, 50-90 ms and 9.0 s, against 8.9 s
 * for one thread (bench/results.md, index cache and threads). The one-thread path runs in
 * the host's process, whose flags an extension cannot set; a flag the runtime refuses
 * makes the worker exit, and the file is then read on one thread, which says why.
 */
const WORKER_FLAGS = ['--max-semi-space-size=64', '--single-threaded-gc', '--no-concurrent-recompilation'];

/**
 * Indexes one part in a child process. Processes, not worker threads: two workers in one
 * process shared its heap and allocator and parsed at 0.63x their speed alone here, where
 * two processes each keep theirs (see bench/results.md, index cache and threads).
 */
function runPart(workerPath: string, task: PartTask, signal?: AbortSignal): Promise<PartResult> {
  return new Promise((resolve, reject) => {
    // none of the host's flags (an inspector port); ELECTRON_RUN_AS_NODE: VS Code's own binary runs it as Node
    const child = fork(workerPath, [], {
      serialization: 'advanced',
      execArgv: WORKER_FLAGS,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (s: string) => void (stderr = (stderr + s).slice(-2000)));
    let settled = false;
    const onAbort = (): void => void child.kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    const done = (f: () => void): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      f();
    };
    child.once('message', (m: { result?: PartResult; error?: string }) =>
      done(() => (m.result ? resolve(m.result) : reject(new Error(m.error ?? 'the index worker sent nothing')))),
    );
    child.once('error', (e) => done(() => reject(e)));
    child.once('close', (code, sig) => {
      const reason: unknown = signal?.reason;
      const last =
        stderr
          .trim()
          .split('\n')
          .find((l) => /Error/.test(l)) ??
        stderr.trim().split('\n')[0] ??
        '';
      done(() =>
        reject(reason instanceof Error ? reason : new Error(`the index worker exited (${code ?? sig})${last ? `: ${last}` : ''}`)),
      );
    });
    child.send(task);
  });
}

/**
 * The index of the whole lines of `path`, built by `threads` workers; undefined when the
 * file is too small for threads or is not one a reader can start on (it is then read on
 * one thread, which says why).
 */
export async function indexInParts(
  path: string,
  options: PartTask['options'],
  limits: ReadLimits | undefined,
  t: ThreadOptions,
  signal?: AbortSignal,
): Promise<ThreadedIndex | undefined> {
  const n = threadCount(t.threads);
  const cpu0 = cpuMs();
  const fh = await open(path, 'r');
  let cuts: [number, number][];
  let align = 0;
  let end: number;
  try {
    const size = (await fh.stat()).size;
    if (n < 2 || size < (t.minBytes ?? DEFAULT_MIN_THREAD_BYTES)) return undefined;
    const head = Buffer.alloc(Math.min(256, size));
    await fh.read(head, 0, head.length, 0);
    if (foreignEncoding(head) !== undefined) return undefined;
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) align = 3;
    end = await endOfLastLine(fh, size);
    if (end === 0) return undefined;
    cuts = await cutAt(fh, end, t.cutNear ?? evenTargets(end, n));
  } finally {
    await fh.close();
  }
  signal?.throwIfAborted();
  const workerPath = t.workerPath ?? join(__dirname, 'indexWorker.js');
  const cpu1 = cpuMs();
  const wall1 = performance.now();
  const results = await Promise.all(
    cuts.map(([start, stop]) => runPart(workerPath, { path, start, end: stop, align, options, limits }, signal)),
  );
  const wall2 = performance.now();
  const cpu2 = cpuMs();
  if (results.some((r) => r.overflow)) return undefined;
  const merged = mergeParts(results, end);
  const workers = results.flatMap((r) => (r.cpu ? [r.cpu] : []));
  const timing =
    Number.isNaN(cpu0) || workers.length < results.length
      ? undefined
      : { beforeMs: cpu1 - cpu0, mergeMs: cpuMs() - cpu2, workersWallMs: wall2 - wall1, workers };
  return { ...merged, parts: cuts.length, timing };
}
