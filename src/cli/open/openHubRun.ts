/**
 * A `hub:owner/name[@revision]` run opened in place: a module of its own, loaded only by a
 * command given a Hub ref (it brings the Hub client).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexStore } from '../../core/log/indexStore';
import { HubRun } from '../../core/hub/inPlace/hubRun';
import { parseHubRef } from '../../core/hub/inPlace/hubRef';
import { RangeCache } from '../../core/hub/inPlace/rangeCache';
import type { HubConnection } from '../../core/hub/model';
import { UsageError } from '../args';
import { cliCacheDir, rangesDir } from './indexOptions';
import { connection } from './hubConnection';
import type { IndexOptions } from '../../core/log/creditIndex';
import type { ParsedArgs } from '../args';
import { repoProblem } from './repoId';
import { safeLine, writeErr } from '../output/safeText';

/** A Hub run read in place, with what it was opened with (the watch follows it). */
export interface OpenedHubRun {
  hr: HubRun;
  conn: HubConnection;
  store: IndexStore;
}

/**
 * `hub:owner/name[@revision]`: the repo's logs read in place, the index saved in the cache folder
 * (`--no-cache`: a temporary one) with the ranges fetched under `ranges/`.
 */
export async function openHubRun(spec: string, s: { options: IndexOptions; args: ParsedArgs }): Promise<OpenedHubRun> {
  const ref = parseHubRef(spec);
  if (typeof ref === 'string') throw new UsageError(ref);
  const bad = repoProblem(ref.repo);
  if (bad !== undefined) throw new UsageError(bad);
  const dir = s.args.flags.has('no-cache') ? mkdtempSync(join(tmpdir(), 'rlrb-in-place-')) : cliCacheDir();
  const conn = await connection(s.args);
  const options = s.options;
  const store = new IndexStore(dir);
  const hr = await HubRun.open(ref, { conn, store, cache: new RangeCache(rangesDir(dir)), options });
  if (hr.savedIndexLine !== undefined) {
    writeErr(`rlrb: warning: ${safeLine(hr.savedIndexLine)}\n`);
    const note = await hr.offlineNote();
    if (note !== undefined) writeErr(`rlrb: warning: ${safeLine(note)}\n`);
  }
  return { hr, conn, store };
}
