/**
 * One file of a ranged download: its partial (opened once, written in place at each range's
 * offset), the progress of its ranges (kept in the manifest), and its hash, fed in order
 * as the finished prefix grows: from memory (the bytes of ranges ahead of it are held while
 * the download's hold `Quota` has room), else read back from the page cache; checked against the LFS sha256
 * (git blob sha1 for small files) once the last range is in.
 */
import type { Hash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DownloadItem } from './types';
import { contentId, expectedDigest, fileSize, hashFile, newHasher } from './digest';
import type { Manifest, PartialRecord, RangeState } from './manifest';
import { freshRecord, rangeDone, rangesOf } from './manifest';

/**
 * Bytes written ahead of the hashed prefixes kept in memory by default, over all the files of
 * a download at once (each file alone would multiply it by the files downloading together).
 */
export const HOLD_BYTES = 8 << 20;

export class FileJob {
  ranges: RangeState[] = [];
  /** ranges fetched this run (for the per-file event) */
  fetched = 0;
  mismatches = 0;
  private record!: PartialRecord;
  private hasher!: Hash;
  /** bytes [0, hashed) are in the hasher */
  private hashed = 0;
  /** a read-back is under way: bytes written meanwhile wait for the next one */
  private reading = false;
  /** bytes written ahead of the hashed prefix, by their offset (each a write's buffers), and their total */
  private held = new Map<number, { bufs: readonly Uint8Array[]; n: number }>();
  private heldBytes = 0;
  private hashing: Promise<void> = Promise.resolve();
  private fh: FileHandle | undefined;
  private opening: Promise<FileHandle> | undefined;
  private unsynced = 0;
  private syncing: Promise<void> | undefined;
  /** a background flush that failed: the partial cannot be trusted to be on disk */
  syncError: Error | undefined;

  constructor(
    readonly it: DownloadItem,
    readonly abs: string,
    readonly part: string,
    private readonly manifest: Manifest,
    private readonly rangeBytes: number,
    /** the bytes every file of the download may hold ahead of its hashed prefix, together */
    private readonly hold = new Quota(HOLD_BYTES),
  ) {}

  /** Bytes hashed from what was read back from the partial (not from memory): for the tests and the bench. */
  readBack = 0;

  /**
   * Takes up the partial where the manifest left it (a partial without a matching record,
   * or a record without its partial, starts over); returns the bytes kept.
   */
  async prepare(): Promise<number> {
    await mkdir(dirname(this.part), { recursive: true });
    const onDisk = await fileSize(this.part);
    const rec = this.manifest.partial(this.it);
    if (rec && onDisk !== undefined && onDisk <= this.it.size) this.record = rec;
    else {
      this.record = freshRecord(contentId(this.it), this.it.size, this.rangeBytes);
      if (onDisk !== undefined) await rm(this.part, { force: true });
    }
    this.manifest.setPartial(this.it, this.record);
    this.ranges = rangesOf(this.record);
    this.hasher = newHasher(this.it);
    this.hashed = 0;
    // an empty file has no range to write it
    if (this.it.size === 0) await writeFile(this.part, '');
    return this.ranges.reduce((s, r) => s + r.have, 0);
  }

  /** Ranges still to fetch, in order. */
  pending(): RangeState[] {
    return this.ranges.filter((r) => !rangeDone(r));
  }

  get complete(): boolean {
    return this.ranges.every(rangeDone);
  }

  /** The partial, opened for positional writes (created when missing, never truncated). */
  handle(): Promise<FileHandle> {
    this.opening ??= open(this.part, constants.O_RDWR | constants.O_CREAT).then(
      (fh) => (this.fh = fh),
      (e: unknown) => {
        this.opening = undefined;
        throw e;
      },
    );
    return this.opening;
  }

  /**
   * Bytes of a range reached the partial at `at`: when they continue the hashed prefix they
   * are hashed now, with the held bytes that follow them; others are held while there is
   * room, else read back once the prefix reaches them.
   */
  wrote(r: RangeState, at: number, bufs: readonly Uint8Array[], n: number, flushEvery: number, slots: Quota): void {
    if (!this.reading && at === this.hashed) {
      for (const b of bufs) this.hasher.update(b);
      this.hashed += n;
      this.hashHeld();
    } else if (at >= this.hashed && !this.held.has(at) && this.hold.take(n)) {
      this.held.set(at, { bufs, n });
      this.heldBytes += n;
    }
    r.have += n;
    this.record.have[r.index] = r.have;
    this.manifest.wrote(n);
    this.unsynced += n;
    if (this.fh && this.unsynced >= flushEvery && this.syncing === undefined && slots.take()) {
      this.unsynced = 0;
      // kept: after a failed flush, Linux may report the next fsync as a success
      this.syncing = this.fh
        .datasync()
        .catch((e: unknown) => {
          this.syncError ??= e instanceof Error ? e : new Error(String(e));
        })
        .finally(() => {
          slots.release();
          this.syncing = undefined;
        });
    }
  }

  /** Hashes the held bytes that continue the hashed prefix. */
  private hashHeld(): void {
    for (let h = this.held.get(this.hashed); h; h = this.held.get(this.hashed)) {
      this.held.delete(this.hashed);
      this.heldBytes -= h.n;
      this.hold.release(h.n);
      for (const b of h.bufs) this.hasher.update(b);
      this.hashed += h.n;
    }
  }

  /** Where the next held bytes after the hashed prefix start (the end of a gap read back), at most `end`. */
  private nextHeld(end: number): number {
    let next = end;
    for (const at of this.held.keys()) if (at > this.hashed && at < next) next = at;
    return next;
  }

  /** Hashes the finished prefix as far as it goes now (held bytes from memory, the rest read back); resolves when that is done. */
  advanceHash(): Promise<void> {
    this.hashing = this.hashing.then(async () => {
      this.reading = true;
      try {
        for (let end = this.prefixEnd(); this.hashed < end; end = this.prefixEnd()) {
          this.hashHeld();
          if (this.hashed >= end) continue;
          const to = this.nextHeld(end);
          await hashFile(this.part, this.hasher, to, this.hashed);
          this.readBack += to - this.hashed;
          this.hashed = to;
        }
      } finally {
        this.reading = false;
      }
    });
    return this.hashing;
  }

  /** The end of the bytes written without a gap from byte 0. */
  private prefixEnd(): number {
    let end = 0;
    for (const r of this.ranges) {
      if (r.start > end) break;
      end = r.start + r.have;
      if (!rangeDone(r)) break;
    }
    return end;
  }

  /** Whether every range is in and hashed, and the digest is the expected one (false: a wrong byte somewhere). */
  async verify(): Promise<boolean> {
    await this.advanceHash();
    if (this.hashed < this.it.size) return false;
    return this.hasher.digest('hex') === expectedDigest(this.it).hex;
  }

  /** Drops every byte of the partial, to fetch the file again from the start. */
  async restart(): Promise<void> {
    await this.close();
    await rm(this.part, { force: true });
    this.record = freshRecord(contentId(this.it), this.it.size, this.rangeBytes);
    this.manifest.setPartial(this.it, this.record);
    this.ranges = rangesOf(this.record);
    this.hasher = newHasher(this.it);
    this.hashed = 0;
    this.held.clear();
    this.hold.release(this.heldBytes);
    this.heldBytes = 0;
    this.hashing = Promise.resolve();
  }

  /** Waits for the background flush and closes the partial. */
  async close(): Promise<void> {
    await this.syncing;
    const opening = this.opening;
    this.opening = undefined;
    this.fh = undefined;
    const fh = await opening?.catch(() => undefined);
    await fh?.close();
  }
}

/**
 * A count the files of one download share and none may take past its limit: the background
 * flushes under way (libuv's pool threads are the other writes' too), the bytes held in memory
 * ahead of the hashed prefixes.
 */
export class Quota {
  private used = 0;
  constructor(private readonly max: number) {}

  /** Whether `n` more fit; when they do they are counted. */
  take(n = 1): boolean {
    if (this.used + n > this.max) return false;
    this.used += n;
    return true;
  }

  release(n = 1): void {
    this.used -= n;
  }
}
