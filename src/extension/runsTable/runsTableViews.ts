/**
 * The runs table's presenter: core's runs table (src/core/runs/runsTable.ts, the rows `rlrb runs`
 * prints) in the page's words, one cell a column with the number it sorts by, and the rows of
 * runs not shown yet (still being read, a followed repo whose logs are not read) with why.
 */
import type { RunsRow, RunsTable } from '../../core/runs/runsTable';
import type { VerdictFigures } from '../../core/runs/verdict';
import { signedPoints } from '../../core/eval/verdictWords';
import { formatCount, formatFigure, formatP, formatPercent, formatPlain } from '../../shared/format';
import { TAG_NAMES } from '../../shared/shapes';
import { TAG_WORDS } from '../../shared/tagWords';
import type { RunsCellView, RunsColumn, RunsRowView, RunsTableView } from '../../shared/protocol/runsTable';

/** A run of the table as the panel knows it: where it is from, and its row once computed. */
export interface TableEntry {
  root: string;
  name: string;
  source: RunsRowView['source'];
  /** why it has no figures yet; undefined when `row` is set */
  note?: string;
  readable?: boolean;
}

const cell = (text: string, sort: number | string | null, opens = true, title?: string): RunsCellView => ({
  text,
  sort,
  opens,
  ...(title !== undefined ? { title } : {}),
});

const num = (v: number | null | undefined): number | null => (v === null || v === undefined || !Number.isFinite(v) ? null : v);
const pct = (v: number | null | undefined, title?: string): RunsCellView => cell(formatPercent(v), num(v), v !== null, title);

function setting(v: number | null, from: string | null): RunsCellView {
  return cell(v === null ? '—' : formatPlain(v, 3), v, true, from === null ? 'not stated by its logs or its card' : `from its ${from}`);
}

/** "+7.2 pts (better)" at the last common checkpoint; the pooled conclusion too where it differs. */
function verdictCell(r: RunsRow, baseline: string | null): RunsCellView {
  if (r.baseline) return cell('baseline', null, false, 'the run the verdicts are against');
  if (baseline === null) return cell('—', null, false, 'pick a baseline for the verdicts');
  const v = r.verdict;
  if (!v) return cell('—', null, false, 'no evaluation log in this run or the baseline');
  const f: VerdictFigures | null = v.final;
  if (!f) return cell('no common checkpoint', null, true, 'the runs evaluated no checkpoint in common');
  const diff = f.meanDiff === null ? '' : ` ${signedPoints(f.meanDiff)} pts`;
  const pooled = v.pooled.conclusion !== f.conclusion ? `; pooled ${v.pooled.conclusion}` : '';
  const title =
    `at iteration ${v.iteration}, ${formatCount(f.tasks)} tasks paired: A − B ${formatFigure(f.meanDiff, 3)}, ` +
    `95% CI ${f.ci95 ? `${formatFigure(f.ci95[0], 3)} to ${formatFigure(f.ci95[1], 3)}` : '—'}, p ${formatP(f.p)}` +
    (f.mde80 !== null ? `; 80% power to see ${formatPercent(f.mde80)}` : '');
  return { ...cell(`${f.conclusion}${diff}${pooled}`, f.meanDiff, true, title), tone: f.conclusion };
}

/** The cells of one computed row. */
export function rowCells(r: RunsRow, name: string, baseline: string | null): Partial<Record<RunsColumn, RunsCellView>> {
  const out: Partial<Record<RunsColumn, RunsCellView>> = {
    run: cell(name, name.toLowerCase(), true, r.root),
    beta: setting(r.settings.beta, r.settings.betaFrom),
    tau: setting(r.settings.tau, r.settings.tauFrom),
    iterations: cell(formatCount(r.iterations), r.iterations),
    trajectories: cell(formatCount(r.trajectories), r.trajectories),
    rewardFirst: cell(formatPlain(r.reward.first, 3), num(r.reward.first), true, 'mean reward of the first 10 iterations'),
    rewardLast: cell(formatPlain(r.reward.last, 3), num(r.reward.last), true, 'mean reward of the last 10 iterations'),
    gateDiff: cell(formatFigure(r.gate.meanDiff, 3), num(r.gate.meanDiff), true, `over ${formatCount(r.gate.groups)} mixed groups`),
    gateP: cell(formatP(r.gate.p), num(r.gate.p)),
    signFlip: pct(r.signFlipRate),
    fallback: pct(r.fallbackRate),
    argmax: pct(r.executedIsArgmaxRate),
    evalSuccess: r.lastEval
      ? cell(
          `${formatPercent(r.lastEval.success)} @${r.lastEval.iteration}`,
          r.lastEval.success,
          true,
          `${formatCount(r.lastEval.tasks)} tasks at iteration ${r.lastEval.iteration}`,
        )
      : cell('—', null, false, 'no evaluation log'),
    verdict: verdictCell(r, baseline),
  };
  for (const t of TAG_NAMES) {
    const rate = r.tags[t];
    out[`tag:${t}`] = pct(rate, rate === null ? 'needs labeled trajectories' : TAG_WORDS[t].meaning);
  }
  return out;
}

/** The page's view: every entry in order, its computed row's cells when there is one. */
export function runsTableView(entries: readonly TableEntry[], table: RunsTable | undefined, baselineRoot: string | null): RunsTableView {
  const byRoot = new Map((table?.runs ?? []).map((r) => [r.root, r]));
  const base = baselineRoot === null ? undefined : entries.find((e) => e.root === baselineRoot);
  const baseName = base?.name ?? null;
  const rows = entries.map((e): RunsRowView => {
    const r = e.note === undefined ? byRoot.get(e.root) : undefined;
    return {
      root: e.root,
      name: e.name,
      source: e.source,
      note: r ? null : (e.note ?? 'reading…'),
      readable: e.readable === true,
      baseline: r?.baseline ?? e.root === baselineRoot,
      cells: r ? rowCells(r, e.name, baseName) : {},
    };
  });
  return {
    rows,
    baseline: base ? { root: base.root, name: base.name } : null,
    warnings: table?.warnings ?? [],
    reading: rows.filter((r) => r.note !== null && !r.readable).length,
  };
}
