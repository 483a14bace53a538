/**
 * How each behaviour tag moved over training: its rate over the trajectories of the first
 * 10 iterations against the last 10 (the same windows as the report's training curve;
 * with fewer than 20 iterations the two overlap). Pooled over the trajectories, not a mean
 * of per-iteration rates.
 */
import type { CreditIndex } from '../log/creditIndex';
import { tallyIndex } from './report';
import { LABEL_TAGS, TAG_NAMES } from './tags';
import type { BehaviourOptions, TagName } from './tags';

export const CHANGE_SPAN = 10;

export interface TagChange {
  /** rate over the first 10 iterations' trajectories */
  first: number | null;
  /** over the last 10 */
  last: number | null;
  /** last minus first */
  change: number | null;
}

/** Each tag's change; null for a label tag of a run without labeled turns. */
export function behaviourChange(index: CreditIndex, o: BehaviourOptions = index.behaviourOptions): Record<TagName, TagChange | null> {
  const its = [...tallyIndex(index, {}, o).byIteration.keys()];
  const first = tallyIndex(index, { iterations: new Set(its.slice(0, CHANGE_SPAN)) }, o).all;
  const last = tallyIndex(index, { iterations: new Set(its.slice(-CHANGE_SPAN)) }, o).all;
  const labels = index.hasLabeledTurns();
  const out = {} as Record<TagName, TagChange | null>;
  TAG_NAMES.forEach((name, k) => {
    if (!labels && LABEL_TAGS.includes(name)) {
      out[name] = null;
      return;
    }
    const a = first.figures(k).rate;
    const b = last.figures(k).rate;
    out[name] = { first: a, last: b, change: a !== null && b !== null ? b - a : null };
  });
  return out;
}
