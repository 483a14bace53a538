/**
 * The behaviour tags of docs/format.md section 7: their names, their bits, and the tags a
 * trajectory has from what the index stores of it. The index keeps only what does not
 * depend on `horizon` and `theta` (the action-derived bits and the credit ingredients);
 * the rest is derived here in O(1), so a change of either setting needs no re-index.
 */

import { TAG_NAMES } from '../../shared/shapes';
import type { TagName } from '../../shared/shapes';

export { TAG_NAMES };
export type { TagName };

/** One bit a tag, in the order of `TAG_NAMES`. */
export const enum Tag {
  Repeat = 1,
  Cycle = 2,
  Truncated = 4,
  NoDone = 8,
  EarlyDone = 16,
  FalseDone = 32,
  FormatFailure = 64,
  Collapsed = 128,
  CreditDisagrees = 256,
  Empty = 512,
}

/** Not a tag: the last action is done (an ingredient of truncated, noDone and falseDone, stored beside the tags). */
export const LAST_DONE = 1024;

/** The bits the index stores: those that depend on the actions and labeled turns alone. */
export const STORED_BITS = Tag.Repeat | Tag.Cycle | Tag.EarlyDone | Tag.Collapsed | LAST_DONE;

/** Tags that need labeled turns: null (not 0) for a run without any. */
export const LABEL_TAGS: readonly TagName[] = ['collapsed', 'creditDisagrees'];

export const tagBit = (name: TagName): number => 1 << TAG_NAMES.indexOf(name);

export const isTagName = (s: string): s is TagName => (TAG_NAMES as readonly string[]).includes(s);

/** The bits of a list of names (every one must hold). */
export function tagMask(names: readonly TagName[]): number {
  let m = 0;
  for (const n of names) m |= tagBit(n);
  return m;
}

export interface BehaviourOptions {
  /** the horizon H of `truncated` and `noDone` (a whole number >= 1) */
  horizon: number;
  /** the threshold of `creditDisagrees` (>= 0) */
  theta: number;
}

export const DEFAULT_BEHAVIOUR: BehaviourOptions = { horizon: 15, theta: 0.5 };

/** What one trajectory's tags are derived from (the index's columns, or a trajectory read whole). */
export interface TagIngredients {
  /** `STORED_BITS` */
  stored: number;
  /** n, the number of turns */
  turns: number;
  reward: number;
  /** credited turns with a finite logged c, and their sum (in turn order) */
  cCount: number;
  sumC: number;
}

/** Every tag of a counted trajectory (finite reward), from its ingredients. */
export function tagBits(t: TagIngredients, o: BehaviourOptions): number {
  const n = t.turns;
  const lastDone = (t.stored & LAST_DONE) !== 0;
  let bits = t.stored & (Tag.Repeat | Tag.Cycle | Tag.EarlyDone | Tag.Collapsed);
  if (n === 0) bits |= Tag.Empty;
  if (n >= o.horizon && !lastDone) bits |= Tag.Truncated;
  if (n >= 1 && n < o.horizon && !lastDone) bits |= Tag.NoDone;
  if (n >= 1 && lastDone && t.reward <= 0) bits |= Tag.FalseDone;
  if (t.reward < 0) bits |= Tag.FormatFailure;
  if (t.cCount > 0) {
    const mean = t.sumC / t.cCount;
    if ((mean <= -o.theta && t.reward > 0) || (mean >= o.theta && t.reward <= 0)) bits |= Tag.CreditDisagrees;
  }
  return bits;
}

/** The names of the tags in `bits`, in the order of `TAG_NAMES`. */
export function tagNames(bits: number): TagName[] {
  return TAG_NAMES.filter((_, i) => (bits & (1 << i)) !== 0);
}
