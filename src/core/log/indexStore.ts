/**
 * A folder of saved log indexes, one file per (log path, index options, kind), so that
 * a log opened again starts from its saved index. Writes are atomic (a temp file
 * renamed over the old one); disk use is bounded by a least-recently-used sweep.
 * What is read back is input like any other: `loadSaved` refuses a frame that does
 * not decode, names another file or other options, or no longer matches the file.
 */
import { errorDetail } from '../errorMessage';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeFrame, encodeFrame, INDEX_FORMAT_VERSION } from './indexCodec';
import type { DecodedFrame, Section } from './indexCodec';

export const DEFAULT_CACHE_BYTES = 1024 * 1024 * 1024;
const EDGE = 64 * 1024;
const SUFFIX = '.rlrbidx';

/** What a saved index says of its file: enough to tell unchanged, grown and replaced apart. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  /** bytes indexed: up to and including the last newline read */
  committed: number;
  /** sha256 of the first and of the last 64 KB before `committed` */
  head: string;
  tail: string;
}

/** sha256 of each range of the open file (bytes past its end are not there: a range is cut short). */
async function hashRanges(path: string, ranges: readonly (readonly [number, number])[]): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    // every byte hashed is one read here: the buffer needs no zeroing
    const buf = Buffer.allocUnsafe(Math.max(...ranges.map(([a, b]) => b - a)));
    const out: string[] = [];
    for (const [start, end] of ranges) {
      let done = 0;
      while (done < end - start) {
        const { bytesRead } = await fh.read(buf, done, end - start - done, start + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      out.push(createHash('sha256').update(buf.subarray(0, done)).digest('hex'));
    }
    return out;
  } finally {
    await fh.close();
  }
}

export async function fileIdentity(path: string, committed: number, size: number, mtimeMs: number): Promise<FileIdentity> {
  const [head, tail] = (await hashRanges(path, [
    [0, Math.min(EDGE, committed)],
    [Math.max(0, committed - EDGE), committed],
  ])) as [string, string];
  return { size, mtimeMs, committed, head, tail };
}

function isIdentity(v: unknown): v is FileIdentity {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const count = (x: unknown): boolean => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
  return (
    count(o['size']) &&
    count(o['committed']) &&
    typeof o['mtimeMs'] === 'number' &&
    typeof o['head'] === 'string' &&
    typeof o['tail'] === 'string'
  );
}

/** JSON with object keys sorted, so that equal options give equal text. */
export function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
    .join(',')}}`;
}

export interface StoreOptions {
  /** the sweep keeps the folder under this many bytes (default 1 GB; 0: nothing is saved); a function is asked at each use (a setting) */
  maxBytes?: number | (() => number);
  /** the product's version: kept figures (src/core/cache/keptFigures.ts) of another build are not used */
  build?: string;
}

export class IndexStore {
  private readonly limit: number | (() => number);
  readonly build: string;

  constructor(
    readonly dir: string,
    opts: StoreOptions = {},
  ) {
    this.limit = opts.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.build = opts.build ?? 'dev';
  }

  get maxBytes(): number {
    return typeof this.limit === 'function' ? this.limit() : this.limit;
  }

  /** The file name of one log's index: a hash of the kind, the absolute path, the options and the format version. */
  nameOf(kind: string, path: string, options: unknown): string {
    const key = `${INDEX_FORMAT_VERSION}\n${kind}\n${resolve(path)}\n${stableJson(options)}`;
    return createHash('sha256').update(key).digest('hex').slice(0, 40) + SUFFIX;
  }

  /** The file name of an entry keyed by text (kept figures): a hash of the kind, the key and the format version. */
  keyName(kind: string, key: string): string {
    return createHash('sha256').update(`${INDEX_FORMAT_VERSION}\n${kind}\n${key}`).digest('hex').slice(0, 40) + SUFFIX;
  }

  /** The bytes of a saved index (its access time renewed), or undefined when there is none. */
  async load(name: string): Promise<Buffer | undefined> {
    const p = join(this.dir, name);
    try {
      const st = await stat(p);
      if (!st.isFile() || st.size > this.maxBytes) return undefined;
      const buf = await readFile(p);
      const now = new Date();
      await utimes(p, now, now).catch(() => undefined);
      return buf;
    } catch {
      return undefined;
    }
  }

  /** Writes an index whole or not at all, then sweeps the folder down to its size limit. */
  async save(name: string, parts: Buffer[]): Promise<void> {
    if (this.maxBytes <= 0) {
      await this.sweep('').catch(() => undefined);
      return;
    }
    await mkdir(this.dir, { recursive: true });
    const tmp = join(this.dir, `${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(tmp, parts);
      await rename(tmp, join(this.dir, name));
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    await this.sweep(name);
  }

  /** Deletes least recently used indexes (never `keep`) until the folder fits, and temp files over an hour old. */
  private async sweep(keep: string): Promise<void> {
    const files: { name: string; size: number; used: number }[] = [];
    for (const name of await readdir(this.dir)) {
      const st = await stat(join(this.dir, name)).catch(() => undefined);
      if (!st?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (Date.now() - st.mtimeMs > 3600_000) await unlink(join(this.dir, name)).catch(() => undefined);
      } else if (name.endsWith(SUFFIX)) files.push({ name, size: st.size, used: st.mtimeMs });
    }
    let total = files.reduce((n, f) => n + f.size, 0);
    files.sort((a, b) => a.used - b.used);
    for (const f of files) {
      if (total <= this.maxBytes) break;
      if (f.name === keep) continue;
      await unlink(join(this.dir, f.name)).catch(() => undefined);
      total -= f.size;
    }
  }

  /** The saved index files (and temp files) and their sizes. */
  private async held(): Promise<{ path: string; size: number }[]> {
    const out: { path: string; size: number }[] = [];
    for (const name of await readdir(this.dir).catch(() => [] as string[])) {
      if (!name.endsWith(SUFFIX) && !name.endsWith('.tmp')) continue;
      const p = join(this.dir, name);
      const st = await stat(p).catch(() => undefined);
      if (st?.isFile()) out.push({ path: p, size: st.size });
    }
    return out;
  }

  /** How many saved indexes, and their bytes. */
  async usage(): Promise<{ files: number; bytes: number }> {
    const held = await this.held();
    return { files: held.length, bytes: held.reduce((n, f) => n + f.size, 0) };
  }

  /** Deletes every saved index; returns how many files and bytes were freed. */
  async clear(): Promise<{ files: number; bytes: number }> {
    const held = await this.held();
    for (const f of held) await unlink(f.path).catch(() => undefined);
    return { files: held.length, bytes: held.reduce((n, f) => n + f.size, 0) };
  }
}

export interface SavedIndex {
  frame: DecodedFrame;
  identity: FileIdentity;
}

/**
 * A saved index that still fits `path` as it is now: the same file unchanged, or the same
 * file grown (its first and last indexed bytes as they were). Undefined otherwise.
 */
export async function loadSaved(
  store: IndexStore,
  name: string,
  kind: string,
  path: string,
  optionsKey: string,
): Promise<SavedIndex | undefined> {
  const buf = await store.load(name);
  if (!buf) return undefined;
  const frame = decodeFrame(buf);
  if (!frame) return undefined;
  const h = frame.header;
  if (h['kind'] !== kind || h['path'] !== resolve(path) || h['options'] !== optionsKey) return undefined;
  const saved = h['identity'];
  if (!isIdentity(saved) || saved.committed > saved.size) return undefined;
  const st = await stat(path).catch(() => undefined);
  if (!st) return undefined;
  if (st.size < saved.size || st.size < saved.committed) return undefined;
  if (st.size === saved.size && st.mtimeMs !== saved.mtimeMs) return undefined;
  const now = await fileIdentity(path, saved.committed, st.size, st.mtimeMs);
  if (now.head !== saved.head || now.tail !== saved.tail) return undefined;
  return { frame, identity: saved };
}

/**
 * Saves the frame of a local log's index under `name`, its header given the file's path and
 * its identity as it is now (indexed up to `committed`). Saving is best effort: the error's
 * code (or message) when it could not, else undefined.
 */
export async function saveLocal(
  store: IndexStore,
  name: string,
  path: string,
  committed: number,
  frame: () => { header: Record<string, unknown>; sections: Section[] },
): Promise<string | undefined> {
  try {
    const st = await stat(path);
    const identity = await fileIdentity(path, committed, st.size, st.mtimeMs);
    const { header, sections } = frame();
    await store.save(name, encodeFrame({ ...header, path: resolve(path), identity }, sections));
    return undefined;
  } catch (e) {
    return errorDetail(e);
  }
}
