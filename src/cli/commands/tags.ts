/** `rlrb tags <run>`: the behaviour tags of docs/format.md section 7, as a table or one JSON object. */
import { behaviourReport } from '../../core/behaviour/report';
import type { BehaviourReport } from '../../core/behaviour/report';
import { TAG_NAMES } from '../../shared/shapes';
import type { BehaviourOptions } from '../../core/behaviour/tags';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { locateRunWith, openSettings } from '../open/openRun';
import { safeLine } from '../output/safeText';
import { emit, isPrinted, jsonText } from '../output/printed';
import type { Printed } from '../output/printed';
import { table } from '../output/table';
import { skippedWarnings } from '../../core/report/warnings';
import type { CreditIndex } from '../../core/log/creditIndex';

/** What `rlrb tags --json` prints: the tags, and the credit log's skipped lines as `rlrb report` gives them. */
export type TagsJson = BehaviourReport & { skippedLines: number; warnings: string[] };

export function tagsJson(idx: CreditIndex, window: { from?: number; to?: number }): TagsJson {
  return { ...behaviourReport(idx, window, idx.behaviourOptions), skippedLines: idx.skippedCount, warnings: skippedWarnings(idx) };
}

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

/** The readable table: one row a tag (count, rate, success of the tagged and of the untagged). */
export function tagsTable(r: TagsJson, where: string, o: BehaviourOptions): string {
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
  if (r.warnings.length > 0) out.push('', 'Warnings:', ...r.warnings.map((w) => `  - ${safeLine(w)}`));
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${TAGS.usage}`);
  const from = numberFlag(a, 'from', { int: true, min: 0 });
  const to = numberFlag(a, 'to', { int: true, min: 0 });
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const json = a.flags.has('json');
  const window = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
  const { run: opened, read } = await locateRunWith(path, openSettings(a));
  const printed = await opened.kept('tags', { json, window }, isPrinted, async (): Promise<Printed> => {
    await read();
    const idx = opened.credit!;
    const o = idx.behaviourOptions;
    const r = tagsJson(idx, window);
    return { out: json ? jsonText(r) : tagsTable(r, opened.location.root, o), err: [] };
  });
  emit(printed);
  return 0;
}

export const TAGS: Command = {
  usage: `tags <run folder, credit log or hub:owner/name[@revision]> [--json] [--from I] [--to J] ${INDEX_USAGE} [--endpoint URL]`,
  flags: { json: 'boolean', from: 'string', to: 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
