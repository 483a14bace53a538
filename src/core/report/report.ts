/** The run report of docs/format.md section 4, from the index alone. */
import type { CreditIndex } from '../log/creditIndex';
import type { MetricsTable } from '../log/metricsIndex';
import { auroc, mean } from './stats';
import { Flag } from '../../shared/shapes';
import type { ReportFigures } from '../../shared/shapes';
import { accumulate, ratio, rms } from './accumulate';
import type { Acc } from './accumulate';
import { computeGate } from './gate';
import type { GateGroup, GateReport, GateResult } from './gate';
import { reportWarnings } from './warnings';
import { signFlipGroups } from './signFlips';
import type { SignFlipGroup } from './signFlips';
import { twinDisagreements } from './twins';
import type { TwinDisagreement } from './twins';
import { creditDiagnostics } from './creditDiagnostics';
import type { CreditDiagnosticsResult } from './creditDiagnostics';

export type { GateGroup, GateReport };

/** Exactly the keys that `rlrb report --json` prints. */
export type RunReport = ReportFigures;

export interface IterationFigures {
  iteration: number;
  trajectories: number;
  labeledTrajectories: number;
  rewardMean: number | null;
  allFailGroups: number;
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  meanC: number | null;
  rmsBetaCOverRmsA: number | null;
  gateGroups: number;
  gateMeanDiff: number | null;
  cMismatches: number;
  aTMismatches: number;
}

export interface FullReport {
  report: RunReport;
  perIteration: IterationFigures[];
  gateGroups: GateGroup[];
  /** every group holding a sign-flipped turn (section 4) */
  signFlipGroups: SignFlipGroup[];
  /** logged `ws/` figures that differ from their recomputed twin (empty without a metrics log) */
  twinDisagreements: TwinDisagreement[];
  sameMismatches: number;
  /** the gate per iteration with its interval, c by outcome in the gate's groups, the dose per iteration */
  creditDiagnostics: CreditDiagnosticsResult;
}

function iterationFigures(it: number, a: Acc, gate: GateResult): IterationFigures {
  const gd = gate.byIteration.get(it) ?? [];
  return {
    iteration: it,
    trajectories: a.trajectories,
    labeledTrajectories: a.labeledTrajectories,
    rewardMean: ratio(a.rewardSum, a.rewardN),
    allFailGroups: gate.allFail.get(it) ?? 0,
    signFlipRate: ratio(a.flips, a.flipBase),
    fallbackRate: ratio(a.fallback, a.labeledNotMasked),
    executedIsArgmaxRate: ratio(a.argmax, a.credited),
    meanC: ratio(a.sumC, a.cCount),
    rmsBetaCOverRmsA: rms(a),
    gateGroups: gd.length,
    gateMeanDiff: mean(gd),
    cMismatches: a.cMis,
    aTMismatches: a.aMis,
  };
}

/** AUROC of trajectory-mean c for success, over labeled trajectories with credited turns and a finite reward. */
function aurocOf(index: CreditIndex): number | null {
  const c = index.columns;
  const scores: number[] = [];
  const positive: boolean[] = [];
  for (let i = 0; i < index.size; i++) {
    if ((c.flags[i]! & Flag.Labeled) === 0 || c.cCount[i]! === 0 || !Number.isFinite(c.reward[i]!)) continue;
    scores.push(c.sumC[i]! / c.cCount[i]!);
    positive.push(c.reward[i]! > 0);
  }
  return auroc(scores, positive);
}

/**
 * The report of section 4 from the index; `metrics`, when given, is checked against the
 * recomputed per-iteration twins.
 */
export function computeReport(index: CreditIndex, extraWarnings: string[] = [], metrics?: MetricsTable): FullReport {
  const { total, perIteration: perIt, groups } = accumulate(index);
  const gate = computeGate(index, groups);
  const perIteration = [...perIt.keys()].sort((a, b) => a - b).map((it) => iterationFigures(it, perIt.get(it)!, gate));
  const report: RunReport = {
    signFlipRate: ratio(total.flips, total.flipBase),
    fallbackRate: ratio(total.fallback, total.labeledNotMasked),
    executedIsArgmaxRate: ratio(total.argmax, total.credited),
    meanC: ratio(total.sumC, total.cCount),
    rmsBetaCOverRmsA: rms(total),
    cMismatches: total.cMis,
    aTMismatches: total.aMis,
    gate: gate.gate,
    auroc: aurocOf(index),
    trajectories: index.size,
    iterations: perIt.size,
    labeledTurns: total.labeledTurns,
    creditedTurns: total.credited,
    skippedLines: index.skippedCount,
    warnings: reportWarnings(index, total, extraWarnings),
  };
  return {
    report,
    perIteration,
    gateGroups: gate.groups,
    signFlipGroups: signFlipGroups(index, groups),
    twinDisagreements: metrics ? twinDisagreements(perIteration, metrics) : [],
    sameMismatches: total.sameMis,
    creditDiagnostics: creditDiagnostics(
      index,
      gate.groups,
      gate.byIteration,
      perIteration.map((p) => ({ iteration: p.iteration, dose: p.rmsBetaCOverRmsA })),
    ),
  };
}

// ---- the training curve

export interface CurveRow {
  name: string;
  metric: string;
  first: number | null;
  last: number | null;
  /** where the figure came from */
  source: 'metrics' | 'credit log' | 'none';
}

const CURVE: readonly { name: string; metric: string }[] = [
  { name: 'reward', metric: 'ws/reward_mean' },
  { name: 'all-failure groups', metric: 'ws/all_fail_groups' },
  { name: 'response length', metric: 'ws/response_len_mean' },
  { name: 'truncation', metric: 'ws/truncation_rate' },
];

/** First 10 against last 10 iterations, from the metrics log where it has them, else from the credit log. */
export function trainingCurve(metrics: MetricsTable | undefined, perIteration: IterationFigures[], window = 10): CurveRow[] {
  return CURVE.map(({ name, metric }) => {
    // the two windows only: a whole column of a 12 M-row log is not built for 20 numbers
    const n = metrics?.names.includes(metric) ? metrics.count : 0;
    const head = n > 0 ? metrics!.values(metric, 0, window)! : undefined;
    const tail = n > 0 ? metrics!.values(metric, Math.max(0, n - window), n)! : undefined;
    if (head && tail && (head.some(Number.isFinite) || tail.some(Number.isFinite) || metrics!.values(metric)!.some(Number.isFinite))) {
      const finite = (a: Float64Array): number[] => Array.from(a).filter(Number.isFinite);
      return { name, metric, first: mean(finite(head)), last: mean(finite(tail)), source: 'metrics' as const };
    }
    const fromLog =
      name === 'reward'
        ? perIteration.map((p) => p.rewardMean)
        : name === 'all-failure groups'
          ? perIteration.map((p) => p.allFailGroups)
          : null;
    if (fromLog && fromLog.length > 0) {
      const f = fromLog.filter((v): v is number => v !== null);
      return { name, metric, first: mean(f.slice(0, window)), last: mean(f.slice(-window)), source: 'credit log' as const };
    }
    return { name, metric, first: null, last: null, source: 'none' as const };
  });
}
