/**
 * The runs of a runs table as the CLI opens them (`locateRunWith`, one set of settings for all),
 * each with where its card is: a Hub ref's README.md fetched when its row is computed, a local
 * run's README.md beside its logs.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { readCard } from '../../core/hub/card';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';
import type { TableRun } from '../../core/runs/runsTable';
import { connection } from './hubConnection';
import { locateRunWith } from './openRun';
import type { OpenSettings } from './openRun';

const CARD_MAX_BYTES = 1 << 20;

/** A local card: at most 1 MB of a regular file; undefined when there is none. */
function localCard(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const st = fstatSync(fd);
    if (!st.isFile()) return undefined;
    const buf = Buffer.alloc(Math.min(st.size, CARD_MAX_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export async function tableRun(ref: string, s: OpenSettings): Promise<TableRun> {
  const { run, read } = await locateRunWith(ref, s);
  const hub = isHubRef(ref) ? parseHubRef(ref) : undefined;
  const card =
    hub !== undefined && typeof hub !== 'string'
      ? async (): Promise<string | undefined> => readCard(hub.repo, hub.revision, await connection(s.args))
      : async (): Promise<string | undefined> => Promise.resolve(localCard(join(run.location.root, 'README.md')));
  return { name: ref, run, read, card };
}
