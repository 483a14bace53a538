/**
 * Kept figures of logs in known states (a run's states at its last update, src/core/run/run.ts):
 * the entry kept for exactly those states, else the value computed now, kept for them when its
 * JSON gives back the same value (so that a kept value always equals a fresh one).
 */
import { isDeepStrictEqual } from 'node:util';
import { loadKept, saveKept } from './keptFigures';
import type { FileState, KeptKey } from './keptFigures';
import type { IndexStore } from '../log/indexStore';

export async function keptAt<T>(
  store: IndexStore | undefined,
  key: KeptKey,
  states: FileState[] | undefined,
  valid: (v: unknown) => v is T,
  compute: () => T | Promise<T>,
): Promise<{ value: T; source: 'kept' | 'computed' }> {
  const usable = store && store.maxBytes > 0 && states ? store : undefined;
  if (usable && states) {
    const hit = await loadKept(usable, key, states, valid).catch(() => undefined);
    if (hit !== undefined) return { value: hit, source: 'kept' };
  }
  const value = await compute();
  if (usable && states && isDeepStrictEqual(JSON.parse(JSON.stringify(value)) as unknown, value))
    await saveKept(usable, key, states, value);
  return { value, source: 'computed' };
}
