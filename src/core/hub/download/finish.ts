/** The last steps: a verified partial made durable and renamed into place; the latest file written after all of them. */
import type { Stats } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DownloadItem } from './types';
import type { Manifest } from './manifest';

/**
 * fsync of the partial, rename into place, and the record that it is verified. What is
 * renamed is checked to be what was verified: the partial still has the file's size, and
 * the file now in place is that same file (same inode), so bytes appended by anyone else
 * after the hash never reach the destination. (The bytes themselves were hashed as they
 * were written; the lock keeps every other writer out.)
 */
export async function finishFile(it: DownloadItem, part: string, abs: string, verified: Manifest): Promise<void> {
  // r+: Windows flushes only a handle opened for writing
  const fh = await open(part, 'r+');
  let synced: Stats;
  try {
    await fh.sync();
    synced = await fh.stat();
  } finally {
    await fh.close();
  }
  if (synced.size !== it.size) {
    await rm(part, { force: true });
    throw new Error(`its partial changed after it was verified (${synced.size} bytes, not ${it.size}); it is fetched again next time`);
  }
  await mkdir(dirname(abs), { recursive: true });
  await rename(part, abs);
  const placed = await stat(abs);
  if (placed.ino !== synced.ino || placed.size !== it.size) throw new Error(`${abs} is not the file that was verified`);
  verified.record(it, it.size, placed.mtimeMs);
  await verified.save();
}

/**
 * Writes the latest file once every file is in place, verified and on disk (their
 * directories too): only now may the launcher see this iteration, even after a power cut.
 */
export async function writeLatest(target: string, value: number, dirs: Iterable<string>): Promise<void> {
  for (const d of dirs) await syncDir(d);
  const fh = await open(target + '.tmp', 'w');
  try {
    await fh.writeFile(String(value));
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(target + '.tmp', target);
  await syncDir(dirname(target));
}

/** fsync of a directory, so that the renames in it survive a power cut (where the OS allows it). */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // some platforms (Windows) cannot open or fsync a directory: the rename is what we have
  }
}
