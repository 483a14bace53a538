/**
 * The comparison of two runs, docs/format.md section 6, from per-row columns: the
 * window of common iterations, each run's success and reward there, iterations ahead
 * and behind with their sign test, and the paired per-task test.
 */
import { mean, sampleSd, twoSidedP } from '../report/stats';

/** One run's rows, as the comparison reads them. */
export interface CompareRows {
  size: number;
  /** whole-number iteration per row, NaN where it is not one */
  iteration: ArrayLike<number>;
  reward: ArrayLike<number>;
  /** task id per row, -1 without a task key */
  task: ArrayLike<number>;
  /** task keys by id */
  tasks: readonly string[];
}

export interface CompareWindow {
  from?: number;
  to?: number;
}

export interface TaskFigures {
  count: number;
  meanDiff: number | null;
  t: number | null;
  p: number | null;
  wins: number;
  losses: number;
  ties: number;
  signTestP: number | null;
}

export interface IterationComparison {
  iteration: number;
  successA: number;
  successB: number;
  rewardA: number;
  rewardB: number;
}

/** Exactly the figures of section 6. */
export interface ComparisonFigures {
  iterations: number;
  trajectoriesA: number;
  trajectoriesB: number;
  successA: number | null;
  successB: number | null;
  rewardA: number | null;
  rewardB: number | null;
  iterationsAhead: number;
  iterationsBehind: number;
  iterationSignTestP: number | null;
  tasks: TaskFigures;
  perIteration: IterationComparison[];
}

/** One task of the window, for the per-task table; a side that did not see it is null. */
export interface TaskRow {
  task: string;
  trajectoriesA: number;
  trajectoriesB: number;
  successA: number | null;
  successB: number | null;
  /** A's success minus B's; null unless both saw the task */
  diff: number | null;
}

/** What the figures leave out but a reader wants to know (for warnings). */
export interface CompareCounts {
  /** rows not counted: iteration not a whole number, or reward not finite */
  notCountedA: number;
  notCountedB: number;
  /** counted rows in the window without task_id or instruction */
  unkeyedA: number;
  unkeyedB: number;
  /** tasks of the window seen by one run only */
  onlyA: number;
  onlyB: number;
}

export interface Comparison {
  figures: ComparisonFigures;
  perTask: TaskRow[];
  counts: CompareCounts;
}

interface Acc {
  n: number;
  succ: number;
  reward: number;
}

function perIteration(r: CompareRows): { byIt: Map<number, Acc>; notCounted: number } {
  const byIt = new Map<number, Acc>();
  let notCounted = 0;
  for (let i = 0; i < r.size; i++) {
    const it = r.iteration[i]!;
    const rw = r.reward[i]!;
    if (Number.isNaN(it) || !Number.isFinite(rw)) {
      notCounted++;
      continue;
    }
    let a = byIt.get(it);
    if (!a) {
      a = { n: 0, succ: 0, reward: 0 };
      byIt.set(it, a);
    }
    a.n++;
    if (rw > 0) a.succ++;
    a.reward += rw;
  }
  return { byIt, notCounted };
}

/** Per task id: [trajectories, successes] over the counted rows of the window. */
function perTask(r: CompareRows, window: Set<number>): { n: Int32Array; succ: Int32Array; unkeyed: number } {
  const n = new Int32Array(r.tasks.length);
  const succ = new Int32Array(r.tasks.length);
  let unkeyed = 0;
  for (let i = 0; i < r.size; i++) {
    const it = r.iteration[i]!;
    const rw = r.reward[i]!;
    if (!window.has(it) || !Number.isFinite(rw)) continue;
    const t = r.task[i]!;
    if (t < 0) {
      unkeyed++;
      continue;
    }
    n[t]!++;
    if (rw > 0) succ[t]!++;
  }
  return { n, succ, unkeyed };
}

const signTest = (pos: number, neg: number): number | null =>
  pos + neg > 0 ? twoSidedP(Math.abs(pos - neg) / Math.sqrt(pos + neg)) : null;

/**
 * Section 6 over two runs' rows. A run holds an iteration when it has at least one
 * counted trajectory there (whole-number iteration, finite reward), so every iteration
 * of the window has a success fraction on both sides.
 */
export function compareRows(a: CompareRows, b: CompareRows, w: CompareWindow = {}): Comparison {
  const pa = perIteration(a);
  const pb = perIteration(b);
  const its = [...pa.byIt.keys()]
    .filter((it) => pb.byIt.has(it) && (w.from === undefined || it >= w.from) && (w.to === undefined || it <= w.to))
    .sort((x, y) => x - y);
  const rows: IterationComparison[] = [];
  const tot = { na: 0, nb: 0, sa: 0, sb: 0, ra: 0, rb: 0, ahead: 0, behind: 0 };
  for (const it of its) {
    const x = pa.byIt.get(it)!;
    const y = pb.byIt.get(it)!;
    const row = { iteration: it, successA: x.succ / x.n, successB: y.succ / y.n, rewardA: x.reward / x.n, rewardB: y.reward / y.n };
    rows.push(row);
    tot.na += x.n;
    tot.nb += y.n;
    tot.sa += x.succ;
    tot.sb += y.succ;
    tot.ra += x.reward;
    tot.rb += y.reward;
    if (row.successA > row.successB) tot.ahead++;
    else if (row.successA < row.successB) tot.behind++;
  }
  const window = new Set(its);
  const ta = perTask(a, window);
  const tb = perTask(b, window);
  const { tasks, perTask: taskRows, onlyA, onlyB } = pairTasks(a.tasks, ta, b.tasks, tb);
  const ratio = (x: number, n: number): number | null => (n > 0 ? x / n : null);
  return {
    figures: {
      iterations: its.length,
      trajectoriesA: tot.na,
      trajectoriesB: tot.nb,
      successA: ratio(tot.sa, tot.na),
      successB: ratio(tot.sb, tot.nb),
      rewardA: ratio(tot.ra, tot.na),
      rewardB: ratio(tot.rb, tot.nb),
      iterationsAhead: tot.ahead,
      iterationsBehind: tot.behind,
      iterationSignTestP: signTest(tot.ahead, tot.behind),
      tasks,
      perIteration: rows,
    },
    perTask: taskRows,
    counts: { notCountedA: pa.notCounted, notCountedB: pb.notCounted, unkeyedA: ta.unkeyed, unkeyedB: tb.unkeyed, onlyA, onlyB },
  };
}

type Tally = { n: Int32Array; succ: Int32Array };

function pairTasks(
  namesA: readonly string[],
  ta: Tally,
  namesB: readonly string[],
  tb: Tally,
): { tasks: TaskFigures; perTask: TaskRow[]; onlyA: number; onlyB: number } {
  const idB = new Map<string, number>();
  namesB.forEach((k, i) => {
    if (tb.n[i]! > 0) idB.set(k, i);
  });
  const out: TaskRow[] = [];
  const diffs: number[] = [];
  let wins = 0,
    losses = 0,
    ties = 0,
    onlyA = 0;
  const seenB = new Set<number>();
  namesA.forEach((task, i) => {
    const na = ta.n[i]!;
    if (na === 0) return;
    const j = idB.get(task);
    const successA = ta.succ[i]! / na;
    if (j === undefined) {
      onlyA++;
      out.push({ task, trajectoriesA: na, trajectoriesB: 0, successA, successB: null, diff: null });
      return;
    }
    seenB.add(j);
    const successB = tb.succ[j]! / tb.n[j]!;
    const diff = successA - successB;
    diffs.push(diff);
    if (diff > 0) wins++;
    else if (diff < 0) losses++;
    else ties++;
    out.push({ task, trajectoriesA: na, trajectoriesB: tb.n[j]!, successA, successB, diff });
  });
  let onlyB = 0;
  for (const [task, j] of idB) {
    if (seenB.has(j)) continue;
    onlyB++;
    out.push({ task, trajectoriesA: 0, trajectoriesB: tb.n[j]!, successA: null, successB: tb.succ[j]! / tb.n[j]!, diff: null });
  }
  const m = mean(diffs);
  const sd = sampleSd(diffs);
  const t = m !== null && sd !== null && sd > 0 ? m / (sd / Math.sqrt(diffs.length)) : null;
  return {
    tasks: {
      count: diffs.length,
      meanDiff: m,
      t,
      p: t === null ? null : twoSidedP(t),
      wins,
      losses,
      ties,
      signTestP: signTest(wins, losses),
    },
    perTask: out,
    onlyA,
    onlyB,
  };
}
