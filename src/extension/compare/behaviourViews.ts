/** The comparison's behaviour lines (run-format.md section 7): each tag's rate in A and B, the difference, p, and the line in words. */
import type { BehaviourComparison, TagComparison } from '../../core/compare/behaviour';
import { formatP, formatPercent } from '../../shared/format';
import { TAG_NAMES } from '../../shared/shapes';
import { TAG_WORDS } from '../../shared/tagWords';
import type { BehaviourLineView, CompareBehaviourView } from '../../shared/protocol/compare';

/** "p < 0.001", "p = 0.0123". */
export function pPhrase(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${formatP(p)}`;
}

/** One tag in words: "A loops on 4.1% of trajectories, B on 7.9%, p < 0.001". */
export function behaviourWords(verb: string, t: TagComparison, of: string): string {
  if (t.rateA === null || t.rateB === null) return 'Empty: it needs labeled turns (or trajectories in the window), and a run has none.';
  const p = t.p === null ? 'no p value (neither run has it, or both always do)' : pPhrase(t.p);
  return `A ${verb} on ${formatPercent(t.rateA)} of ${of}, B on ${formatPercent(t.rateB)}, ${p}.`;
}

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
