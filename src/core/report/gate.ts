/** The paired within-group gate of docs/format.md section 4, and the all-failure groups. */
import type { CreditIndex } from '../log/creditIndex';
import { Flag } from '../../shared/shapes';
import type { GateFigures } from '../../shared/shapes';
import { mean, sampleSd, twoSidedP } from './stats';

/** The gate's figures are the shared shape (src/shared/shapes.ts): the wire sends them as they are. */
export type GateReport = GateFigures;

/** One group that enters the gate, for "jump to the gate's pairs". */
export interface GateGroup {
  iteration: number;
  group: number;
  diff: number;
  /** rows of its labeled trajectories with credited turns */
  rows: number[];
}

export interface GateResult {
  gate: GateReport;
  groups: GateGroup[];
  /** iteration -> the diffs of its gate groups */
  byIteration: Map<number, number[]>;
  /** iteration -> its groups where no trajectory succeeded */
  allFail: Map<number, number>;
}

/** The group's gate entry: mean c of its succeeded labeled minus its failed labeled; undefined when one side is empty. */
function gateGroupOf(index: CreditIndex, rows: readonly number[]): GateGroup | undefined {
  const c = index.columns;
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
  if (succ.length === 0 || fail.length === 0) return undefined;
  return { iteration: c.iteration[rows[0]!]!, group: c.group[rows[0]!]!, diff: mean(succ)! - mean(fail)!, rows: used };
}

function byIterationOf(groups: readonly GateGroup[]): Map<number, number[]> {
  const byIt = new Map<number, number[]>();
  for (const g of groups) {
    const l = byIt.get(g.iteration);
    if (l) l.push(g.diff);
    else byIt.set(g.iteration, [g.diff]);
  }
  return byIt;
}

/** The figures of the gate over its groups (sorted by iteration, then group). */
function gateFigures(groups: readonly GateGroup[], byIt: Map<number, number[]>): GateReport {
  const diffs = groups.map((g) => g.diff);
  const meanDiff = mean(diffs);
  const sd = sampleSd(diffs);
  const t = meanDiff !== null && sd !== null && sd > 0 ? meanDiff / (sd / Math.sqrt(diffs.length)) : null;
  const gateIts = [...byIt.keys()].sort((a, b) => a - b);
  const pos = gateIts.map((it) => mean(byIt.get(it)!)!).filter((d) => d > 0).length;
  const nIt = gateIts.length;
  const firstSet = new Set(gateIts.slice(0, Math.floor(nIt / 2)));
  return {
    groups: groups.length,
    meanDiff,
    t,
    p: t === null ? null : twoSidedP(t),
    iterations: nIt,
    iterationsPositive: pos,
    signTestP: nIt > 0 ? twoSidedP(Math.abs(2 * pos - nIt) / Math.sqrt(nIt)) : null,
    firstHalfMeanDiff: mean(groups.filter((g) => firstSet.has(g.iteration)).map((g) => g.diff)),
    secondHalfMeanDiff: mean(groups.filter((g) => !firstSet.has(g.iteration)).map((g) => g.diff)),
  };
}

export function computeGate(index: CreditIndex, groups: ReadonlyMap<string, number[]>): GateResult {
  const c = index.columns;
  const gateGroups: GateGroup[] = [];
  const allFail = new Map<number, number>();
  for (const rows of groups.values()) {
    const it = c.iteration[rows[0]!]!;
    const rewards = rows.map((r) => c.reward[r]!);
    if (rewards.every((r) => !(r > 0))) allFail.set(it, (allFail.get(it) ?? 0) + 1);
    if (!rewards.some((r) => r !== rewards[0])) continue;
    const g = gateGroupOf(index, rows);
    if (g) gateGroups.push(g);
  }
  gateGroups.sort((a, b) => a.iteration - b.iteration || a.group - b.group);
  const byIteration = byIterationOf(gateGroups);
  return { gate: gateFigures(gateGroups, byIteration), groups: gateGroups, byIteration, allFail };
}
