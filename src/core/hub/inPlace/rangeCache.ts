/**
 * Byte ranges of Hub files already fetched, kept on disk so that a log opened before reads
 * its records offline: one folder per file content (its sha256 or git oid), one file per
 * range named `<offset>-<length>`. Bounded by a least-recently-used sweep. What is read
 * back is untrusted: a name that does not parse or a file whose size is not the length
 * its name says is ignored (and deleted).
 */
import { mkdir, readdir, readFile, rename, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const DEFAULT_RANGE_CACHE_BYTES = 256 * 1024 * 1024;
const KEY = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const NAME = /^(0|[1-9]\d{0,15})-([1-9]\d{0,15})$/;

export interface CachedRange {
  offset: number;
  length: number;
}

export class RangeCache {
  constructor(
    readonly dir: string,
    readonly maxBytes = DEFAULT_RANGE_CACHE_BYTES,
  ) {}

  private folder(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a content hash: ${key}`);
    return join(this.dir, key);
  }

  /** The ranges held for a file, each checked against its size on disk. */
  async ranges(key: string): Promise<CachedRange[]> {
    const dir = this.folder(key);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const out: CachedRange[] = [];
    for (const name of names) {
      const m = NAME.exec(name);
      if (!m) continue;
      const r = { offset: Number(m[1]), length: Number(m[2]) };
      const st = await stat(join(dir, name)).catch(() => undefined);
      if (!st?.isFile()) continue;
      if (st.size !== r.length) {
        await unlink(join(dir, name)).catch(() => undefined);
        continue;
      }
      out.push(r);
    }
    return out;
  }

  /** Bytes [offset, offset + length) when one cached range holds them all; undefined otherwise. */
  async get(key: string, offset: number, length: number): Promise<Buffer | undefined> {
    const hit = (await this.ranges(key)).find((r) => r.offset <= offset && offset + length <= r.offset + r.length);
    if (!hit) return undefined;
    const p = join(this.folder(key), `${hit.offset}-${hit.length}`);
    const buf = await readFile(p).catch(() => undefined);
    if (buf?.length !== hit.length) return undefined;
    const now = new Date();
    await utimes(p, now, now).catch(() => undefined);
    return buf.subarray(offset - hit.offset, offset - hit.offset + length);
  }

  /** Keeps bytes fetched at `offset` (best effort: a full disk only costs the cache). */
  async put(key: string, offset: number, bytes: Buffer): Promise<void> {
    if (bytes.length === 0 || bytes.length > this.maxBytes) return;
    const dir = this.folder(key);
    try {
      await mkdir(dir, { recursive: true });
      const name = `${offset}-${bytes.length}`;
      const tmp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(tmp, bytes);
      await rename(tmp, join(dir, name));
      await this.sweep();
    } catch {
      // the cache is an optimisation
    }
  }

  /** Deletes least recently used ranges until the folder fits. */
  private async sweep(): Promise<void> {
    const files: { path: string; size: number; used: number }[] = [];
    for (const key of await readdir(this.dir).catch(() => [] as string[])) {
      if (!KEY.test(key)) continue;
      for (const name of await readdir(join(this.dir, key)).catch(() => [] as string[])) {
        const p = join(this.dir, key, name);
        const st = await stat(p).catch(() => undefined);
        if (st?.isFile()) files.push({ path: p, size: st.size, used: st.mtimeMs });
      }
    }
    let total = files.reduce((n, f) => n + f.size, 0);
    files.sort((a, b) => a.used - b.used);
    for (const f of files) {
      if (total <= this.maxBytes) break;
      await unlink(f.path).catch(() => undefined);
      total -= f.size;
    }
  }

  /** How many ranges of how many files, and their bytes. */
  async usage(): Promise<{ files: number; ranges: number; bytes: number }> {
    const u = { files: 0, ranges: 0, bytes: 0 };
    for (const key of await readdir(this.dir).catch(() => [] as string[])) {
      if (!KEY.test(key)) continue;
      const held = await this.ranges(key);
      if (held.length > 0) u.files++;
      u.ranges += held.length;
      u.bytes += held.reduce((n, r) => n + r.length, 0);
    }
    return u;
  }

  /** Deletes every cached range; returns how many ranges and bytes were freed. */
  async clear(): Promise<{ ranges: number; bytes: number }> {
    const u = await this.usage();
    for (const key of await readdir(this.dir).catch(() => [] as string[]))
      if (KEY.test(key)) await rm(join(this.dir, key), { recursive: true, force: true });
    return { ranges: u.ranges, bytes: u.bytes };
  }
}
