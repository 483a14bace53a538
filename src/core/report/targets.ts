/** The card's targets for the run report, and the pass / near / fail mark of each figure. */
import type { RunReport } from './report';

export type Mark = 'pass' | 'near' | 'fail' | 'info' | 'none';

export interface ReportLine {
  key: string;
  label: string;
  value: number | null;
  /** the card's measured figure, for comparison */
  card: string;
  target: string;
  mark: Mark;
  /** the rule behind the mark, in words, e.g. "pass: = 0 · near: < 0.001"; '' when there is no mark */
  tolerance: string;
  /** how the value is written (src/shared/format.ts's Quantity) */
  quantity: 'rate' | 'count' | 'p' | 'signed' | 'plain';
}

/** A line of the report: what it shows and the rule that marks its value (undefined: shown for information). */
interface LineSpec {
  key: string;
  label: string;
  card: string;
  target: string;
  tolerance: string;
  quantity: ReportLine['quantity'];
  value(r: RunReport): number | null;
  /** `r`: the report, absent when a logged series is judged without one */
  rule?: (v: number, r?: RunReport) => Exclude<Mark, 'none'>;
}

const band =
  (pass: (v: number) => boolean, near: (v: number) => boolean) =>
  (v: number): Exclude<Mark, 'none'> =>
    pass(v) ? 'pass' : near(v) ? 'near' : 'fail';

const below = (pass: number, near: number): ((v: number) => Exclude<Mark, 'none'>) =>
  band(
    (v) => v < pass,
    (v) => v < near,
  );

const info = (): Exclude<Mark, 'none'> => 'info';

const LINES: readonly LineSpec[] = [
  {
    key: 'signFlipRate',
    label: 'sign-flip rate',
    card: '0.0000',
    target: 'exactly 0',
    tolerance: 'pass: = 0 · near: < 0.001 · else fail',
    quantity: 'rate',
    value: (r) => r.signFlipRate,
    rule: band(
      (v) => v === 0,
      (v) => v < 0.001,
    ),
  },
  {
    key: 'fallbackRate',
    label: 'fallback rate',
    card: '0.0001',
    target: '< 0.05',
    tolerance: 'pass: < 0.05 · near: < 0.06 · else fail',
    quantity: 'rate',
    value: (r) => r.fallbackRate,
    rule: below(0.05, 0.06),
  },
  {
    key: 'executedIsArgmaxRate',
    label: 'executed-is-argmax',
    card: '0.2023',
    target: '0.200 (chance)',
    tolerance: 'pass: |x − 0.200| ≤ 0.02 · near: ≤ 0.04 · else fail',
    quantity: 'rate',
    value: (r) => r.executedIsArgmaxRate,
    rule: band(
      (v) => Math.abs(v - 0.2) <= 0.02,
      (v) => Math.abs(v - 0.2) <= 0.04,
    ),
  },
  {
    key: 'meanC',
    label: 'mean c',
    card: '+0.034',
    target: '|mean| < 0.03',
    tolerance: 'pass: |mean c| < 0.03 · near: < 0.04 · else fail',
    quantity: 'signed',
    value: (r) => r.meanC,
    rule: band(
      (v) => Math.abs(v) < 0.03,
      (v) => Math.abs(v) < 0.04,
    ),
  },
  {
    key: 'rmsBetaCOverRmsA',
    label: 'rms(beta*c) / rms(A)',
    card: '0.128',
    target: 'the dose',
    tolerance: '',
    quantity: 'plain',
    value: (r) => r.rmsBetaCOverRmsA,
    rule: info,
  },
  {
    key: 'cMismatches',
    label: 'c mismatches',
    card: '',
    target: '0',
    tolerance: 'a turn counts when |c − recomputed c| > 1e-6 (β, τ below) · pass: 0 turns',
    quantity: 'count',
    value: (r) => r.cMismatches,
    rule: (v) => (v === 0 ? 'pass' : 'fail'),
  },
  {
    key: 'aTMismatches',
    label: 'A_t mismatches',
    card: '',
    target: '0',
    tolerance: 'a turn counts when |A_t − (A + β·c)| > 1e-6 · pass: 0 turns',
    quantity: 'count',
    value: (r) => r.aTMismatches,
    rule: (v) => (v === 0 ? 'pass' : 'fail'),
  },
  {
    key: 'gate.meanDiff',
    label: 'gate: mean diff',
    card: '+0.0353 (575 groups)',
    target: '> 0',
    tolerance: 'pass: > 0 with p < 0.05 · near: > 0 · else fail',
    quantity: 'signed',
    value: (r) => r.gate.meanDiff,
    rule: (v, r) => (v > 0 && r?.gate.p != null && r.gate.p < 0.05 ? 'pass' : v > 0 ? 'near' : 'fail'),
  },
  { key: 'gate.t', label: 'gate: t', card: '2.75', target: '', tolerance: '', quantity: 'signed', value: (r) => r.gate.t, rule: info },
  {
    key: 'gate.p',
    label: 'gate: p',
    card: '0.0059',
    target: '< 0.05',
    tolerance: 'pass: < 0.05 · near: < 0.1 · else fail',
    quantity: 'p',
    value: (r) => r.gate.p,
    rule: below(0.05, 0.1),
  },
  {
    key: 'gate.signTestP',
    label: 'gate: sign test p',
    card: '0.0046 (32/45)',
    target: '< 0.05',
    tolerance: 'pass: < 0.05 · near: < 0.1 · else fail',
    quantity: 'p',
    value: (r) => r.gate.signTestP,
    rule: below(0.05, 0.1),
  },
  {
    key: 'gate.firstHalfMeanDiff',
    label: 'gate: first half',
    card: '+0.0214',
    target: '',
    tolerance: '',
    quantity: 'signed',
    value: (r) => r.gate.firstHalfMeanDiff,
    rule: info,
  },
  {
    key: 'gate.secondHalfMeanDiff',
    label: 'gate: second half',
    card: '+0.0483',
    target: '',
    tolerance: '',
    quantity: 'signed',
    value: (r) => r.gate.secondHalfMeanDiff,
    rule: info,
  },
  {
    key: 'auroc',
    label: 'AUROC of mean c',
    card: '0.530 (unpaired)',
    target: '',
    tolerance: '',
    quantity: 'plain',
    value: (r) => r.auroc,
    rule: info,
  },
];

function lineOf(spec: LineSpec, r: RunReport): ReportLine {
  const value = spec.value(r);
  const { key, label, card, target, tolerance, quantity } = spec;
  return { key, label, value, card, target, mark: value === null || !spec.rule ? 'none' : spec.rule(value, r), tolerance, quantity };
}

/** The report's lines, each marked by the card's target over the whole run. */
export function reportLines(r: RunReport): ReportLine[] {
  return LINES.map((spec) => lineOf(spec, r));
}

/** Reference lines of docs/format.md section 5 for the charts. */
export interface MetricTarget {
  value: number;
  label: string;
  /** 'eq': the value itself; 'lt': below; 'abs': |x| below */
  kind: 'eq' | 'lt' | 'abs' | 'gt';
  /** for 'eq': how far from the value still meets the target */
  tol?: number;
}

/** Whether a value meets its target: 'eq' within tol, 'lt' below, 'abs' |x| below, 'gt' above. */
export function meetsTarget(t: MetricTarget, v: number): boolean {
  switch (t.kind) {
    case 'eq':
      return Math.abs(v - t.value) <= (t.tol ?? 0);
    case 'lt':
      return v < t.value;
    case 'abs':
      return Math.abs(v) < t.value;
    case 'gt':
      return v > t.value;
  }
}

/** By metric name; no prototype, so that a metric named `__proto__` or `constructor` has no target. */
export const METRIC_TARGETS: Readonly<Record<string, MetricTarget | undefined>> = Object.assign(
  Object.create(null) as Record<string, MetricTarget>,
  {
    'ws/sign_flip_rate': { value: 0, label: 'exactly 0', kind: 'eq' },
    'ws/fallback_rate': { value: 0.05, label: '< 0.05', kind: 'lt' },
    'ws/executed_is_argmax': { value: 0.2, label: '0.200 ± 0.02 (chance)', kind: 'eq', tol: 0.02 },
    'ws/tau_running': { value: 20, label: 'frozen at 20 ± 2', kind: 'eq', tol: 2 },
    'ws/c_mean': { value: 0.03, label: '|mean c| < 0.03', kind: 'abs' },
    'ws/gate_mean_diff': { value: 0, label: '> 0', kind: 'gt' },
  },
);

/** The report line whose rule judges each charted metric of section 5 that has a recomputed figure. */
const METRIC_LINE: Readonly<Record<string, string | undefined>> = Object.assign(Object.create(null) as Record<string, string>, {
  'ws/sign_flip_rate': 'signFlipRate',
  'ws/fallback_rate': 'fallbackRate',
  'ws/executed_is_argmax': 'executedIsArgmaxRate',
  'ws/c_mean': 'meanC',
  'ws/gate_mean_diff': 'gate.meanDiff',
});

/** One card target judged over the span the card states: the whole run. */
export interface TargetJudgement {
  metric: string;
  /** the target in words (METRIC_TARGETS' label) */
  target: string;
  mark: Exclude<Mark, 'info'>;
  /** the figure judged: the report's whole-run figure, else the mean of the logged values */
  value: number | null;
  source: 'report' | 'logged mean' | 'none';
  /** the rule, in words */
  tolerance: string;
  /** the last finite logged value and its iteration, shown beside the mark */
  last: number | null;
  lastIteration: number | null;
}

/** A logged series over iterations (NaN: a gap). */
export interface LoggedSeries {
  iterations: readonly number[];
  values: ArrayLike<number>;
}

function lastFinite(s: LoggedSeries | undefined): { last: number | null; lastIteration: number | null } {
  if (s)
    for (let i = s.iterations.length - 1; i >= 0; i--)
      if (Number.isFinite(s.values[i]!)) return { last: s.values[i]!, lastIteration: s.iterations[i]! };
  return { last: null, lastIteration: null };
}

function loggedMean(s: LoggedSeries | undefined): number | null {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < (s?.iterations.length ?? 0); i++) {
    const v = s!.values[i]!;
    if (!Number.isFinite(v)) continue;
    sum += v;
    n++;
  }
  return n > 0 ? sum / n : null;
}

/** A target without a report line ('eq' with a tolerance, e.g. tau frozen at 20 ± 2): pass within tol, near within twice it. */
function markByTarget(t: MetricTarget, v: number): Exclude<Mark, 'none' | 'info'> {
  if (meetsTarget(t, v)) return 'pass';
  if (t.kind === 'eq' && Math.abs(v - t.value) <= 2 * (t.tol ?? 0)) return 'near';
  return 'fail';
}

/**
 * The one judgement of a card target, for the dashboard and the report alike: a metric
 * with a figure of the run report is judged by that report line (its value and mark over
 * the whole run); without a report (or where its figure is null) the logged series' mean
 * over the whole run is judged by the same rule. Undefined for a metric without a target.
 */
export function judgeMetric(metric: string, report: RunReport | undefined, series: LoggedSeries | undefined): TargetJudgement | undefined {
  const target = METRIC_TARGETS[metric];
  if (!target) return undefined;
  const spec = LINES.find((l) => l.key === METRIC_LINE[metric]);
  const base = { metric, target: target.label, ...lastFinite(series) };
  const fromReport = spec && report ? lineOf(spec, report) : undefined;
  if (fromReport && fromReport.value !== null && fromReport.mark !== 'info')
    return { ...base, mark: fromReport.mark, value: fromReport.value, source: 'report', tolerance: spec!.tolerance };
  const v = loggedMean(series);
  if (v === null) return { ...base, mark: 'none', value: null, source: 'none', tolerance: spec?.tolerance ?? '' };
  const mark = spec?.rule ? spec.rule(v) : markByTarget(target, v);
  const tolerance =
    spec?.tolerance ?? (target.kind === 'eq' ? `pass: within ${target.tol ?? 0} · near: within ${2 * (target.tol ?? 0)} · else fail` : '');
  return { ...base, mark: mark === 'info' ? 'none' : mark, value: v, source: 'logged mean', tolerance };
}
