/**
 * What one turn is, against the definitions of docs/format.md section 4: the report's
 * counts (`summarize`), `rlrb show` and the panels all classify a turn here, so a mark
 * on a turn and a count in the report can never disagree.
 */
import { EPS, executedIsArgmax, isSignFlip, recomputeCredit } from './credit';
import type { CreditParams } from './credit';
import { ActionMatcher } from './actions';
import type { MatchOptions } from './actions';
import { StringActions, MARK_CYCLE, MARK_REPEAT } from '../behaviour/actionSeq';
import { actionWindows } from '../behaviour/windows';

/** The fields of a turn the classification reads (a `TurnCore` or a `TurnView`). */
export interface TurnInput {
  scores: readonly (number | null)[] | null;
  same: readonly boolean[] | null;
  done: readonly boolean[] | null;
  candidates: readonly string[] | null;
  /** same-action flags already recomputed from the candidate texts, when a reader did it */
  sameRecomputed?: readonly boolean[] | null;
  /** undefined: absent; null: logged as null */
  c: number | null | undefined;
  At: number | undefined;
  masked: boolean;
  fallback: boolean;
}

/** The marks of one turn, as `rlrb show --json` prints them and the panels draw them. */
export interface TurnMarks {
  /** credited, A != 0, A_t finite, and sign(A_t) != sign(A) (A_t = 0 counts as a flip) */
  signFlip: boolean;
  /** logged `fallback: true` on a turn that is not masked (the credit fell back to 0) */
  fallback: boolean;
  /** credited, and the recomputed mean d / tau reached the clip (|c| = 1) */
  clipped: boolean;
  /** credited, and the logged c is absent, not finite, or more than 1e-6 from the recomputation */
  cMismatch: boolean;
  /** A finite, A_t logged, and A_t more than 1e-6 from A + beta*c (from A where c is null) */
  aTMismatch: boolean;
  /** credited, and scores[0] >= every other non-null score */
  executedIsArgmax: boolean;
  /** logged `masked: true` (terminal done, credit masked) */
  masked: boolean;
  /** c recomputed from the scores (section 3); null where no credit is defined: unlabeled, masked or fallback turns */
  recomputedC: number | null;
}

/** Everything the report counts about a turn; `TurnMarks` is the part shown on the turn. */
export interface TurnClass extends TurnMarks {
  /** `scores` has at least 2 entries */
  labeled: boolean;
  /** labeled, neither masked nor fallback */
  credited: boolean;
  /** counted in the sign-flip rate's denominator */
  flipCounted: boolean;
  /** the logged c is a finite number on a credited turn (counted in mean c and the dose) */
  cCounted: boolean;
  /** logged same-action flags that disagree with the canonical matcher */
  sameMismatch: boolean;
}

/** Same-action flags from candidate texts (index 0 is the executed action); null without texts. */
export function recomputeSame(candidates: readonly string[] | null, m: MatchOptions): boolean[] | null {
  if (!candidates || candidates.length < 2) return null;
  const matcher = new ActionMatcher(candidates[0]!, m);
  return candidates.map((cand, k) => k === 0 || matcher.matches(cand));
}

export function newTurnClass(): TurnClass {
  return {
    signFlip: false,
    fallback: false,
    clipped: false,
    cMismatch: false,
    aTMismatch: false,
    executedIsArgmax: false,
    masked: false,
    recomputedC: null,
    labeled: false,
    credited: false,
    flipCounted: false,
    cCounted: false,
    sameMismatch: false,
  };
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * Classifies one turn of a trajectory whose advantage is `A`, into `out` when given
 * (the index reuses one object for every turn it reads).
 */
export function classifyTurn(turn: TurnInput, A: number, p: CreditParams, m: MatchOptions, out: TurnClass = newTurnClass()): TurnClass {
  const c = turn.c;
  let aTMismatch = false;
  if (turn.At !== undefined && Number.isFinite(A)) {
    const expected = isNum(c) ? A + p.beta * c : A;
    aTMismatch = !(Math.abs(turn.At - expected) <= EPS);
  }
  out.signFlip = false;
  out.fallback = turn.fallback && !turn.masked;
  out.clipped = false;
  out.cMismatch = false;
  out.aTMismatch = aTMismatch;
  out.executedIsArgmax = false;
  out.masked = turn.masked;
  out.recomputedC = null;
  out.labeled = false;
  out.credited = false;
  out.flipCounted = false;
  out.cCounted = false;
  out.sameMismatch = false;
  const scores = turn.scores;
  if (!scores || scores.length < 2) return out;
  out.labeled = true;
  let same = turn.same;
  const recomputed = turn.sameRecomputed ?? recomputeSame(turn.candidates, m);
  if (recomputed) {
    if (same) {
      for (let k = 1; k < recomputed.length && k < same.length; k++)
        if (same[k] !== recomputed[k]) {
          out.sameMismatch = true;
          break;
        }
    } else same = recomputed;
  }
  if (turn.masked || turn.fallback) return out;
  out.credited = true;
  out.executedIsArgmax = executedIsArgmax(scores);
  const rc = recomputeCredit({ scores, same, done: turn.done }, p);
  out.recomputedC = rc.c;
  out.clipped = Math.abs(rc.c) === 1;
  const At = turn.At ?? (typeof c === 'number' ? A + p.beta * c : undefined);
  // a non-finite A_t has no sign: left out of the rate (it is an A_t mismatch instead)
  if (A !== 0 && Number.isFinite(A) && At !== undefined && Number.isFinite(At)) {
    out.flipCounted = true;
    out.signFlip = isSignFlip(A, At);
  }
  out.cCounted = isNum(c);
  // a credited turn without a usable logged c cannot match its recomputation
  out.cMismatch = !isNum(c) || !(Math.abs(rc.c - c) <= EPS);
  return out;
}

/** The marks of one turn (see `TurnMarks`). */
export function turnMarks(turn: TurnInput, A: number, p: CreditParams, m: MatchOptions): TurnMarks {
  const k = classifyTurn(turn, A, p, m);
  return {
    signFlip: k.signFlip,
    fallback: k.fallback,
    clipped: k.clipped,
    cMismatch: k.cMismatch,
    aTMismatch: k.aTMismatch,
    executedIsArgmax: k.executedIsArgmax,
    masked: k.masked,
    recomputedC: k.recomputedC,
  };
}

/** The same-action flags the credit uses: the logged ones, else those recomputed from the candidate texts; null when neither. */
export function sameFlags(turn: TurnInput, m: MatchOptions): readonly boolean[] | null {
  return turn.same ?? turn.sameRecomputed ?? recomputeSame(turn.candidates, m);
}

/** A turn against section 7's `collapsed`: not credited or an empty comparison set; compared; collapsed. */
export const enum Collapse {
  None = 0,
  Compared = 1,
  Collapsed = 2,
}

/**
 * A credited turn's comparison set is k = 1..K-1 without done candidates (section 3, as
 * section 7 defines it: a candidate whose score is missing stays in it); the turn is
 * collapsed when that set is not empty and `same[k]` holds for every k in it.
 */
export function collapseOf(turn: TurnInput, m: MatchOptions): Collapse {
  const scores = turn.scores;
  if (!scores || scores.length < 2 || turn.masked || turn.fallback) return Collapse.None;
  const same = sameFlags(turn, m);
  let compared = false;
  for (let k = 1; k < scores.length; k++) {
    if (turn.done?.[k] === true) continue;
    compared = true;
    if (same?.[k] !== true) return Collapse.Compared;
  }
  return compared ? Collapse.Collapsed : Collapse.None;
}

/** A turn's marks with section 7's: a turn of a repeat or a cycle window, a collapsed turn. */
export interface BehaviourTurnMarks extends TurnMarks {
  repeat: boolean;
  cycle: boolean;
  collapsed: boolean;
}

/** The marks of every turn of a trajectory (those of section 7 need the turns around it). */
export function trajectoryTurnMarks(
  turns: readonly (TurnInput & { action: string | null })[],
  A: number,
  p: CreditParams,
  m: MatchOptions,
): BehaviourTurnMarks[] {
  const windows = new Uint8Array(turns.length);
  actionWindows(
    new StringActions(
      turns.map((t) => t.action),
      m,
    ),
    windows,
  );
  return turns.map((t, i) => ({
    ...turnMarks(t, A, p, m),
    repeat: (windows[i]! & MARK_REPEAT) !== 0,
    cycle: (windows[i]! & MARK_CYCLE) !== 0,
    collapsed: collapseOf(t, m) === Collapse.Collapsed,
  }));
}
