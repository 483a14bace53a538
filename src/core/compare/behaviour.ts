/**
 * The behaviour part of a comparison (docs/format.md section 7, last paragraph): over the
 * comparison's window, each tag's rate in A and in B, their difference, and the two-sided
 * p of the pooled two-proportion z test.
 */
import type { CreditIndex } from '../log/creditIndex';
import { twoSidedP } from '../report/stats';
import { tallyIndex } from '../behaviour/report';
import type { TagTally } from '../behaviour/report';
import { LABEL_TAGS, TAG_NAMES } from '../behaviour/tags';
import type { BehaviourOptions, TagName } from '../behaviour/tags';

export interface TagComparison {
  rateA: number | null;
  rateB: number | null;
  diff: number | null;
  /** null when the pooled proportion q is 0 or 1 */
  p: number | null;
}

export type BehaviourComparison = Record<TagName, TagComparison>;

const NONE: TagComparison = { rateA: null, rateB: null, diff: null, p: null };

/**
 * `z = (rateA - rateB) / sqrt(q (1 - q) (1/nA + 1/nB))`, `q = (countA + countB) / (nA + nB)`;
 * every figure null when a run has no trajectory in the window.
 */
export function twoProportions(countA: number, nA: number, countB: number, nB: number): TagComparison {
  if (nA === 0 || nB === 0) return NONE;
  const rateA = countA / nA;
  const rateB = countB / nB;
  const q = (countA + countB) / (nA + nB);
  const p = q > 0 && q < 1 ? twoSidedP((rateA - rateB) / Math.sqrt(q * (1 - q) * (1 / nA + 1 / nB))) : null;
  return { rateA, rateB, diff: rateA - rateB, p };
}

/**
 * Each tag over the window's iterations (both runs' counted trajectories there); a label tag of a run without labeled turns has that
 * run's rate, the diff and p null (section 7: the other run's rate stays).
 */
export function behaviourComparison(
  a: CreditIndex,
  b: CreditIndex,
  iterations: readonly number[],
  o: BehaviourOptions = a.behaviourOptions,
): BehaviourComparison {
  const w = { iterations: new Set(iterations) };
  const ta: TagTally = tallyIndex(a, w, o).all;
  const tb: TagTally = tallyIndex(b, w, o).all;
  const labelsA = a.hasLabeledTurns();
  const labelsB = b.hasLabeledTurns();
  const out = {} as BehaviourComparison;
  TAG_NAMES.forEach((name, k) => {
    const both = twoProportions(ta.tagged[k]!, ta.trajectories, tb.tagged[k]!, tb.trajectories);
    out[name] = !LABEL_TAGS.includes(name) || (labelsA && labelsB) ? both : oneSided(both, labelsA, labelsB);
  });
  return out;
}

/** A label tag where a run has no labeled turn: that run's rate, the diff and p are null; the other run's rate stays. */
function oneSided(t: TagComparison, labelsA: boolean, labelsB: boolean): TagComparison {
  return { rateA: labelsA ? t.rateA : null, rateB: labelsB ? t.rateB : null, diff: null, p: null };
}
