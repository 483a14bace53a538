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

function markOf(value: number | null, f: (v: number) => Mark): Mark {
  return value === null ? 'none' : f(value);
}

export function reportLines(r: RunReport): ReportLine[] {
  const g = r.gate;
  return [
    {
      key: 'signFlipRate',
      label: 'sign-flip rate',
      value: r.signFlipRate,
      card: '0.0000',
      target: 'exactly 0',
      mark: markOf(r.signFlipRate, (v) => (v === 0 ? 'pass' : v < 0.001 ? 'near' : 'fail')),
      tolerance: 'pass: = 0 · near: < 0.001 · else fail',
      quantity: 'rate',
    },
    {
      key: 'fallbackRate',
      label: 'fallback rate',
      value: r.fallbackRate,
      card: '0.0001',
      target: '< 0.05',
      mark: markOf(r.fallbackRate, (v) => (v < 0.05 ? 'pass' : v < 0.06 ? 'near' : 'fail')),
      tolerance: 'pass: < 0.05 · near: < 0.06 · else fail',
      quantity: 'rate',
    },
    {
      key: 'executedIsArgmaxRate',
      label: 'executed-is-argmax',
      value: r.executedIsArgmaxRate,
      card: '0.2023',
      target: '0.200 (chance)',
      mark: markOf(r.executedIsArgmaxRate, (v) => (Math.abs(v - 0.2) <= 0.02 ? 'pass' : Math.abs(v - 0.2) <= 0.04 ? 'near' : 'fail')),
      tolerance: 'pass: |x − 0.200| ≤ 0.02 · near: ≤ 0.04 · else fail',
      quantity: 'rate',
    },
    {
      key: 'meanC',
      label: 'mean c',
      value: r.meanC,
      card: '+0.034',
      target: '|mean| < 0.03',
      mark: markOf(r.meanC, (v) => (Math.abs(v) < 0.03 ? 'pass' : Math.abs(v) < 0.04 ? 'near' : 'fail')),
      tolerance: 'pass: |mean c| < 0.03 · near: < 0.04 · else fail',
      quantity: 'signed',
    },
    {
      key: 'rmsBetaCOverRmsA',
      label: 'rms(beta*c) / rms(A)',
      value: r.rmsBetaCOverRmsA,
      card: '0.128',
      target: 'the dose',
      mark: markOf(r.rmsBetaCOverRmsA, () => 'info'),
      tolerance: '',
      quantity: 'plain',
    },
    {
      key: 'cMismatches',
      label: 'c mismatches',
      value: r.cMismatches,
      card: '',
      target: '0',
      mark: r.cMismatches === 0 ? 'pass' : 'fail',
      tolerance: 'a turn counts when |c − recomputed c| > 1e-6 (β, τ below) · pass: 0 turns',
      quantity: 'count',
    },
    {
      key: 'aTMismatches',
      label: 'A_t mismatches',
      value: r.aTMismatches,
      card: '',
      target: '0',
      mark: r.aTMismatches === 0 ? 'pass' : 'fail',
      tolerance: 'a turn counts when |A_t − (A + β·c)| > 1e-6 · pass: 0 turns',
      quantity: 'count',
    },
    {
      key: 'gate.meanDiff',
      label: 'gate: mean diff',
      value: g.meanDiff,
      card: '+0.0353 (575 groups)',
      target: '> 0',
      mark: markOf(g.meanDiff, (v) => (v > 0 && g.p !== null && g.p < 0.05 ? 'pass' : v > 0 ? 'near' : 'fail')),
      tolerance: 'pass: > 0 with p < 0.05 · near: > 0 · else fail',
      quantity: 'signed',
    },
    {
      key: 'gate.t',
      label: 'gate: t',
      value: g.t,
      card: '2.75',
      target: '',
      mark: markOf(g.t, () => 'info'),
      tolerance: '',
      quantity: 'signed',
    },
    {
      key: 'gate.p',
      label: 'gate: p',
      value: g.p,
      card: '0.0059',
      target: '< 0.05',
      mark: markOf(g.p, (v) => (v < 0.05 ? 'pass' : v < 0.1 ? 'near' : 'fail')),
      tolerance: 'pass: < 0.05 · near: < 0.1 · else fail',
      quantity: 'p',
    },
    {
      key: 'gate.signTestP',
      label: 'gate: sign test p',
      value: g.signTestP,
      card: '0.0046 (32/45)',
      target: '< 0.05',
      mark: markOf(g.signTestP, (v) => (v < 0.05 ? 'pass' : v < 0.1 ? 'near' : 'fail')),
      tolerance: 'pass: < 0.05 · near: < 0.1 · else fail',
      quantity: 'p',
    },
    {
      key: 'gate.firstHalfMeanDiff',
      label: 'gate: first half',
      value: g.firstHalfMeanDiff,
      card: '+0.0214',
      target: '',
      mark: markOf(g.firstHalfMeanDiff, () => 'info'),
      tolerance: '',
      quantity: 'signed',
    },
    {
      key: 'gate.secondHalfMeanDiff',
      label: 'gate: second half',
      value: g.secondHalfMeanDiff,
      card: '+0.0483',
      target: '',
      mark: markOf(g.secondHalfMeanDiff, () => 'info'),
      tolerance: '',
      quantity: 'signed',
    },
    {
      key: 'auroc',
      label: 'AUROC of mean c',
      value: r.auroc,
      card: '0.530 (unpaired)',
      target: '',
      mark: markOf(r.auroc, () => 'info'),
      tolerance: '',
      quantity: 'plain',
    },
  ];
}

/** Reference lines of run-format.md section 5 for the charts. */
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
