/**
 * The action-derived tags of section 7 over a sequence of executed actions: `repeat`
 * (a_i ~ a_{i+1} ~ a_{i+2}, none done or a scroll), `cycle` (a_i ~ a_{i+2}, a_{i+1} ~
 * a_{i+3}, not a_i ~ a_{i+1}, none of the four done), `earlyDone` and whether the last
 * action is done. Each match is asked at most once, and only when the keys of the window's
 * other pair do not already say no; without `marks` the scan stops as soon as both
 * windows are found.
 */
import { Tag, LAST_DONE } from './tags';
import { DONE_KEY, MARK_CYCLE, MARK_REPEAT, SCROLL_KEY } from './actionSeq';
import type { ActionSeq } from './actionSeq';

/** Per-turn scratch, grown as needed: bit 1 done, 2 scroll; each action's key; match memos (0 unknown, 1 no, 2 yes). */
let flags = new Uint8Array(64);
let keys = new Int32Array(64);
let next1 = new Uint8Array(64);
let next2 = new Uint8Array(64);

const DONE = 1;
const SCROLL = 2;

/** a_i ~ a_{i+gap}, asked of `seq` once and only when their keys do not already say no. */
function same(seq: ActionSeq, memo: Uint8Array, i: number, gap: number): boolean {
  let v = memo[i]!;
  if (v === 0) {
    v = maybe(i, gap) && seq.same(i, i + gap) ? 2 : 1;
    memo[i] = v;
  }
  return v === 2;
}

/** Whether a_i ~ a_{i+gap} may hold: their keys do not already say no (two known, different names). */
function maybe(i: number, gap: number): boolean {
  const a = keys[i]!,
    b = keys[i + gap]!;
  return a < 0 || b < 0 || a === b;
}

/**
 * `Tag.Repeat | Tag.Cycle | Tag.EarlyDone | LAST_DONE` as they hold; `marks[i]` gets `MARK_REPEAT`/`MARK_CYCLE` for every turn of every
 * window.
 */
export function actionWindows(seq: ActionSeq, marks?: Uint8Array): number {
  const n = seq.length;
  if (n === 0) return 0;
  if (flags.length < n) {
    const size = Math.max(n, flags.length * 2);
    flags = new Uint8Array(size);
    keys = new Int32Array(size);
    next1 = new Uint8Array(size);
    next2 = new Uint8Array(size);
  }
  for (let i = 0; i < n; i++) {
    const k = seq.key(i);
    keys[i] = k;
    flags[i] = k === DONE_KEY ? DONE : k === SCROLL_KEY ? SCROLL : 0;
    next1[i] = 0;
    next2[i] = 0;
  }
  let bits = 0;
  if ((flags[0]! & DONE) !== 0) bits |= Tag.EarlyDone;
  if ((flags[n - 1]! & DONE) !== 0) bits |= LAST_DONE;
  const all = marks !== undefined;
  let repeat = false;
  let cycle = false;
  for (let i = 0; i + 2 < n && (all || !(repeat && cycle)); i++) {
    const f0 = flags[i]!,
      f1 = flags[i + 1]!,
      f2 = flags[i + 2]!;
    // both pairs of a window asked of their keys first: a match is asked of the actions only when the other pair may hold too
    if (
      (all || !repeat) &&
      ((f0 | f1 | f2) & (DONE | SCROLL)) === 0 &&
      maybe(i, 1) &&
      maybe(i + 1, 1) &&
      same(seq, next1, i, 1) &&
      same(seq, next1, i + 1, 1)
    ) {
      repeat = true;
      if (marks) for (let k = i; k < i + 3; k++) marks[k]! |= MARK_REPEAT;
    }
    if (i + 3 >= n || (!all && cycle)) continue;
    if (((f0 | f1 | f2 | flags[i + 3]!) & DONE) !== 0) continue;
    if (maybe(i, 2) && maybe(i + 1, 2) && same(seq, next2, i, 2) && same(seq, next2, i + 1, 2) && !same(seq, next1, i, 1)) {
      cycle = true;
      if (marks) for (let k = i; k < i + 4; k++) marks[k]! |= MARK_CYCLE;
    }
  }
  return bits | (repeat ? Tag.Repeat : 0) | (cycle ? Tag.Cycle : 0);
}
