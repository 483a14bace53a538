/** The comparison's verdict (section 8) from core's EvaluationComparison, in plain words (pure; no vscode). */
import type { EvalOutcome, EvaluationComparison, PairedFigures } from '../../core/eval/evalFigures';
import { EvalTaskTables } from '../../core/eval/evalTasks';
import { conclusionLabel, verdictWords } from '../../core/eval/verdictWords';
import type { VerdictFiguresView, VerdictTasksView, VerdictView } from '../../shared/protocol/compareVerdict';
import { NO_VERDICT } from '../../shared/protocol/compareVerdict';

/** The file that makes the verdict possible (docs/format.md section 8). */
export const EVAL_LOG_FILE = 'logs/eval_log.jsonl';

export function figuresView(f: PairedFigures, iteration: number | null): VerdictFiguresView {
  return {
    iteration,
    tasks: f.tasks,
    successA: f.successA,
    successB: f.successB,
    meanDiff: f.meanDiff,
    lo: f.ci95?.[0] ?? null,
    hi: f.ci95?.[1] ?? null,
    p: f.p,
    wins: f.wins,
    losses: f.losses,
    ties: f.ties,
    signTestP: f.signTestP,
    conclusion: f.conclusion,
    verdict: conclusionLabel(f.conclusion),
    mde80: f.mde80,
  };
}

/** The one line when either run has no evaluation log. */
export function missingWords(hasA: boolean, hasB: boolean): string {
  const which = !hasA && !hasB ? 'Neither run has' : !hasA ? 'Run A has' : 'Run B has';
  const none = !hasA && !hasB ? 'an evaluation log' : 'no evaluation log';
  return (
    `${which} ${none}: a verdict needs both runs evaluated at the same checkpoints on the same tasks. ` +
    `A file ${EVAL_LOG_FILE} in the run (docs/format.md section 8: one line per evaluated episode, ` +
    '{iteration, task_id, reward}) would make it possible.'
  );
}

/**
 * What the host keeps of the verdict: the view without its per-task rows, and the tables that
 * make any common checkpoint's rows when asked (the page gets one checkpoint's at a time).
 */
export interface HeldVerdict {
  view: VerdictView;
  tables: EvalTaskTables | undefined;
}

/** The verdict as the host keeps it; `a`/`b` the runs' eval episodes (undefined without an eval log). */
export function heldVerdict(
  e: EvaluationComparison | null,
  a: readonly EvalOutcome[] | undefined,
  b: readonly EvalOutcome[] | undefined,
): HeldVerdict {
  if (!e || !a || !b) return { view: { ...NO_VERDICT, missing: missingWords(a !== undefined, b !== undefined) }, tables: undefined };
  const words = verdictWords(e);
  const view: VerdictView = {
    available: true,
    missing: '',
    perIteration: e.perIteration.map((p) => figuresView(p, p.iteration)),
    final: e.final ? figuresView(e.final, e.final.iteration) : null,
    pooled: e.iterations.length > 0 ? figuresView(e.pooled, null) : null,
    conclusion: words.conclusion,
    disagree: words.disagree,
    finalWords: words.final,
    pooledWords: words.pooled,
    checkpoints: [...e.iterations].reverse(),
    tasks: null,
  };
  return { view, tables: new EvalTaskTables(a, b) };
}

/** The per-task rows at `iteration`; undefined when it is not a common checkpoint (the page asked for one it cannot have). */
export function verdictTasks(held: HeldVerdict, iteration: number): VerdictTasksView | undefined {
  if (!held.tables || !held.view.checkpoints.includes(iteration)) return undefined;
  return { iteration, rows: held.tables.at(iteration) };
}

/** The verdict message's view: the rows of `chosen` when it is a common checkpoint, else of the last one. */
export function verdictViewAt(held: HeldVerdict, chosen: number | undefined): VerdictView {
  const last = held.view.checkpoints[0];
  const at = chosen !== undefined && held.view.checkpoints.includes(chosen) ? chosen : last;
  return { ...held.view, tasks: at === undefined ? null : (verdictTasks(held, at) ?? null) };
}

/** The verdict view with the last checkpoint's rows (`heldVerdict` then `verdictViewAt`). */
export function verdictView(
  e: EvaluationComparison | null,
  a: readonly EvalOutcome[] | undefined,
  b: readonly EvalOutcome[] | undefined,
): VerdictView {
  return verdictViewAt(heldVerdict(e, a, b), undefined);
}
