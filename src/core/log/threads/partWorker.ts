/**
 * One index worker thread that indexes parts one after another (`indexWorker.js`): it is
 * sent a byte range, answers with that part's index (its columns transferred, not copied),
 * and waits for the next until it is closed.
 */
import { Worker } from 'node:worker_threads';
import type { PartResult, PartTask } from './parts';

/**
 * A 64 MB young generation for the worker's heap (16 MB by default): reading lines makes many
 * short-lived objects, and fewer scavenges cut a worker's CPU.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 64 };

/** What runs a task of a threaded job (a part to index, partitions to export). */
export interface TaskRunner<T, R> {
  /** takes the tasks left from the last one back (the shortest first) rather than from the first on */
  readonly fromEnd?: boolean;
  run(task: T): Promise<R>;
  close(): void;
}

/** What indexes a part. */
export type PartRunner = TaskRunner<PartTask, PartResult>;

/**
 * A worker thread. Threads, not processes: a thread starts without a second Node, and its
 * answer's columns move to the main thread without a copy, where a process's answer was
 * serialized, piped and deserialized on the main thread (about a second for a 389 MB log,
 * while the report waited; see bench/results.md, index cache and threads).
 */
export class PartWorker<T = PartTask, R = PartResult> implements TaskRunner<T, R> {
  private readonly worker: Worker;
  private pending: { resolve: (r: R) => void; reject: (e: Error) => void } | undefined;
  private exited: Error | undefined;

  constructor(workerPath: string) {
    this.worker = new Worker(workerPath, { resourceLimits: WORKER_LIMITS, stdout: false, stderr: false });
    this.worker.on('message', (m: { result?: R; error?: string }) =>
      this.settle(m.result, m.result ? undefined : new Error(m.error ?? 'the index worker sent nothing')),
    );
    this.worker.once('error', (e) => this.fail(e));
    this.worker.once('exit', (code) => this.fail(new Error(`the index worker exited (${code})`)));
  }

  run(task: T): Promise<R> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage(task);
    });
  }

  private settle(result: R | undefined, error: Error | undefined): void {
    const p = this.pending;
    this.pending = undefined;
    if (result) p?.resolve(result);
    else if (error) p?.reject(error);
  }

  private fail(e: Error): void {
    this.exited ??= e;
    this.settle(undefined, this.exited);
  }

  /** Ends the thread (a part under way is dropped). */
  close(): void {
    this.exited ??= new Error('the index worker was closed');
    // a thread that will not end is the process's to end at its exit: nothing waits on it, nothing to report
    this.worker.terminate().then(
      () => undefined,
      () => undefined,
    );
  }
}
