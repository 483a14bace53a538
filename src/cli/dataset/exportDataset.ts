/**
 * `rlrb export <run>... --dataset DIR [--push owner/name]`: the runs into one Hive-partitioned
 * Parquet dataset (docs/dataset.md), each run opened as `report` opens it, one run at a time,
 * its iterations written by as many threads as `--threads` reads a log with (the report's
 * default: the cores the load leaves free); then, when asked, the dataset uploaded to a Hub
 * dataset repo.
 */
import { basename, resolve } from 'node:path';
import { writeRunDataset, RUN_ID } from '../../core/export/dataset/writeDataset';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';
import { UsageError, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import { openRunWith, openSettings } from '../open/openRun';
import { indexThreads } from '../open/indexOptions';
import { safeLine, writeErr } from '../output/safeText';
import { pushConnection, pushDataset } from './pushDataset';

/** The flags that only `--format` exports take. */
const FORMAT_ONLY = ['format', 'out', 'iteration-min', 'iteration-max', 'group', 'reward', 'labeled', 'flag', 'tag', 'text'];

/** The partition value of a run: its folder's name, or `owner--name[--revision]` for a Hub ref. */
export function runId(ref: string): string {
  const hub = isHubRef(ref) ? parseHubRef(ref) : undefined;
  const raw =
    hub !== undefined && typeof hub !== 'string'
      ? `${hub.repo.replace('/', '--')}${hub.revision === 'main' ? '' : `--${hub.revision}`}`
      : basename(ref.endsWith('.jsonl') ? resolve(ref, '..', '..') : resolve(ref));
  return raw.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200) || 'run';
}

export async function exportDataset(a: ParsedArgs, signal: AbortSignal): Promise<void> {
  const given = FORMAT_ONLY.filter((f) => a.flags.has(f));
  if (given.length > 0) throw new UsageError(`--dataset takes no --${given[0]}: it exports every trajectory and turn`);
  const dir = resolve(stringFlag(a, 'dataset')!);
  const refs = a.positional.slice(1);
  if (refs.length === 0) throw new UsageError('--dataset needs at least one run');
  const ids = refs.map(runId);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup !== undefined) throw new UsageError(`two runs would both be run=${dup} in the dataset: give them folders of different names`);
  const push = stringFlag(a, 'push');
  if (push !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(push)) throw new UsageError(`--push takes owner/name, not "${safeLine(push)}"`);
  const conn = push !== undefined ? await pushConnection(a, signal) : undefined;
  for (const [i, ref] of refs.entries()) {
    const id = ids[i]!;
    if (!RUN_ID.test(id)) throw new UsageError(`${ref}: cannot name it in the dataset`);
    // the dataset is the credit log's: its metrics and evaluations are not read
    const run = await openRunWith(ref, { ...openSettings(a), creditOnly: true });
    const origin = run.location.remote?.credit;
    const threads = { threads: indexThreads(a) };
    const r = await writeRunDataset(dir, id, run.credit!, { signal, threads, ...(origin ? { origin } : {}) });
    writeErr(`rlrb: run=${id}: ${r.trajectories} trajectories, ${r.turns} turns over ${r.iterations} iterations\n`);
  }
  writeErr(`rlrb: dataset written to ${dir}\n`);
  if (push !== undefined && conn) await pushDataset(dir, push, conn);
}
