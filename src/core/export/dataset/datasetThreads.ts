/**
 * A run's dataset written by several threads, as the index reads a large log (`indexInParts`):
 * its iterations cut into shares of about equal bytes, which the calling thread and `n - 1`
 * workers of the index's worker bundle take as they finish one (the index's `runAll`), so they
 * finish together whatever a core's load. Each partition is one thread's, so the files are the
 * ones a single thread writes. A log read in place (from the Hub) or smaller than the index's
 * threshold for threads is written by the calling thread alone.
 */
import { join } from 'node:path';
import { readRoots } from '../../log/logFile';
import { threadCpu } from '../../log/threads/cpu';
import type { ThreadCpu } from '../../log/threads/cpu';
import { DEFAULT_MIN_THREAD_BYTES, runAll, threadCount } from '../../log/threads/pool';
import { PartWorker } from '../../log/threads/partWorker';
import type { TaskRunner } from '../../log/threads/partWorker';
import { datasetTask } from './datasetPart';
import type { DatasetPartResult, DatasetTask } from './datasetPart';
import type { DatasetIndex } from './tables';
import { writeIterations } from './writeIterations';
import type { DatasetDirs, DatasetOptions, DatasetResult } from './writeIterations';

/** Shares a thread: enough that the threads end close together, few enough that each share's writers pay. */
const SHARES_PER_THREAD = 8;

type Iterations = [number, number[]][];

/**
 * The iterations of `by` cut into runs of consecutive iterations of about `1 / count` of the
 * bytes each (about `count` runs; an iteration larger than that is a run of its own).
 */
export function cutShares(by: ReadonlyMap<number, number[]>, length: ArrayLike<number>, count: number): Iterations[] {
  const sized = [...by].map((entry) => ({ entry, bytes: entry[1].reduce((s, r) => s + length[r]!, 0) }));
  const target = sized.reduce((s, x) => s + x.bytes, 0) / count;
  const shares: Iterations[] = [];
  let share: Iterations = [];
  let sum = 0;
  for (const { entry, bytes } of sized) {
    if (share.length > 0 && sum + bytes > target) {
      shares.push(share);
      share = [];
      sum = 0;
    }
    share.push(entry);
    sum += bytes;
  }
  if (share.length > 0) shares.push(share);
  return shares;
}

/** The calling thread as one of the writers: it takes the last shares first, as in the index's read. */
class HereRunner implements TaskRunner<Iterations, DatasetPartResult> {
  readonly fromEnd = true;
  private readonly stopped = new AbortController();
  private readonly start = threadCpu();

  constructor(private readonly write: (share: Iterations, signal: AbortSignal) => Promise<DatasetResult>) {}

  async run(share: Iterations): Promise<DatasetPartResult> {
    this.stopped.signal.throwIfAborted();
    const r = await this.write(share, this.stopped.signal);
    const now = threadCpu();
    const s = this.start;
    const cpu: ThreadCpu | undefined = now && s ? { cpuMs: now.cpuMs - s.cpuMs, waitMs: now.waitMs - s.waitMs } : undefined;
    return { ...r, cpu };
  }

  close(): void {
    this.stopped.abort(new Error('the dataset writer was closed'));
  }
}

/** A worker of the index's bundle writing shares: each one's rows copied into its task as it is sent. */
class WorkerRunner implements TaskRunner<Iterations, DatasetPartResult> {
  private readonly worker: PartWorker<DatasetTask, DatasetPartResult>;

  constructor(
    workerPath: string,
    private readonly task: (share: Iterations) => DatasetTask,
    private readonly done: (share: Iterations) => void,
  ) {
    this.worker = new PartWorker(workerPath);
  }

  async run(share: Iterations): Promise<DatasetPartResult> {
    const r = await this.worker.run(this.task(share));
    this.done(share);
    return r;
  }

  close(): void {
    this.worker.close();
  }
}

/**
 * Writes the iterations of `by` by several threads (`o.threads`), `onIteration` after each
 * (a worker's when its share is done); undefined when threads do not apply (then nothing is written).
 */
export async function writeInThreads(
  index: DatasetIndex,
  runId: string,
  by: ReadonlyMap<number, number[]>,
  dirs: DatasetDirs,
  o: DatasetOptions,
  onIteration: (iteration: number) => void,
): Promise<DatasetResult | undefined> {
  const t = o.threads;
  if (!t || o.origin !== undefined) return undefined;
  const length = index.columns.length;
  let bytes = 0;
  for (let i = 0; i < index.size; i++) bytes += length[i]!;
  if (t.threads === 1 || by.size < 2 || bytes < (t.minBytes ?? DEFAULT_MIN_THREAD_BYTES)) return undefined;
  const n = await threadCount(t.threads);
  if (n < 2) return undefined;
  const shares = cutShares(by, length, n * SHARES_PER_THREAD);
  const workerPath = t.workerPath ?? join(__dirname, 'indexWorker.js');
  const base = { runId, dirs, rowGroup: o.rowGroup, roots: readRoots() };
  const task = (share: Iterations): DatasetTask =>
    datasetTask(
      index,
      share.flatMap(([, rows]) => rows),
      base,
    );
  const done = (share: Iterations): void => share.forEach(([iteration]) => onIteration(iteration));
  const here = (share: Iterations, signal: AbortSignal): Promise<DatasetResult> =>
    writeIterations(index, runId, share, dirs, { ...o, signal: o.signal ? AbortSignal.any([o.signal, signal]) : signal }, onIteration);
  const runners: TaskRunner<Iterations, DatasetPartResult>[] = [new HereRunner(here)];
  for (let k = 1; k < Math.min(n, shares.length); k++) runners.push(new WorkerRunner(workerPath, task, done));
  const run = await runAll(shares, runners, o.signal);
  const out = { iterations: 0, trajectories: 0, turns: 0 };
  for (const r of run.results) {
    out.iterations += r.iterations;
    out.trajectories += r.trajectories;
    out.turns += r.turns;
  }
  return out;
}
