/**
 * When an index starts from its saved copy and when it writes it again: one lifecycle for
 * every index kept in an `IndexStore`. The first update loads the saved index (once); an
 * update that read something new saves at most every `SAVE_INTERVAL_MS`, so a growing log
 * is not rewritten on every poll, and an unchanged log is not rewritten at all.
 */
import { stat } from 'node:fs/promises';
import type { DecodedFrame, Section } from './indexCodec';
import type { IndexStore } from './indexStore';
import { loadSaved, saveLocal } from './indexStore';

/** A running index is saved at most this often while its file grows (and after its first read). */
export const SAVE_INTERVAL_MS = 30_000;

/** What the first update started from. */
export type CacheUse = 'none' | 'unchanged' | 'grown';

/** What the lifecycle needs of the index it keeps. */
export interface SavedIndexHost {
  readonly path: string;
  /** the kind written in the header (`credit`, `metrics`) */
  readonly kind: string;
  /** the options the saved index must have been built with, as one string */
  readonly optionsKey: string;
  /** the file name in the store */
  storeName(store: IndexStore): string;
  /** starts from a saved frame indexed up to `committed`; false when it does not check out */
  restore(frame: DecodedFrame, committed: number): boolean;
  /** the bytes read up to the last whole line and the frame of what they hold; undefined while a provisional last line is held */
  frameToSave(): { committed: number; frame: () => { header: Record<string, unknown>; sections: Section[] } } | undefined;
}

export class SavedLifecycle {
  /** what the first update started from */
  cacheUse: CacheUse = 'none';
  /** why the saved index could not be written, when it could not (saving is best effort) */
  cacheError: string | undefined;
  private loading: Promise<void> | undefined;
  private lastSave = 0;

  constructor(
    private readonly store: IndexStore | undefined,
    private readonly host: SavedIndexHost,
  ) {}

  /** Starts from the saved index, the first time only. */
  load(): Promise<void> {
    if (!this.store) return Promise.resolve();
    return (this.loading ??= this.loadFrom(this.store));
  }

  /** After an update: saves when it read something new (or never saved) and the last save is old enough. */
  async afterUpdate(readSomething: boolean): Promise<void> {
    const store = this.store;
    if (!store || (!readSomething && this.lastSave !== 0) || Date.now() - this.lastSave < SAVE_INTERVAL_MS) return;
    const toSave = this.host.frameToSave();
    if (!toSave) return;
    this.cacheError = await saveLocal(store, this.host.storeName(store), this.host.path, toSave.committed, toSave.frame);
    if (this.cacheError === undefined) this.lastSave = Date.now();
  }

  private async loadFrom(store: IndexStore): Promise<void> {
    const h = this.host;
    const saved = await loadSaved(store, h.storeName(store), h.kind, h.path, h.optionsKey).catch(() => undefined);
    if (!saved || !h.restore(saved.frame, saved.identity.committed)) return;
    const st = await stat(h.path).catch(() => undefined);
    const unchanged = st?.size === saved.identity.size && st.mtimeMs === saved.identity.mtimeMs;
    this.cacheUse = unchanged ? 'unchanged' : 'grown';
    // the saved index is current: it need not be written again until the file grows
    if (unchanged) this.lastSave = Date.now();
  }
}
