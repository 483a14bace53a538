/**
 * The calling thread as one of a threaded read's readers: it indexes parts between its other
 * work (a read yields after every chunk), so that two threads are the calling one and one
 * worker: one thread start, heap and optimizing compiler fewer than two workers cost. It takes
 * the shortest parts first, from the file's end: it reads the run's other logs meanwhile and
 * the workers start later, so it never holds a long part when the others have run out.
 */
import { threadCpu } from './cpu';
import type { ThreadCpu } from './cpu';
import type { PartReader, PartResult, PartTask } from './parts';
import type { PartRunner } from './partWorker';

export class MainThreadRunner implements PartRunner {
  readonly fromEnd = true;
  private readonly stopped = new AbortController();
  private readonly start = threadCpu();

  /** `read`: the part reader, given by the index that owns the read (it would import this file's importers). */
  constructor(private readonly read: PartReader) {}

  async run(task: PartTask): Promise<PartResult> {
    this.stopped.signal.throwIfAborted();
    const part = await this.read(task, this.stopped.signal);
    return { ...part, cpu: this.cpuSinceStart() };
  }

  /** The calling thread's CPU since this runner started (its other work in between included). */
  private cpuSinceStart(): ThreadCpu | undefined {
    const now = threadCpu();
    const s = this.start;
    return now && s ? { cpuMs: now.cpuMs - s.cpuMs, waitMs: now.waitMs - s.waitMs } : undefined;
  }

  /** Stops the part under way at its next chunk. */
  close(): void {
    this.stopped.abort(new Error('the part reader was closed'));
  }
}
