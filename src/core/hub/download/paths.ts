/** Where a download's files land, and where their partials wait. */
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

/** The partial a file's bytes gather in before it is verified and renamed into place. */
export function partialPath(stateDir: string, it: DownloadItem): string {
  return join(stateDir, 'partial', `${it.lfsSha256 ?? it.oid}.part`);
}
