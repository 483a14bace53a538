/** The run report of run-format.md section 4, from the index alone. */
import type { CreditIndex } from '../log/creditIndex';
import type { MetricsTable } from '../log/metricsIndex';
import { auroc, mean, sampleSd, twoSidedP } from './stats';
import { Flag } from '../record/trajectory';

export interface GateReport {
  groups: number;
  meanDiff: number | null;
  t: number | null;
  p: number | null;
  iterations: number;
  iterationsPositive: number;
  signTestP: number | null;
  firstHalfMeanDiff: number | null;
  secondHalfMeanDiff: number | null;
}

/** Exactly the keys that `rlrb report --json` prints. */
export interface RunReport {
  signFlipRate: number | null;
  fallbackRate: number | null;
  executedIsArgmaxRate: number | null;
  meanC: number | null;
  rmsBetaCOverRmsA: number | null;
  cMismatches: number;
  aTMismatches: number;
  gate: GateReport;
  auroc: number | null;
  trajectories: number;
  iterations: number;
  labeledTurns: number;
  creditedTurns: number;
  skippedLines: number;
  warnings: string[];
}

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

/** One group that enters the gate, for "jump to the gate's pairs". */
export interface GateGroup {
  iteration: number;
  group: number;
  diff: number;
  /** rows of its labeled trajectories with credited turns */
  rows: number[];
}

interface Acc {
  trajectories: number;
  labeledTrajectories: number;
  rewardSum: number;
  rewardN: number;
  labeledNotMasked: number;
  fallback: number;
  credited: number;
  flipBase: number;
  flips: number;
  argmax: number;
  cCount: number;
  sumC: number;
  /** credited turns with a finite logged c in trajectories with a finite A: the dose's turns */
  doseN: number;
  sumBc2: number;
  sumA2: number;
  cMis: number;
  aMis: number;
  sameMis: number;
  labeledTurns: number;
}

const newAcc = (): Acc => ({
  trajectories: 0,
  labeledTrajectories: 0,
  rewardSum: 0,
  rewardN: 0,
  labeledNotMasked: 0,
  fallback: 0,
  credited: 0,
  flipBase: 0,
  flips: 0,
  argmax: 0,
  cCount: 0,
  sumC: 0,
  doseN: 0,
  sumBc2: 0,
  sumA2: 0,
  cMis: 0,
  aMis: 0,
  sameMis: 0,
  labeledTurns: 0,
});

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

function rms(acc: Acc): number | null {
  if (acc.doseN === 0 || acc.sumA2 === 0) return null;
  return Math.sqrt(acc.sumBc2 / acc.doseN) / Math.sqrt(acc.sumA2 / acc.doseN);
}

export interface FullReport {
  report: RunReport;
  perIteration: IterationFigures[];
  gateGroups: GateGroup[];
  sameMismatches: number;
}

export function computeReport(index: CreditIndex, extraWarnings: string[] = []): FullReport {
  const c = index.columns;
  const n = index.size;
  const beta = index.options.credit.beta;
  const total = newAcc();
  const perIt = new Map<number, Acc>();
  // group key -> rows
  const groups = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const it = c.iteration[i]!;
    let acc = perIt.get(it);
    if (!acc) {
      acc = newAcc();
      perIt.set(it, acc);
    }
    for (const a of [total, acc]) {
      a.trajectories++;
      if ((c.flags[i]! & Flag.Labeled) !== 0) a.labeledTrajectories++;
      if (Number.isFinite(c.reward[i]!)) {
        a.rewardSum += c.reward[i]!;
        a.rewardN++;
      }
      a.labeledTurns += c.labeledTurns[i]!;
      a.labeledNotMasked += c.labeledTurns[i]! - c.maskedTurns[i]!;
      a.fallback += c.fallbackTurns[i]!;
      a.credited += c.creditedTurns[i]!;
      a.flipBase += c.flipBase[i]!;
      a.flips += c.signFlips[i]!;
      a.argmax += c.argmaxTurns[i]!;
      a.cCount += c.cCount[i]!;
      a.sumC += c.sumC[i]!;
      // the dose: both sides over the same turns, those of trajectories whose A is finite
      if (Number.isFinite(c.A[i]!)) {
        a.doseN += c.cCount[i]!;
        a.sumBc2 += beta * beta * c.sumC2[i]!;
        a.sumA2 += c.A[i]! * c.A[i]! * c.cCount[i]!;
      }
      a.cMis += c.cMismatches[i]!;
      a.aMis += c.aTMismatches[i]!;
      a.sameMis += c.sameMismatches[i]!;
    }
    const key = `${it}:${c.group[i]}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }

  // the gate, and all-failure groups
  const gateGroups: GateGroup[] = [];
  const allFail = new Map<number, number>();
  for (const rows of groups.values()) {
    const it = c.iteration[rows[0]!]!;
    const rewards = rows.map((r) => c.reward[r]!);
    if (rewards.every((r) => !(r > 0))) allFail.set(it, (allFail.get(it) ?? 0) + 1);
    const mixed = rewards.some((r) => r !== rewards[0]);
    if (!mixed) continue;
    const succ: number[] = [];
    const fail: number[] = [];
    const used: number[] = [];
    for (const r of rows) {
      if ((c.flags[r]! & Flag.Labeled) === 0 || c.cCount[r]! === 0) continue;
      const m = c.sumC[r]! / c.cCount[r]!;
      const rw = c.reward[r]!;
      if (rw > 0) succ.push(m);
      else if (Number.isFinite(rw)) fail.push(m);
      else continue;
      used.push(r);
    }
    if (succ.length === 0 || fail.length === 0) continue;
    gateGroups.push({ iteration: it, group: c.group[rows[0]!]!, diff: mean(succ)! - mean(fail)!, rows: used });
  }
  gateGroups.sort((a, b) => a.iteration - b.iteration || a.group - b.group);
  const diffs = gateGroups.map((g) => g.diff);
  const meanDiff = mean(diffs);
  const sd = sampleSd(diffs);
  const t = meanDiff !== null && sd !== null && sd > 0 ? meanDiff / (sd / Math.sqrt(diffs.length)) : null;
  const byIt = new Map<number, number[]>();
  for (const g of gateGroups) {
    const l = byIt.get(g.iteration);
    if (l) l.push(g.diff);
    else byIt.set(g.iteration, [g.diff]);
  }
  const gateIts = [...byIt.keys()].sort((a, b) => a - b);
  const itMeans = gateIts.map((it) => mean(byIt.get(it)!)!);
  const pos = itMeans.filter((d) => d > 0).length;
  const nIt = gateIts.length;
  const half = Math.floor(nIt / 2);
  const firstSet = new Set(gateIts.slice(0, half));
  const firstDiffs = gateGroups.filter((g) => firstSet.has(g.iteration)).map((g) => g.diff);
  const secondDiffs = gateGroups.filter((g) => !firstSet.has(g.iteration)).map((g) => g.diff);
  const gate: GateReport = {
    groups: gateGroups.length,
    meanDiff,
    t,
    p: t === null ? null : twoSidedP(t),
    iterations: nIt,
    iterationsPositive: pos,
    signTestP: nIt > 0 ? twoSidedP(Math.abs(2 * pos - nIt) / Math.sqrt(nIt)) : null,
    firstHalfMeanDiff: mean(firstDiffs),
    secondHalfMeanDiff: mean(secondDiffs),
  };

  // AUROC of trajectory-mean c for success
  const scores: number[] = [];
  const positive: boolean[] = [];
  for (let i = 0; i < n; i++) {
    if ((c.flags[i]! & Flag.Labeled) === 0 || c.cCount[i]! === 0 || !Number.isFinite(c.reward[i]!)) continue;
    scores.push(c.sumC[i]! / c.cCount[i]!);
    positive.push(c.reward[i]! > 0);
  }

  const warnings: string[] = [...extraWarnings];
  if (index.skippedCount > 0) {
    const first = index.skippedLines
      .slice(0, 5)
      .map((s) => `line ${s.line} (${s.message})`)
      .join('; ');
    warnings.push(
      `${index.path}: skipped ${index.skippedCount} line(s) that are not records: ${first}${index.skippedCount > 5 ? '; ...' : ''}`,
    );
  }
  const check = index.schemaCheck();
  if (check.notFound.length > 0) warnings.push(`${index.path}: expected fields not found: ${check.notFound.join(', ')}`);
  for (const f of check.fields) {
    if (f.required && f.missing > 0 && f.foundAs.length > 0)
      warnings.push(
        `${index.path}: ${f.level === 'turn' ? 'turn.' : ''}${f.field} is missing from ${f.missing} ${f.level === 'turn' ? 'turn' : 'record'}(s)`,
      );
  }
  for (const f of check.fields) {
    if (f.wrongType === 0) continue;
    const name = f.level === 'turn' ? `turn.${f.field}` : f.field;
    const lines = `line${f.wrongTypeLines.length > 1 ? 's' : ''} ${f.wrongTypeLines.join(', ')}${f.wrongType > f.wrongTypeLines.length ? ', ...' : ''}`;
    warnings.push(
      `${index.path}: ${name} holds a value of the wrong type (${WANTED[f.field] ?? 'see run-format.md'}) in ${f.wrongType} record(s), read as missing: ${lines}`,
    );
  }
  if (total.cMis > 0) warnings.push(`${total.cMis} credited turn(s) whose logged c differs from the recomputed credit by more than 1e-6`);
  if (total.aMis > 0) warnings.push(`${total.aMis} turn(s) whose logged A_t differs from A + beta*c by more than 1e-6`);
  if (total.sameMis > 0)
    warnings.push(`${total.sameMis} labeled turn(s) whose logged same-action flags disagree with the canonical matcher`);
  if (index.pendingTail)
    warnings.push(`${index.path}: the last line has no newline yet (a record still being written); it is read once complete`);
  const dupCount = countDuplicateTrajectories(index);
  if (dupCount > 0) warnings.push(`${dupCount} trajectory key(s) (iteration, group, rollout) appear more than once`);

  const perIteration: IterationFigures[] = [...perIt.keys()]
    .sort((a, b) => a - b)
    .map((it) => {
      const a = perIt.get(it)!;
      const gd = byIt.get(it) ?? [];
      return {
        iteration: it,
        trajectories: a.trajectories,
        labeledTrajectories: a.labeledTrajectories,
        rewardMean: ratio(a.rewardSum, a.rewardN),
        allFailGroups: allFail.get(it) ?? 0,
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
    });

  const report: RunReport = {
    signFlipRate: ratio(total.flips, total.flipBase),
    fallbackRate: ratio(total.fallback, total.labeledNotMasked),
    executedIsArgmaxRate: ratio(total.argmax, total.credited),
    meanC: ratio(total.sumC, total.cCount),
    rmsBetaCOverRmsA: rms(total),
    cMismatches: total.cMis,
    aTMismatches: total.aMis,
    gate,
    auroc: auroc(scores, positive),
    trajectories: n,
    iterations: perIt.size,
    labeledTurns: total.labeledTurns,
    creditedTurns: total.credited,
    skippedLines: index.skippedCount,
    warnings,
  };
  return { report, perIteration, gateGroups, sameMismatches: total.sameMis };
}

/** What each field must hold, for the wrong-type warning. */
const WANTED: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  iteration: 'a whole number',
  group: 'a whole number',
  rollout: 'a whole number',
  task_id: 'a string',
  instruction: 'a string',
  reward: 'a number',
  A: 'a number',
  labeled: 'true or false',
  turns: 'an array of objects',
  action: 'a string',
  candidates: 'an array of strings',
  scores: 'an array of numbers or null',
  same: 'an array of true/false',
  done: 'an array of true/false',
  c: 'a number or null',
  A_t: 'a number',
  masked: 'true or false; only true is true',
  fallback: 'true or false; only true is true',
});

function countDuplicateTrajectories(index: CreditIndex): number {
  const c = index.columns;
  const seen = new Set<string>();
  let dup = 0;
  for (let i = 0; i < index.size; i++) {
    const k = `${c.iteration[i]}:${c.group[i]}:${c.rollout[i]}`;
    if (seen.has(k)) dup++;
    else seen.add(k);
  }
  return dup;
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
