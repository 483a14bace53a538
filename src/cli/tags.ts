/** `rlrb tags <run> [--json] [--horizon H] [--theta T] [--from I] [--to J]`: run-format.md section 7, as a table or one JSON object. */
import { resolve } from 'node:path';
import { Run } from '../core/run/run';
import { LogEncodingError } from '../core/log/jsonlFile';
import { isHubRef } from '../core/hub/inPlace/hubRef';
import { behaviourReport } from '../core/behaviour/report';
import type { BehaviourReport } from '../core/behaviour/report';
import { TAG_NAMES } from '../core/behaviour/tags';
import type { BehaviourOptions } from '../core/behaviour/tags';
import { errorCode, errorMessage } from '../core/errorMessage';
import { UsageError, numberFlag } from './args';
import type { FlagSpec, ParsedArgs } from './args';
import { openInPlace } from './hub';
import { INDEX_FLAGS, indexEngine, indexOptions } from './indexOptions';
import { safeLine, writeJson, writeOut } from './safeText';
import { table } from './table';

export const TAGS_USAGE =
  'rlrb tags <run folder or credit log> [--json] [--horizon H] [--theta T] [--from I] [--to J] [--click-tol N] [--key-case on|off] [--map FILE] [--no-cache] [--threads N]';

export const TAGS_FLAGS: FlagSpec = { json: 'boolean', from: 'string', to: 'string', endpoint: 'string', ...INDEX_FLAGS };

async function openCredit(path: string, a: ParsedArgs): Promise<Run> {
  const opts = indexOptions(a);
  const run = isHubRef(path) ? await openInPlace(path, a, opts) : await Run.open(resolve(path), opts, indexEngine(a));
  if (!run) throw new UsageError(`${path}: no run here (expected logs/ws_credit_log.jsonl, logs/ws_metrics.jsonl, or a .jsonl file)`);
  if (!run.credit) throw new UsageError(`${path}: no credit log (ws_credit_log.jsonl) found`);
  try {
    await run.update();
  } catch (e) {
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    throw new UsageError(`cannot read ${path}: ${errorCode(e) ?? errorMessage(e)}`);
  }
  return run;
}

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** The readable table: one row a tag (count, rate, success of the tagged and of the untagged). */
export function tagsTable(r: BehaviourReport, where: string, o: BehaviourOptions): string {
  const out: string[] = [];
  out.push(`Behaviour tags: ${safeLine(where)}`);
  out.push(
    `${r.trajectories} trajectories; horizon ${o.horizon}, theta ${o.theta}; collapsed turns ${pct(r.collapsedTurnRate)} of compared turns`,
  );
  out.push('');
  const rows = TAG_NAMES.map((name) => {
    const f = r.tags[name];
    if (!f) return [name, '—', '—', '—', '—', 'no labeled turn in this run'];
    return [name, String(f.count), pct(f.rate), pct(f.successTagged), pct(f.successUntagged), ''];
  });
  out.push(...table([['tag', 'count', 'rate', 'success tagged', 'success untagged', ''], ...rows]));
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

export async function cmdTags(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: ${TAGS_USAGE}`);
  const from = numberFlag(a, 'from', { int: true, min: 0 });
  const to = numberFlag(a, 'to', { int: true, min: 0 });
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const run = await openCredit(path, a);
  const idx = run.credit!;
  const o = idx.behaviourOptions;
  const r = behaviourReport(idx, { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) }, o);
  if (a.flags.has('json')) writeJson(r);
  else writeOut(tagsTable(r, run.location.root, o));
  return 0;
}
