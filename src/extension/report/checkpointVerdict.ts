/**
 * The report's checkpoint verdict (docs/format.md section 8) against the baseline: core decides
 * and words it (verdict.ts, verdictWords.ts); this only says which sentences the page shows.
 */
import { compareEvaluations } from '../../core/eval/evalFigures';
import type { EvalOutcome } from '../../core/eval/evalFigures';
import { verdictWords } from '../../core/eval/verdictWords';
import type { CheckpointVerdictView } from '../../shared/protocol/report';

/** The baseline as the report reads it: its name and episodes, or why it gives no verdict. */
export interface BaselineEvals {
  name: string;
  /** undefined: the baseline has no evaluation log */
  episodes: readonly EvalOutcome[] | undefined;
  /** no run there, its log unreadable, or this run itself */
  problem?: string;
}

/** No baseline set and no evaluation log: nothing to say. */
export const NO_CHECKPOINT_VERDICT: CheckpointVerdictView = {
  hasEvals: false,
  baseline: null,
  problem: '',
  conclusion: null,
  pooledConclusion: null,
  final: '',
  pooled: '',
  disagree: false,
};

/** `episodes`: this run's evaluation log (undefined: none); `base`: the baseline set (undefined: none). */
export function checkpointVerdictView(
  episodes: readonly EvalOutcome[] | undefined,
  base: BaselineEvals | undefined,
): CheckpointVerdictView {
  const none = { ...NO_CHECKPOINT_VERDICT, hasEvals: episodes !== undefined };
  if (!base) return none;
  if (base.problem !== undefined) return { ...none, baseline: base.name, problem: base.problem };
  const w = verdictWords(compareEvaluations(episodes, base.episodes));
  return {
    ...none,
    baseline: base.name,
    conclusion: w.conclusion,
    pooledConclusion: w.pooledConclusion,
    final: w.final,
    pooled: w.pooled,
    disagree: w.disagree,
  };
}
