/** Section 8 per task at one checkpoint: each task's success in both runs, for the comparison's per-task table. */
import { tallyTasks } from './evalFigures';
import type { EvalOutcome } from './evalFigures';

export interface EvalTaskRow {
  task: string;
  /** the fraction of the task's episodes at the checkpoint with reward > 0; null when the run did not evaluate it there */
  successA: number | null;
  successB: number | null;
  /** A minus B; null unless both evaluated the task there */
  diff: number | null;
  episodesA: number;
  episodesB: number;
}

/** Every task either run evaluated at `iteration`, A's order first, then B's tasks A lacks. */
export function evalTaskRows(a: readonly EvalOutcome[], b: readonly EvalOutcome[], iteration: number): EvalTaskRow[] {
  const at = (x: readonly EvalOutcome[]): Map<string, { n: number; succeeded: number }> =>
    tallyTasks(x.filter((e) => e.iteration === iteration)).get(iteration) ?? new Map<string, { n: number; succeeded: number }>();
  const ta = at(a);
  const tb = at(b);
  const out: EvalTaskRow[] = [];
  for (const task of new Set([...ta.keys(), ...tb.keys()])) {
    const x = ta.get(task);
    const y = tb.get(task);
    const successA = x ? x.succeeded / x.n : null;
    const successB = y ? y.succeeded / y.n : null;
    out.push({
      task,
      successA,
      successB,
      diff: successA === null || successB === null ? null : successA - successB,
      episodesA: x?.n ?? 0,
      episodesB: y?.n ?? 0,
    });
  }
  return out;
}
