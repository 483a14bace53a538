/** `rlrb tags <run>`: the behaviour tags of run-format.md section 7, as a table or one JSON object. */
import { behaviourReport } from '../../core/behaviour/report';
import type { BehaviourReport } from '../../core/behaviour/report';
import { TAG_NAMES } from '../../shared/shapes';
import type { BehaviourOptions } from '../../core/behaviour/tags';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openRun } from '../open/openRun';
import { safeLine, writeJson, writeOut } from '../output/safeText';
import { table } from '../output/table';

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

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${TAGS.usage}`);
  const from = numberFlag(a, 'from', { int: true, min: 0 });
  const to = numberFlag(a, 'to', { int: true, min: 0 });
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const opened = await openRun(path, a);
  const idx = opened.credit!;
  const o = idx.behaviourOptions;
  const r = behaviourReport(idx, { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) }, o);
  if (a.flags.has('json')) writeJson(r);
  else writeOut(tagsTable(r, opened.location.root, o));
  return 0;
}

export const TAGS: Command = {
  usage: `tags <run folder, credit log or hub:owner/name[@revision]> [--json] [--from I] [--to J] ${INDEX_USAGE} [--endpoint URL]`,
  flags: { json: 'boolean', from: 'string', to: 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
