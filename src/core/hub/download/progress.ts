/** Counts a download's bytes and files, and reports them at most five times a second. */
import type { DownloadItem, DownloadProgress } from './types';

export class ProgressMeter {
  /** bytes verified, on disk or received in this run */
  private bytesDone = 0;
  /** bytes received from the network in this run */
  private fetched = 0;
  private filesDone = 0;
  private skippedFiles = 0;
  private readonly current = new Set<string>();
  private readonly samples: { t: number; b: number }[] = [];
  private lastEmit = 0;
  /** connections open now, as the pool counts them */
  connections: () => number = () => 0;

  constructor(
    private readonly bytesTotal: number,
    private readonly filesTotal: number,
    private readonly onProgress?: (p: DownloadProgress) => void,
  ) {}

  get bytesFetched(): number {
    return this.fetched;
  }

  get skipped(): number {
    return this.skippedFiles;
  }

  /** A file found complete on disk. */
  skip(it: DownloadItem, why: string): void {
    this.skippedFiles++;
    this.filesDone++;
    this.bytesDone += it.size;
    this.emit(`${it.target}: ${why}`);
  }

  /** Bytes kept from an earlier run. */
  kept(bytes: number): void {
    this.bytesDone += bytes;
  }

  /** Bytes counted before that turned out useless (a partial dropped). */
  discard(bytes: number): void {
    this.bytesDone -= bytes;
  }

  /** The hot path: bytes that just arrived. */
  received(bytes: number): void {
    this.fetched += bytes;
    this.bytesDone += bytes;
    this.emit();
  }

  start(target: string): void {
    this.current.add(target);
  }

  stop(target: string): void {
    this.current.delete(target);
  }

  fileDone(event: string): void {
    this.filesDone++;
    this.emit(event);
  }

  emit(event?: string, force = false): void {
    const now = Date.now();
    if (!force && !event && now - this.lastEmit < 200) return;
    this.lastEmit = now;
    const samples = this.samples;
    samples.push({ t: now, b: this.fetched });
    while (samples.length > 2 && now - samples[0]!.t > 5000) samples.shift();
    const first = samples[0]!;
    const rate = now > first.t ? ((this.fetched - first.b) * 1000) / (now - first.t) : 0;
    this.onProgress?.({
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      rate,
      etaSeconds: rate > 0 ? (this.bytesTotal - this.bytesDone) / rate : null,
      filesDone: this.filesDone,
      filesTotal: this.filesTotal,
      current: [...this.current],
      connections: this.connections(),
      ...(event ? { event } : {}),
    });
  }
}
