/**
 * The manifest of a destination: the files verified and put in place (so that a later run
 * skips them without hashing), and for each partial the bytes written from the start of
 * each of its ranges (so that a resumed download keeps every range finished and the
 * written start of every range begun). Saved atomically (a temporary file renamed over it)
 * each time another 4 MB reached the partials or a second passed since the last save while
 * bytes arrive, and at once when a run ends: a process killed mid-download loses at most
 * the last few MB it wrote.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DownloadItem } from './types';
import { contentId } from './digest';

interface VerifiedRecord {
  oid: string;
  size: number;
  mtimeMs: number;
}

/** A partial's progress: its content id and size, how it is cut, and bytes written per range. */
export interface PartialRecord {
  oid: string;
  size: number;
  rangeBytes: number;
  have: number[];
}

interface ManifestFile {
  dest?: string;
  verified?: { [target: string]: VerifiedRecord };
  partials?: { [target: string]: PartialRecord };
}

const SAVE_EVERY_MS = 1000;
/** Bytes written to the partials (over all files) after which the progress is saved again. */
export const SAVE_EVERY_BYTES = 4 << 20;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Manifest {
  /** one write at a time: workers finish together */
  private saving: Promise<void> = Promise.resolve();
  private lastSave = 0;
  /** bytes written to partials since the last save began */
  private unsaved = 0;
  /** a save is waiting for the one before it: it will write the newest state, so no other is queued */
  private queued = false;

  private constructor(
    private readonly path: string,
    private readonly data: Required<ManifestFile>,
  ) {}

  static async load(folder: string, dest: string): Promise<Manifest> {
    const m = await Manifest.read(folder, dest);
    await mkdir(folder, { recursive: true });
    return m;
  }

  /** The manifest as it is on disk (empty when there is none), without creating its folder: for looking only. */
  static async read(folder: string, dest: string): Promise<Manifest> {
    const path = join(folder, 'manifest.json');
    let parsed: ManifestFile = {};
    try {
      // ours, but a file on disk: each entry is checked again where it is used
      const v: unknown = JSON.parse(await readFile(path, 'utf8'));
      if (isRecord(v))
        parsed = {
          ...(isRecord(v['verified']) ? { verified: v['verified'] } : {}),
          ...(isRecord(v['partials']) ? { partials: v['partials'] } : {}),
        } as ManifestFile;
    } catch {
      parsed = {};
    }
    return new Manifest(path, { dest, verified: { ...parsed.verified }, partials: { ...parsed.partials } });
  }

  /** The file on disk is the one verified earlier (same content id, size and mtime). */
  matches(it: DownloadItem, size: number, mtimeMs: number): boolean {
    const rec = this.data.verified[it.target];
    return rec !== undefined && rec.oid === contentId(it) && rec.size === size && rec.mtimeMs === mtimeMs;
  }

  record(it: DownloadItem, size: number, mtimeMs: number): void {
    this.data.verified[it.target] = { oid: contentId(it), size, mtimeMs };
    delete this.data.partials[it.target];
  }

  /** The progress kept for a partial of this content, if it is well formed. */
  partial(it: DownloadItem): PartialRecord | undefined {
    const p = this.data.partials[it.target];
    if (!p || p.oid !== contentId(it) || p.size !== it.size || !Number.isSafeInteger(p.rangeBytes) || p.rangeBytes <= 0) return undefined;
    if (!Array.isArray(p.have) || p.have.length !== Math.max(1, Math.ceil(it.size / p.rangeBytes))) return undefined;
    return p.have.every((h) => Number.isSafeInteger(h) && h >= 0) ? p : undefined;
  }

  setPartial(it: DownloadItem, rec: PartialRecord | undefined): void {
    if (rec) this.data.partials[it.target] = rec;
    else delete this.data.partials[it.target];
  }

  /** `n` more bytes reached a partial (its record already says so): saved when 4 MB or a second went unsaved. */
  wrote(n: number): void {
    this.unsaved += n;
    // a failed save is retried by the next one (each save chains past the last one's failure),
    // and the save awaited as each file is placed (finish.ts) reports one that keeps failing
    if (this.unsaved >= SAVE_EVERY_BYTES) this.save(true).catch(() => undefined);
    else this.save(false).catch(() => undefined);
  }

  /** Saves now (`force`) or when the last save is a second old. */
  save(force = true): Promise<void> {
    const now = Date.now();
    if (!force && now - this.lastSave < SAVE_EVERY_MS) return this.saving;
    if (this.queued) return this.saving;
    this.lastSave = now;
    this.queued = true;
    this.saving = this.saving
      .catch(() => undefined)
      .then(async () => {
        // what is written is the state as it is now, bytes that came while waiting included
        this.queued = false;
        this.unsaved = 0;
        await writeFile(this.path + '.tmp', JSON.stringify(this.data));
        await rename(this.path + '.tmp', this.path);
      });
    return this.saving;
  }
}

// How a file is cut into ranges, and what a range has written.

export interface RangeState {
  index: number;
  start: number;
  /** exclusive */
  end: number;
  /** bytes written from `start` (the record's entry, kept up to date) */
  have: number;
}

/** The ranges of a partial's record (`have` clamped to each range's length). */
export function rangesOf(rec: PartialRecord): RangeState[] {
  return rec.have.map((h, index) => {
    const start = index * rec.rangeBytes;
    const end = Math.min(rec.size, start + rec.rangeBytes);
    return { index, start, end, have: Math.min(h, end - start) };
  });
}

export const rangeDone = (r: RangeState): boolean => r.start + r.have >= r.end;

/** A fresh record: nothing written. */
export function freshRecord(oid: string, size: number, rangeBytes: number): PartialRecord {
  return { oid, size, rangeBytes, have: new Array<number>(Math.max(1, Math.ceil(size / rangeBytes))).fill(0) };
}
