/**
 * The figures of docs/format.md section 8: one run's success per checkpoint
 * (`rlrb evals`), and two runs paired by checkpoint and task (`evaluation` of `rlrb compare`).
 */
import { mean, sampleSd, twoSidedP } from '../report/stats';
import type { CompareWindow } from '../compare/figures';
import { Z95, conclusionOf, mde80 } from './verdict';
import type { Conclusion } from './verdict';

/** What the figures read of an episode. */
export interface EvalOutcome {
  iteration: number;
  task: string;
  reward: number;
}

export interface EvalIteration {
  iteration: number;
  /** distinct tasks evaluated at the checkpoint */
  tasks: number;
  /** episodes counted at the checkpoint */
  samples: number;
  /** mean over tasks of the fraction of their episodes with reward > 0 */
  success: number;
  /** mean reward over episodes */
  reward: number;
}

/** What `rlrb evals <run> --json` prints. */
export interface EvalSummary {
  iterations: EvalIteration[];
}

interface TaskTally {
  n: number;
  succeeded: number;
}

/** iteration -> task -> its episodes and successes. */
export type TaskSuccess = Map<number, Map<string, TaskTally>>;

export function tallyTasks(episodes: readonly EvalOutcome[]): TaskSuccess {
  const out: TaskSuccess = new Map();
  for (const e of episodes) {
    let byTask = out.get(e.iteration);
    if (!byTask) out.set(e.iteration, (byTask = new Map<string, TaskTally>()));
    const t = byTask.get(e.task) ?? { n: 0, succeeded: 0 };
    t.n++;
    if (e.reward > 0) t.succeeded++;
    byTask.set(e.task, t);
  }
  return out;
}

export function evalSummary(episodes: readonly EvalOutcome[]): EvalSummary {
  const tally = tallyTasks(episodes);
  const rewards = new Map<number, number[]>();
  for (const e of episodes) {
    const l = rewards.get(e.iteration);
    if (l) l.push(e.reward);
    else rewards.set(e.iteration, [e.reward]);
  }
  const iterations = [...tally.keys()]
    .sort((a, b) => a - b)
    .map((iteration) => {
      const tasks = [...tally.get(iteration)!.values()];
      const r = rewards.get(iteration)!;
      return { iteration, tasks: tasks.length, samples: r.length, success: mean(tasks.map((t) => t.succeeded / t.n))!, reward: mean(r)! };
    });
  return { iterations };
}

/** Section 8's two-run figures over a set of (fA, fB) pairs of task successes. */
export interface PairedFigures {
  tasks: number;
  successA: number | null;
  successB: number | null;
  meanDiff: number | null;
  ci95: [number, number] | null;
  t: number | null;
  p: number | null;
  wins: number;
  losses: number;
  ties: number;
  signTestP: number | null;
  /** what the interval lets one conclude (verdict.ts) */
  conclusion: Conclusion;
  /** the smallest difference these tasks would detect at 80% power; null below two tasks */
  mde80: number | null;
}

export type EvaluationIteration = { iteration: number } & PairedFigures;

/** `evaluation` of `rlrb compare --json`. */
export interface EvaluationComparison {
  /** the checkpoint iterations both runs evaluated, in the window */
  iterations: number[];
  perIteration: EvaluationIteration[];
  /** the entry of the last common iteration */
  final: EvaluationIteration | null;
  /** over every (iteration, task) pair of the common iterations */
  pooled: PairedFigures;
}

export function pairedFigures(pairs: readonly (readonly [number, number])[]): PairedFigures {
  const n = pairs.length;
  const diffs = pairs.map(([a, b]) => a - b);
  const meanDiff = mean(diffs);
  const sd = sampleSd(diffs);
  const se = sd === null ? null : sd / Math.sqrt(n);
  const t = meanDiff !== null && se !== null && se > 0 ? meanDiff / se : null;
  const ci95: [number, number] | null = meanDiff !== null && se !== null ? [meanDiff - Z95 * se, meanDiff + Z95 * se] : null;
  const wins = diffs.filter((d) => d > 0).length;
  const losses = diffs.filter((d) => d < 0).length;
  return {
    tasks: n,
    successA: mean(pairs.map((p) => p[0])),
    successB: mean(pairs.map((p) => p[1])),
    meanDiff,
    ci95,
    t,
    p: t === null ? null : twoSidedP(t),
    wins,
    losses,
    ties: n - wins - losses,
    signTestP: wins + losses > 0 ? twoSidedP(Math.abs(wins - losses) / Math.sqrt(wins + losses)) : null,
    conclusion: conclusionOf(ci95),
    mde80: mde80(sd, n),
  };
}

/** Pairs the tasks both runs evaluated at `iteration`: (A's success, B's success), in A's task order. */
function pairsAt(a: TaskSuccess, b: TaskSuccess, iteration: number): [number, number][] {
  const ta = a.get(iteration)!;
  const tb = b.get(iteration)!;
  const out: [number, number][] = [];
  for (const [task, x] of ta) {
    const y = tb.get(task);
    if (y) out.push([x.succeeded / x.n, y.succeeded / y.n]);
  }
  return out;
}

const inWindow = (it: number, w: CompareWindow): boolean => (w.from === undefined || it >= w.from) && (w.to === undefined || it <= w.to);

/** Section 8's comparison; null when either run has no evaluation log (undefined episodes). */
export function compareEvaluations(
  a: readonly EvalOutcome[] | undefined,
  b: readonly EvalOutcome[] | undefined,
  window: CompareWindow = {},
): EvaluationComparison | null {
  if (!a || !b) return null;
  const ta = tallyTasks(a);
  const tb = tallyTasks(b);
  const iterations = [...ta.keys()].filter((it) => tb.has(it) && inWindow(it, window)).sort((x, y) => x - y);
  const all: [number, number][] = [];
  const perIteration = iterations.map((iteration) => {
    const pairs = pairsAt(ta, tb, iteration);
    all.push(...pairs);
    return { iteration, ...pairedFigures(pairs) };
  });
  return { iterations, perIteration, final: perIteration.at(-1) ?? null, pooled: pairedFigures(all) };
}
