/** Section 8 per task at one checkpoint: each task's success in both runs, for the comparison's per-task table. */
import { tallyTasks } from './evalFigures';
import type { EvalOutcome, TaskSuccess } from './evalFigures';

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

/** one checkpoint's tasks: their episodes and successes */
type Tally = ReadonlyMap<string, { n: number; succeeded: number }>;

/** The rows of two tallies at one checkpoint: A's tasks in A's order, then B's tasks A lacks. */
function rowsOf(ta: Tally | undefined, tb: Tally | undefined): EvalTaskRow[] {
  const out: EvalTaskRow[] = [];
  for (const task of new Set([...(ta?.keys() ?? []), ...(tb?.keys() ?? [])])) {
    const x = ta?.get(task);
    const y = tb?.get(task);
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

/** Every task either run evaluated at `iteration`, A's order first, then B's tasks A lacks. */
export function evalTaskRows(a: readonly EvalOutcome[], b: readonly EvalOutcome[], iteration: number): EvalTaskRow[] {
  const at = (x: readonly EvalOutcome[]): Tally | undefined => tallyTasks(x.filter((e) => e.iteration === iteration)).get(iteration);
  return rowsOf(at(a), at(b));
}

/**
 * The per-task rows of any checkpoint of two runs, made when first asked: one pass over each
 * run's episodes on the first ask, then each checkpoint's rows from the tallies (and kept).
 */
export class EvalTaskTables {
  private tallies: [TaskSuccess, TaskSuccess] | undefined;
  private readonly made = new Map<number, EvalTaskRow[]>();

  constructor(
    private readonly a: readonly EvalOutcome[],
    private readonly b: readonly EvalOutcome[],
  ) {}

  /** The rows at `iteration`, equal to `evalTaskRows(a, b, iteration)`. */
  at(iteration: number): EvalTaskRow[] {
    let rows = this.made.get(iteration);
    if (!rows) {
      this.tallies ??= [tallyTasks(this.a), tallyTasks(this.b)];
      rows = rowsOf(this.tallies[0].get(iteration), this.tallies[1].get(iteration));
      this.made.set(iteration, rows);
    }
    return rows;
  }
}
