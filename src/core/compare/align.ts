/**
 * Two trajectories turn by turn: turns aligned by index, and the first turn where the
 * executed actions differ (the canonical action match of section 2, so a reordered
 * JSON argument is the same action).
 */
import { sameAction } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';
import { DEFAULT_MATCH } from '../credit/actions';

/** The part of a turn the alignment reads. */
export interface AlignTurn {
  action: string | null;
}

/** One row of the alignment: turn `index` of each side, absent past a side's end. */
export interface AlignedRow<T> {
  index: number;
  left: T | undefined;
  right: T | undefined;
  /** both sides have this turn and its executed actions match */
  same: boolean;
}

/** Whether two executed actions are the same action; two missing actions (null) are the same. */
function sameExecuted(a: string | null, b: string | null, m: MatchOptions): boolean {
  if (a === null || b === null) return a === b;
  return a === b || sameAction(a, b, m);
}

/** The rows of both sides, by turn index, as many as the longer side has. */
export function alignTurns<T extends AlignTurn>(left: readonly T[], right: readonly T[], m: MatchOptions = DEFAULT_MATCH): AlignedRow<T>[] {
  const n = Math.max(left.length, right.length);
  const out: AlignedRow<T>[] = [];
  for (let i = 0; i < n; i++) {
    const l = left[i];
    const r = right[i];
    out.push({ index: i, left: l, right: r, same: l !== undefined && r !== undefined && sameExecuted(l.action, r.action, m) });
  }
  return out;
}

/**
 * The first turn index where the executed actions differ, or where one side has
 * ended and the other has not; null when both sides did the same thing throughout.
 */
export function firstDivergentTurn(
  left: readonly AlignTurn[],
  right: readonly AlignTurn[],
  m: MatchOptions = DEFAULT_MATCH,
): number | null {
  const row = alignTurns(left, right, m).find((r) => !r.same);
  return row ? row.index : null;
}
