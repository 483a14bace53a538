/** The comparison's behaviour lines (docs/format.md section 7): each tag's rate in A and B, the difference, p, and the line in words. */
import type { BehaviourComparison } from '../../core/compare/behaviour';
import { TAG_NAMES } from '../../shared/shapes';
import type { TagName, TrajectoryQuery } from '../../shared/shapes';
import { TAG_WORDS, behaviourWords } from '../../shared/tagWords';
import type { BehaviourLineView, CompareBehaviourView } from '../../shared/protocol/compare';

/** Every tag's line, in `TAG_NAMES` order; `of`: what is counted ("trajectories", "eval episodes"). */
export function behaviourLines(b: BehaviourComparison, of: string): BehaviourLineView[] {
  return TAG_NAMES.map((tag) => {
    const t = b[tag];
    const w = TAG_WORDS[tag];
    return { tag, label: w.label, rateA: t.rateA, rateB: t.rateB, diff: t.diff, p: t.p, words: behaviourWords(w.verb, t, of) };
  });
}

/** The training rollouts' lines, and the eval episodes' where both runs have evaluations (null otherwise, with why). */
export function compareBehaviourView(training: BehaviourComparison, evals: BehaviourComparison | null): CompareBehaviourView {
  return {
    training: behaviourLines(training, 'trajectories'),
    evals: evals ? behaviourLines(evals, 'eval episodes') : null,
    evalNote: evals
      ? 'On the eval episodes of the checkpoints both runs evaluated in the window (no labels: collapsed and credit disagrees are empty).'
      : 'No eval-episode lines: a run has no evaluation log.',
  };
}

/**
 * A behaviour line's trajectories in one run: the tag over the comparison's window (its first to its last common iteration; the rates
 * count the common iterations only, so a run with iterations the other lacks inside that span shows more rows than its rate's count).
 */
export function tagQuery(tag: TagName, iterations: readonly number[]): TrajectoryQuery {
  const first = iterations[0];
  const last = iterations[iterations.length - 1];
  const span = first === undefined || last === undefined ? {} : { iterationMin: first, iterationMax: last };
  return { filter: { ...span, tags: [tag] }, sort: [] };
}
