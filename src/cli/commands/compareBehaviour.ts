/**
 * The behaviour section of `rlrb compare` (docs/format.md section 7): each tag's rate in A and B, A - B, p, and the line in words the
 * comparison panel shows; then the same on eval episodes when both runs have evaluations at common checkpoints.
 */
import type { BehaviourComparison } from '../../core/compare/behaviour';
import { TAG_NAMES } from '../../core/behaviour/tags';
import { formatP, formatPercent, formatSigned } from '../../shared/format';
import { TAG_WORDS, behaviourWords } from '../../shared/tagWords';
import { table } from '../output/table';

const pts = (v: number | null): string => (v === null ? '—' : `${formatSigned(v * 100, 1)} pts`);

/** One table of the tags, then one line in words a tag; `of` is what is counted ("trajectories", "eval episodes"). */
function tagLines(b: BehaviourComparison, of: string): string[] {
  const rows = TAG_NAMES.map((tag) => {
    const t = b[tag];
    return [TAG_WORDS[tag].label, formatPercent(t.rateA), formatPercent(t.rateB), pts(t.diff), t.p === null ? '—' : formatP(t.p)];
  });
  const words = TAG_NAMES.map((tag) => `  ${TAG_WORDS[tag].label}: ${behaviourWords(TAG_WORDS[tag].verb, b[tag], of)}`);
  return [...table([['tag', 'run A', 'run B', 'A - B', 'p'], ...rows]), '', ...words];
}

/** The section's lines: the training rollouts of the window, then the eval episodes' or why there are none. */
export function behaviourSection(training: BehaviourComparison, evals: BehaviourComparison | null): string[] {
  const out = [
    'Behaviour (section 7) on the training rollouts of the window (two-proportion z test):',
    ...tagLines(training, 'trajectories'),
  ];
  out.push('');
  if (evals === null) {
    out.push('Behaviour on eval episodes: none (a run has no evaluation log).');
    return out;
  }
  out.push('Behaviour on the eval episodes of the checkpoints both runs evaluated (no labels: collapsed and credit disagrees are empty):');
  out.push(...tagLines(evals, 'eval episodes'));
  return out;
}
