/** Where a download's files land, and where their partials wait. */
import { lstat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { DownloadItem } from './types';
import { DownloadError, STATE_DIR } from './types';

/** Where a target lands, or an error when it would land outside the destination. */
export function safeTarget(dest: string, target: string): string {
  if (target === '' || isAbsolute(target) || /^[A-Za-z]:/.test(target) || target.split(/[\\/]/).some((p) => p === '..' || p === '')) {
    throw new DownloadError(`refusing "${target}": it would land outside ${dest}`, target);
  }
  const abs = resolve(dest, target);
  const rel = relative(resolve(dest), abs);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] === STATE_DIR)
    throw new DownloadError(`refusing "${target}": it would land outside ${dest}`, target);
  return abs;
}

/**
 * The partial a file's bytes gather in before it is verified and renamed into place:
 * named after its target (safe by then), so two files with the same bytes never share one.
 */
export function partialPath(stateDir: string, it: DownloadItem): string {
  return join(stateDir, 'partial', `${it.target}.part`);
}

/**
 * Refuses a path under `dest` that goes through a symbolic link already there (each
 * component is checked with lstat; `dest` itself may be one, the user chose it), so that
 * nothing is written outside the destination.
 */
export async function refuseSymlinks(dest: string, abs: string): Promise<void> {
  const rel = relative(dest, abs);
  let cur = dest;
  for (const part of rel.split(sep)) {
    cur = join(cur, part);
    let st;
    try {
      st = await lstat(cur);
    } catch {
      return; // not there yet: nothing below it is either
    }
    if (st.isSymbolicLink()) throw new DownloadError(`refusing to write through ${cur}: it is a symbolic link`, cur);
  }
}
