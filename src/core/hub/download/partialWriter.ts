/**
 * Appends a file's bytes to its partial: batches of about 1 MB, one write in flight while
 * the next chunks arrive, and a flush to disk (fdatasync) in the background every so many
 * bytes so that the disk writes while the network reads.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

const WRITE_BATCH = 1 << 20;

/** Background flushes allowed at once over all files: the others' writes need libuv's pool threads too. */
export class SyncSlots {
  private busy = 0;
  constructor(private readonly max: number) {}

  take(): boolean {
    if (this.busy >= this.max) return false;
    this.busy++;
    return true;
  }

  release(): void {
    this.busy--;
  }
}

export class PartialWriter {
  private pending: Uint8Array[] = [];
  private pendingLen = 0;
  private inflight: Promise<void> = Promise.resolve();
  private unsynced = 0;
  private syncing: Promise<void> | undefined;
  private syncError: Error | undefined;
  private written = 0;

  private constructor(
    private readonly fh: FileHandle,
    private readonly flushEvery: number,
    private readonly slots: SyncSlots,
  ) {}

  static async open(path: string, flushEvery: number, slots: SyncSlots): Promise<PartialWriter> {
    return new PartialWriter(await open(path, 'a'), flushEvery, slots);
  }

  /** Bytes that reached the file (pending ones not counted). */
  get bytesWritten(): number {
    return this.written;
  }

  /** A background flush that failed: the file cannot be trusted to be on disk. */
  get flushError(): Error | undefined {
    return this.syncError;
  }

  /** Queues a chunk; waits only when a batch is full and the previous write still runs. */
  async push(chunk: Uint8Array): Promise<void> {
    this.pending.push(chunk);
    this.pendingLen += chunk.length;
    if (this.pendingLen >= WRITE_BATCH) await this.flush();
  }

  /** Writes what is pending and waits for it. */
  async drain(): Promise<void> {
    await this.flush();
    await this.inflight;
  }

  /** On any exit: what arrived intact is kept for the next run, and the background flush is awaited. */
  async settle(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.inflight.catch(() => undefined);
    await this.syncing;
  }

  /** Empties the partial, to write the file again from byte 0. */
  async restart(): Promise<void> {
    await this.drain();
    await this.fh.truncate(0);
    this.written = 0;
  }

  close(): Promise<void> {
    return this.fh.close();
  }

  private async flush(): Promise<void> {
    await this.inflight;
    if (this.pendingLen === 0) return;
    const n = this.pendingLen;
    const bufs = this.pending;
    this.pending = [];
    this.pendingLen = 0;
    this.inflight = this.fh.writev(bufs).then(() => {
      this.written += n;
      this.unsynced += n;
      if (this.unsynced >= this.flushEvery && this.syncing === undefined && this.slots.take()) {
        this.unsynced = 0;
        // kept: after a failed flush, Linux may report the next fsync as a success
        this.syncing = this.fh
          .datasync()
          .catch((e: Error) => {
            this.syncError ??= e;
          })
          .finally(() => {
            this.slots.release();
            this.syncing = undefined;
          });
      }
    });
  }
}
