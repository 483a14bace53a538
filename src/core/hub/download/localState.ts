/**
 * What a destination already holds of a plan, without writing anything there: each file
 * verified (recorded in the manifest with its size and mtime, else hashed now), partly
 * fetched (bytes a partial holds by the manifest), there but different, or missing. For a
 * dry run, and for deciding whether files left out by a filter are already in place.
 */
import { join, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { DownloadItem } from './types';
import { STATE_DIR } from './types';
import { expectedDigest, fileSize, hashFile, newHasher } from './digest';
import { Manifest, rangesOf } from './manifest';
import { manifestFolder } from './state';
import { partialPath, safeTarget } from './paths';

export type LocalState = 'verified' | 'partial' | 'differs' | 'missing';

export interface ItemState {
  it: DownloadItem;
  state: LocalState;
  /** bytes already here: the whole file when verified, the partial's written bytes when partial */
  have: number;
}

export async function localStates(dest: string, items: readonly DownloadItem[], stateRoot: string | undefined): Promise<ItemState[]> {
  const abs = resolve(dest);
  const m = await Manifest.read(manifestFolder(abs, stateRoot), abs);
  const out: ItemState[] = [];
  for (const it of items) out.push(await stateOf(abs, it, m));
  return out;
}

async function stateOf(dest: string, it: DownloadItem, m: Manifest): Promise<ItemState> {
  const target = safeTarget(dest, it.target);
  const size = await fileSize(target);
  if (size === it.size) {
    const st = await stat(target);
    if (m.matches(it, size, st.mtimeMs)) return { it, state: 'verified', have: size };
    const h = newHasher(it);
    await hashFile(target, h);
    if (h.digest('hex') === expectedDigest(it).hex) return { it, state: 'verified', have: size };
  }
  const rec = m.partial(it);
  const part = await fileSize(partialPath(join(dest, STATE_DIR), it));
  if (rec && part !== undefined && part <= it.size) {
    const have = rangesOf(rec).reduce((s, r) => s + r.have, 0);
    if (have > 0) return { it, state: 'partial', have };
  }
  return { it, state: size === undefined ? 'missing' : 'differs', have: 0 };
}
