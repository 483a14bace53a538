/** What a file must hash to, and hashing what is on disk. */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DownloadItem } from './types';

/** LFS files are checked against their sha256, small files against their git blob sha1. */
export function expectedDigest(it: DownloadItem): { algo: 'sha256' | 'sha1'; hex: string } {
  return it.lfsSha256 ? { algo: 'sha256', hex: it.lfsSha256 } : { algo: 'sha1', hex: it.oid };
}

/** The identity a verified file is recorded under. */
export function contentId(it: DownloadItem): string {
  return it.lfsSha256 ?? it.oid;
}

export function newHasher(it: DownloadItem): Hash {
  const h = createHash(expectedDigest(it).algo);
  if (!it.lfsSha256) h.update(`blob ${it.size}\0`);
  return h;
}

/** Feeds bytes [start, end) of a file (from 0 and to its end by default) to a hasher. */
export async function hashFile(path: string, h: Hash, end?: number, start = 0): Promise<void> {
  if (end !== undefined && end <= start) return;
  await new Promise<void>((res, rej) => {
    const s = createReadStream(path, { highWaterMark: 1 << 20, start, ...(end !== undefined ? { end: end - 1 } : {}) });
    s.on('data', (c) => h.update(c));
    s.on('end', () => res());
    s.on('error', rej);
  });
}

export async function fileSize(p: string): Promise<number | undefined> {
  try {
    return (await stat(p)).size;
  } catch {
    return undefined;
  }
}
