/** Per-iteration and whole-run sums of the index's summary columns, the base of every section-4 rate. */
import type { CreditIndex } from '../log/creditIndex';
import { Flag } from '../../shared/shapes';

export interface Acc {
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

export const newAcc = (): Acc => ({
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

export const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** The dose: sqrt(mean((beta c)^2)) / sqrt(mean(A^2)) over the same turns. */
export function rms(acc: Acc): number | null {
  if (acc.doseN === 0 || acc.sumA2 === 0) return null;
  return Math.sqrt(acc.sumBc2 / acc.doseN) / Math.sqrt(acc.sumA2 / acc.doseN);
}

/** Adds row `i` of the index to `a`. */
function addRow(a: Acc, index: CreditIndex, i: number): void {
  const c = index.columns;
  const beta = index.options.credit.beta;
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

export interface Accumulated {
  total: Acc;
  perIteration: Map<number, Acc>;
  /** `iteration:group` -> its rows, in file order */
  groups: Map<string, number[]>;
}

/** One pass over the index: the whole run, each iteration, and the rows of each group. */
export function accumulate(index: CreditIndex): Accumulated {
  const c = index.columns;
  const total = newAcc();
  const perIteration = new Map<number, Acc>();
  const groups = new Map<string, number[]>();
  // a group's rows are mostly one after another: the last group's rows are kept at hand, so that
  // a key is built and looked up once a run of rows, not once a row
  let lastIt = NaN;
  let lastGroup = NaN;
  let acc = newAcc();
  let rows: number[] = [];
  for (let i = 0; i < index.size; i++) {
    const it = c.iteration[i]!;
    const group = c.group[i]!;
    if (it !== lastIt) {
      const a = perIteration.get(it);
      if (a) acc = a;
      else perIteration.set(it, (acc = newAcc()));
    }
    addRow(total, index, i);
    addRow(acc, index, i);
    if (it !== lastIt || group !== lastGroup) {
      const key = `${it}:${group}`;
      const g = groups.get(key);
      if (g) rows = g;
      else groups.set(key, (rows = []));
      lastIt = it;
      lastGroup = group;
    }
    rows.push(i);
  }
  return { total, perIteration, groups };
}
