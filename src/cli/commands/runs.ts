/** `rlrb runs <run>... [--baseline R]`: the runs table, one row a run, as a table or one JSON object. */
import { resolve } from 'node:path';
import { runsTable } from '../../core/runs/runsTable';
import type { RunsRow, RunsTable } from '../../core/runs/runsTable';
import type { TableRun } from '../../core/runs/runsTable';
import { isHubRef } from '../../core/hub/inPlace/hubRef';
import { TAG_NAMES } from '../../shared/shapes';
import { formatFigure as fmt, formatPlain } from '../../shared/format';
import { UsageError, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openSettings } from '../open/openRun';
import type { OpenSettings } from '../open/openRun';
import { tableRun } from '../open/tableRuns';
import { safeLine, writeErr, writeOut } from '../output/safeText';
import { jsonText } from '../output/printed';
import { table } from '../output/table';

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);
const pval = (v: number | null): string => (v === null ? '—' : v < 1e-4 ? v.toExponential(2) : v.toFixed(4));
const same = (x: string, y: string): boolean => x === y || (!isHubRef(x) && !isHubRef(y) && resolve(x) === resolve(y));

/** The runs in order, the baseline first when it is not one of them; the baseline's entry. */
export async function openTable(
  refs: readonly string[],
  baseline: string | undefined,
  s: OpenSettings,
): Promise<{ runs: TableRun[]; base: TableRun | undefined }> {
  const names = baseline !== undefined && !refs.some((r) => same(r, baseline)) ? [baseline, ...refs] : [...refs];
  const unique = names.filter((n, i) => names.findIndex((m) => same(m, n)) === i);
  const runs = await Promise.all(unique.map((r) => tableRun(r, s)));
  const base = baseline === undefined ? undefined : runs.find((t) => same(t.name, baseline));
  return { runs, base };
}

function verdictCell(r: RunsRow): string {
  if (r.baseline) return 'baseline';
  const v = r.verdict;
  if (!v) return '—';
  const f = v.final;
  const head = f ? `${f.conclusion} @${v.iteration} (${fmt(f.meanDiff, 3)})` : 'no common checkpoint';
  return f && v.pooled.conclusion !== f.conclusion ? `${head}; pooled ${v.pooled.conclusion}` : head;
}

function setting(v: number | null, from: string | null): string {
  return v === null ? '—' : `${formatPlain(v, 3)}${from === 'card' ? ' (card)' : ''}`;
}

/** The readable form: the figures, then the tags' rates. */
export function runsText(t: RunsTable): string {
  const out: string[] = [`Runs: ${t.runs.length}${t.baseline !== null ? `; verdicts against ${safeLine(t.baseline)}` : ''}`, ''];
  const head = ['run', 'beta', 'tau', 'iters', 'trajs', 'reward first→last', 'gate diff', 'gate p', 'sign-flip', 'fallback', 'argmax'];
  const rows = t.runs.map((r) => [
    r.run,
    setting(r.settings.beta, r.settings.betaFrom),
    setting(r.settings.tau, r.settings.tauFrom),
    String(r.iterations),
    String(r.trajectories),
    `${formatPlain(r.reward.first, 3)} → ${formatPlain(r.reward.last, 3)}`,
    fmt(r.gate.meanDiff),
    pval(r.gate.p),
    pct(r.signFlipRate),
    pct(r.fallbackRate),
    pct(r.executedIsArgmaxRate),
  ]);
  out.push(...table([head, ...rows]), '');
  out.push('Evaluations (last checkpoint) and verdict (section 8):');
  const evals = t.runs.map((r) => [
    r.run,
    r.lastEval ? String(r.lastEval.iteration) : '—',
    r.lastEval ? String(r.lastEval.tasks) : '—',
    pct(r.lastEval?.success),
    verdictCell(r),
  ]);
  out.push(...table([['run', 'iteration', 'tasks', 'success', 'verdict'], ...evals]), '');
  out.push('Behaviour tags (rate of trajectories):');
  out.push(...table([['run', ...TAG_NAMES], ...t.runs.map((r) => [r.run, ...TAG_NAMES.map((n) => pct(r.tags[n]))])]));
  return out.map((l) => l.trimEnd()).join('\n') + '\n';
}

async function run(a: ParsedArgs): Promise<number> {
  const refs = a.positional.slice(1);
  if (refs.length === 0) throw new UsageError(`usage: rlrb ${RUNS.usage}`);
  const baseline = stringFlag(a, 'baseline');
  if (baseline !== undefined && baseline.trim() === '') throw new UsageError('--baseline needs a run');
  const { runs, base } = await openTable(refs, baseline, openSettings(a));
  const t = await runsTable(runs, base);
  for (const w of t.warnings) writeErr(`rlrb: warning: ${safeLine(w)}\n`);
  writeOut(a.flags.has('json') ? jsonText(t) : runsText(t));
  return 0;
}

export const RUNS: Command = {
  usage: `runs <run>... [--baseline RUN] [--json] ${INDEX_USAGE} [--endpoint URL]`,
  about: 'One row a run: reward, gate, rates, behaviour tags, last evaluation and its verdict against --baseline, beta and tau.',
  flags: { json: 'boolean', baseline: 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
