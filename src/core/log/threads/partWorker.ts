/**
 * One index worker process that indexes parts one after another (`indexWorker.js`, forked
 * with the advanced serialization): it is sent a byte range, answers with that part's index,
 * and waits for the next until it is closed.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { PartResult, PartTask } from './parts';

/**
 * A worker's V8 flags: a 64 MB young generation (16 MB by default), since parsing JSON
 * lines makes many short-lived objects and fewer scavenges cut a worker's CPU; and its
 * garbage collector and its optimizing compiler on its own thread, since helper threads
 * of every worker compete with the workers for the same cores: with helpers, workers wait
 * for a core and spend more CPU in all than one thread does; without, about the same as one
 * thread (the index benchmark measures it). The one-thread path runs in
 * the host's process, whose flags an extension cannot set; a flag the runtime refuses
 * makes the worker exit, and the file is then read on one thread, which says why.
 */
const WORKER_FLAGS = ['--max-semi-space-size=64', '--single-threaded-gc', '--no-concurrent-recompilation'];

/** What indexes a part. */
export interface PartRunner {
  index(task: PartTask): Promise<PartResult>;
  close(): void;
}

/** The first line of a worker's stderr that names an error (else its first line). */
function lastError(stderr: string): string {
  const lines = stderr.trim().split('\n');
  return lines.find((l) => /Error/.test(l)) ?? lines[0] ?? '';
}

/**
 * A worker process. Processes, not worker threads: two workers in one process share its
 * heap and allocator and parse markedly slower than each alone, where two processes each
 * keep theirs.
 */
export class PartWorker implements PartRunner {
  private readonly child: ChildProcess;
  private stderr = '';
  private pending: { resolve: (r: PartResult) => void; reject: (e: Error) => void } | undefined;
  private exited: Error | undefined;

  constructor(workerPath: string) {
    // none of the host's flags (an inspector port); ELECTRON_RUN_AS_NODE: VS Code's own binary runs it as Node
    this.child = fork(workerPath, [], {
      serialization: 'advanced',
      execArgv: WORKER_FLAGS,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    this.child.stderr?.setEncoding('utf8').on('data', (s: string) => void (this.stderr = (this.stderr + s).slice(-2000)));
    this.child.on('message', (m: { result?: PartResult; error?: string }) =>
      this.settle(m.result, m.result ? undefined : new Error(m.error ?? 'the index worker sent nothing')),
    );
    this.child.once('error', (e) => this.fail(e));
    this.child.once('close', (code, sig) => {
      const last = lastError(this.stderr);
      this.fail(new Error(`the index worker exited (${code ?? sig})${last ? `: ${last}` : ''}`));
    });
  }

  index(task: PartTask): Promise<PartResult> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(task);
    });
  }

  private settle(result: PartResult | undefined, error: Error | undefined): void {
    const p = this.pending;
    this.pending = undefined;
    if (result) p?.resolve(result);
    else if (error) p?.reject(error);
  }

  private fail(e: Error): void {
    this.exited ??= e;
    this.settle(undefined, this.exited);
  }

  /** Lets the worker end (it exits once its channel closes), or ends it now when a part is still under way. */
  close(): void {
    if (this.pending) this.child.kill();
    else if (this.child.connected) this.child.disconnect();
  }
}
