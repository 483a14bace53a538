/** The last steps: a verified partial made durable and renamed into place; the latest file written after all of them. */
import { mkdir, open, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DownloadItem } from './types';
import type { VerifiedStore } from './verified';

/** fsync of the partial, rename into place, and the record that it is verified. */
export async function finishFile(it: DownloadItem, part: string, abs: string, verified: VerifiedStore): Promise<void> {
  // r+: Windows flushes only a handle opened for writing
  const fh = await open(part, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  await mkdir(dirname(abs), { recursive: true });
  await rename(part, abs);
  verified.record(it, it.size, (await stat(abs)).mtimeMs);
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
