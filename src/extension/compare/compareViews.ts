/** The comparison panel's view model from core's RunComparison (pure; no vscode): figures in plain words, both reports, the task table. */
import type { RunComparison } from '../../core/compare/compareRuns';
import type { ComparisonFigures, TaskRow } from '../../core/compare/figures';
import type { CurveRow, RunReport } from '../../core/report/report';
import { reportLines } from '../../core/report/targets';
import { compareBehaviourView } from './behaviourViews';
import { gateView } from '../report/creditViews';
import type { Mark } from '../../core/report/targets';
import { formatCount, formatP, formatPercent, formatPlain, formatRate, plural } from '../../shared/format';
import type {
  CompareChartsView,
  CompareFigureView,
  CompareReportLineView,
  CompareSideView,
  CompareView,
  CurveLineView,
  TaskRowView,
  TaskSortView,
} from '../../shared/protocol/compare';

export interface SideName {
  name: string;
  root: string;
}

/** The figures of section 4 that need labeled turns are empty for a run without them; this says why. */
export function unlabeledNote(r: RunReport): string {
  return r.labeledTurns > 0
    ? ''
    : 'no labeled turn (a plain GRPO run?): the figures that need labeled turns ' +
        '(sign flips, fallback, argmax, c, the dose, the gate, AUROC) are empty';
}

/** What a p value says, in words a reader can act on. */
export function pWords(p: number | null, why: string): string {
  if (p === null) return `no p value: ${why}`;
  return p < 0.05
    ? `p = ${formatP(p)}: a difference this large is unlikely (under 5%) if the runs were equally good`
    : `p = ${formatP(p)}: this could well be chance`;
}

const points = (d: number): string => `${formatRate(Math.abs(d) * 100, 1)} points`;

function windowWords(f: ComparisonFigures): string {
  if (f.iterations === 0) return 'The runs share no iteration: nothing to compare.';
  const first = f.perIteration[0]!.iteration;
  const last = f.perIteration[f.perIteration.length - 1]!.iteration;
  return (
    `Iterations both runs hold (at least one counted trajectory each): ${formatCount(f.iterations)}, from ${first} to ` +
    `${last}. Every figure below uses these only.`
  );
}

function successWords(f: ComparisonFigures): string {
  if (f.successA === null || f.successB === null) return 'Empty: no counted trajectory in the window.';
  const d = f.successA - f.successB;
  const lead = d > 0 ? `A is ${points(d)} ahead` : d < 0 ? `A is ${points(d)} behind` : 'the same';
  return `Share of trajectories with reward > 0 in the window: A ${formatPercent(f.successA)}, B ${formatPercent(f.successB)}: ${lead}.`;
}

function rewardWords(f: ComparisonFigures): string {
  if (f.rewardA === null || f.rewardB === null) return 'Empty: no counted trajectory in the window.';
  return `Mean reward per trajectory in the window: A ${formatPlain(f.rewardA)}, B ${formatPlain(f.rewardB)}.`;
}

function aheadWords(f: ComparisonFigures): string {
  if (f.iterations === 0) return 'Empty: no common iteration.';
  const ties = f.iterations - f.iterationsAhead - f.iterationsBehind;
  return (
    `In ${f.iterationsAhead} of ${f.iterations} common iterations A's success was higher than B's, in ${f.iterationsBehind} ` +
    `lower (${ties} tied). Sign test, ${pWords(f.iterationSignTestP, 'every iteration tied')}.`
  );
}

function taskDiffWords(f: ComparisonFigures): string {
  const t = f.tasks;
  if (t.count === 0) return 'Empty: no task seen by both runs in the window (tasks pair by task_id, else instruction).';
  if (t.meanDiff === null) return 'Empty.';
  const dir = t.meanDiff > 0 ? 'higher' : t.meanDiff < 0 ? 'lower' : 'no different';
  const size = t.meanDiff === 0 ? '' : `${points(t.meanDiff)} `;
  const test = t.t === null ? pWords(null, 'every task has the same difference') : `paired t = ${formatRate(t.t, 2)}, ${pWords(t.p, '')}`;
  return `Over ${plural(t.count, 'task')} both runs saw, A's success on a task is ${size}${dir} than B's on average; ${test}.`;
}

function winsWords(f: ComparisonFigures): string {
  const t = f.tasks;
  if (t.count === 0) return 'Empty: no task seen by both runs in the window.';
  return (
    `A did better on ${plural(t.wins, 'task')}, B on ${formatCount(t.losses)}, ${formatCount(t.ties)} tied. Sign test, ` +
    `${pWords(t.signTestP, 'every task tied')}.`
  );
}

const diffOf = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a - b);

/** The figures of section 6, each with what it means. */
export function figureViews(f: ComparisonFigures): CompareFigureView[] {
  const t = f.tasks;
  return [
    {
      key: 'iterations',
      label: 'common iterations',
      quantity: 'count',
      a: f.iterations,
      b: f.iterations,
      diff: null,
      p: null,
      meaning: windowWords(f),
    },
    {
      key: 'trajectories',
      label: 'trajectories in the window',
      quantity: 'count',
      a: f.trajectoriesA,
      b: f.trajectoriesB,
      diff: null,
      p: null,
      meaning: 'Counted trajectories of each run in the window (whole-number iteration, finite reward).',
    },
    {
      key: 'success',
      label: 'success',
      quantity: 'rate',
      a: f.successA,
      b: f.successB,
      diff: diffOf(f.successA, f.successB),
      p: null,
      meaning: successWords(f),
    },
    {
      key: 'reward',
      label: 'mean reward',
      quantity: 'plain',
      a: f.rewardA,
      b: f.rewardB,
      diff: diffOf(f.rewardA, f.rewardB),
      p: null,
      meaning: rewardWords(f),
    },
    {
      key: 'iterationsAhead',
      label: 'iterations ahead / behind',
      quantity: 'count',
      a: f.iterationsAhead,
      b: f.iterationsBehind,
      diff: null,
      p: f.iterationSignTestP,
      meaning: aheadWords(f),
    },
    {
      key: 'taskMeanDiff',
      label: 'per-task success A − B (paired t)',
      quantity: 'rate',
      a: null,
      b: null,
      diff: t.meanDiff,
      p: t.p,
      meaning: taskDiffWords(f),
    },
    {
      key: 'taskWins',
      label: 'tasks won / lost',
      quantity: 'count',
      a: t.wins,
      b: t.losses,
      diff: t.wins - t.losses,
      p: t.signTestP,
      meaning: winsWords(f),
    },
  ];
}

const MARK_WORDS: Readonly<Record<Mark, string>> = { pass: 'pass', near: 'near', fail: 'fail', info: '', none: 'no data' };

/** Section 4 for both runs, line by line; a run without labeled turns says so where its figure is empty. */
export function reportSideBySide(a: RunReport, b: RunReport): CompareReportLineView[] {
  const lb = new Map(reportLines(b).map((l) => [l.key, l]));
  const mark = (m: Mark, value: number | null, r: RunReport): string =>
    value === null && r.labeledTurns === 0 ? 'no labeled turn' : MARK_WORDS[m];
  return reportLines(a).map((la) => {
    const other = lb.get(la.key);
    const bv = other?.value ?? null;
    return {
      key: la.key,
      label: la.label,
      quantity: la.quantity,
      card: la.card,
      target: la.target,
      a: la.value,
      b: bv,
      markA: mark(la.mark, la.value, a),
      markB: mark(other?.mark ?? 'none', bv, b),
    };
  });
}

const curveView = (c: CurveRow[]): CurveLineView[] => c.map((x) => ({ name: x.name, first: x.first, last: x.last, source: x.source }));

function side(s: SideName, r: RunReport): CompareSideView {
  return { name: s.name, root: s.root, unlabeled: unlabeledNote(r) };
}

export function compareView(c: RunComparison, a: SideName, b: SideName): CompareView {
  const f = c.figures;
  const its = f.perIteration;
  return {
    a: side(a, c.reportA),
    b: side(b, c.reportB),
    window: { iterations: f.iterations, first: its[0]?.iteration ?? null, last: its[its.length - 1]?.iteration ?? null },
    figures: figureViews(f),
    warnings: [...c.warnings],
    report: reportSideBySide(c.reportA, c.reportB),
    curveA: curveView(c.curveA),
    curveB: curveView(c.curveB),
    taskCounts: { both: f.tasks.count, onlyA: c.counts.onlyA, onlyB: c.counts.onlyB },
    behaviour: compareBehaviourView(c.behaviour, c.evalBehaviour),
  };
}

/** The charts' series, apart from the view: the page asks for them once the figures are on the screen. */
export function compareChartsView(c: RunComparison): CompareChartsView {
  return {
    perIteration: c.figures.perIteration.map((p) => ({
      iteration: p.iteration,
      successA: p.successA,
      successB: p.successB,
      diff: p.successA - p.successB,
    })),
    credit: { a: gateView(c.creditDiagnostics.A), b: gateView(c.creditDiagnostics.B) },
  };
}

/** The task table's rows under a filter (case-insensitive substring of the task) and a sort; no data sorts last either way. */
export function queryTaskRows(rows: readonly TaskRow[], sort: TaskSortView, text: string): TaskRow[] {
  const needle = text.trim().toLowerCase();
  const kept = needle === '' ? [...rows] : rows.filter((r) => r.task.toLowerCase().includes(needle));
  const dir = sort.descending ? -1 : 1;
  const byTask = (x: TaskRow, y: TaskRow): number => (x.task < y.task ? -1 : x.task > y.task ? 1 : 0);
  if (sort.key === 'task') return kept.sort((x, y) => dir * byTask(x, y));
  const k = sort.key;
  return kept.sort((x, y) => {
    const u = x[k];
    const v = y[k];
    if (u === null || v === null) return u === v ? byTask(x, y) : u === null ? 1 : -1;
    return u !== v ? dir * (u - v) : byTask(x, y);
  });
}

export function taskRowView(r: TaskRow): TaskRowView {
  return {
    task: r.task,
    successA: r.successA,
    successB: r.successB,
    diff: r.diff,
    trajectoriesA: r.trajectoriesA,
    trajectoriesB: r.trajectoriesB,
  };
}
