/**
 * One trajectory of the credit log: the core fields the index needs, the full
 * normalised view that the detail pane and `rlrb show` need, and the per-trajectory
 * summary of section 4 figures.
 */
import type { KeyTable, SchemaObserver, SchemaTables, TrajectoryField, TurnField } from './schema';
import { numberOf } from '../log/tolerantJson';
import { executedIsArgmax, EPS, isSignFlip, recomputeCredit } from '../credit/credit';
import type { CreditParams } from '../credit/credit';
import { ActionMatcher } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';

export interface TurnCore {
  scores: (number | null)[] | null;
  same: boolean[] | null;
  done: boolean[] | null;
  candidates: string[] | null;
  /**
   * The same-action flags recomputed from the candidate texts, when a reader has
   * already done it (the fast reader does, on bytes); otherwise derived from `candidates`.
   */
  sameRecomputed?: boolean[] | null;
  /** undefined: absent; null: logged as null */
  c: number | null | undefined;
  At: number | undefined;
  masked: boolean;
  fallback: boolean;
}

export interface TrajectoryCore {
  iteration: number;
  group: number;
  rollout: number;
  reward: number;
  A: number;
  labeled: boolean | undefined;
  turns: TurnCore[];
  /** required reference fields this record lacked */
  missing: number;
}

export interface TurnView extends TurnCore {
  index: number;
  action: string | null;
  /** unknown fields of the turn, kept as logged */
  extras: Record<string, unknown>;
}

export interface TrajectoryView {
  iteration: number;
  group: number;
  rollout: number;
  taskId: string | null;
  instruction: string | null;
  reward: number;
  A: number;
  labeled: boolean;
  turns: TurnView[];
  extras: Record<string, unknown>;
  /** reference names of expected fields absent from this record */
  missingFields: string[];
}

export const enum Flag {
  SignFlip = 1,
  Argmax = 2,
  Fallback = 4,
  Masked = 8,
  CMismatch = 16,
  ATMismatch = 32,
  SameMismatch = 64,
  Labeled = 128,
  DoneCandidate = 256,
  MissingFields = 512,
}

export const MISSING_ITERATION = -1;

export interface TrajectorySummary {
  turns: number;
  labeledTurns: number;
  maskedTurns: number;
  fallbackTurns: number;
  creditedTurns: number;
  /** credited turns with A != 0 (the sign-flip denominator) */
  flipBase: number;
  signFlips: number;
  argmaxTurns: number;
  /** credited turns that carry a finite logged c */
  cCount: number;
  sumC: number;
  sumC2: number;
  cMismatches: number;
  aTMismatches: number;
  sameMismatches: number;
  flags: number;
}

/** Same-action flags from candidate texts (index 0 is the executed action); null without texts. */
export function recomputeSame(candidates: readonly string[] | null, m: MatchOptions): boolean[] | null {
  if (!candidates || candidates.length < 2) return null;
  const matcher = new ActionMatcher(candidates[0]!, m);
  return candidates.map((cand, k) => k === 0 || matcher.matches(cand));
}

/** Computes the per-trajectory figures of section 4. */
export function summarize(t: TrajectoryCore, p: CreditParams, m: MatchOptions): TrajectorySummary {
  const s: TrajectorySummary = {
    turns: t.turns.length,
    labeledTurns: 0,
    maskedTurns: 0,
    fallbackTurns: 0,
    creditedTurns: 0,
    flipBase: 0,
    signFlips: 0,
    argmaxTurns: 0,
    cCount: 0,
    sumC: 0,
    sumC2: 0,
    cMismatches: 0,
    aTMismatches: 0,
    sameMismatches: 0,
    flags: 0,
  };
  const A = t.A;
  let labeled = t.labeled === true;
  for (const turn of t.turns) {
    const c = turn.c;
    if (turn.At !== undefined && Number.isFinite(A)) {
      const expected = typeof c === 'number' && Number.isFinite(c) ? A + p.beta * c : A;
      if (!(Math.abs(turn.At - expected) <= EPS)) s.aTMismatches++;
    }
    if (turn.done)
      for (let k = 1; k < turn.done.length; k++)
        if (turn.done[k]) {
          s.flags |= Flag.DoneCandidate;
          break;
        }
    const scores = turn.scores;
    if (!scores || scores.length < 2) continue;
    s.labeledTurns++;
    labeled = true;
    let same = turn.same;
    const recomputed = turn.sameRecomputed ?? recomputeSame(turn.candidates, m);
    if (recomputed) {
      if (same) {
        for (let k = 1; k < recomputed.length && k < same.length; k++)
          if (same[k] !== recomputed[k]) {
            s.sameMismatches++;
            break;
          }
      } else {
        same = recomputed;
      }
    }
    if (turn.masked) {
      s.maskedTurns++;
      continue;
    }
    if (turn.fallback) {
      s.fallbackTurns++;
      continue;
    }
    s.creditedTurns++;
    if (executedIsArgmax(scores)) s.argmaxTurns++;
    const At = turn.At ?? (typeof c === 'number' ? A + p.beta * c : undefined);
    if (A !== 0 && Number.isFinite(A) && At !== undefined) {
      s.flipBase++;
      if (isSignFlip(A, At)) s.signFlips++;
    }
    if (typeof c === 'number' && Number.isFinite(c)) {
      s.cCount++;
      s.sumC += c;
      s.sumC2 += c * c;
      const r = recomputeCredit({ scores, same, done: turn.done }, p).c;
      if (!(Math.abs(r - c) <= EPS)) s.cMismatches++;
    } else {
      // a credited turn without a usable logged c cannot match its recomputation
      s.cMismatches++;
    }
  }
  if (labeled) s.flags |= Flag.Labeled;
  if (s.signFlips > 0) s.flags |= Flag.SignFlip;
  if (s.argmaxTurns > 0) s.flags |= Flag.Argmax;
  if (s.fallbackTurns > 0) s.flags |= Flag.Fallback;
  if (s.maskedTurns > 0) s.flags |= Flag.Masked;
  if (s.cMismatches > 0) s.flags |= Flag.CMismatch;
  if (s.aTMismatches > 0) s.flags |= Flag.ATMismatch;
  if (s.sameMismatches > 0) s.flags |= Flag.SameMismatch;
  if (t.missing > 0) s.flags |= Flag.MissingFields;
  return s;
}

// ---------------------------------------------------------------------------
// Normalisation of a parsed JSON object (the slow path, and the detail view)

function pick<F extends string>(
  obj: Record<string, unknown>,
  table: KeyTable<F>,
  seen: (f: F, name: string) => void,
  unknown: (name: string) => void,
): { values: Map<F, unknown>; extras: Record<string, unknown> } {
  const values = new Map<F, unknown>();
  const extras: Record<string, unknown> = {};
  const priority = new Map<F, number>();
  for (const [key, v] of Object.entries(obj)) {
    const field = table.byName.get(key);
    if (field === undefined) {
      extras[key] = v;
      unknown(key);
      continue;
    }
    const names = table.names.get(field)!;
    const rank = names.indexOf(key);
    const prev = priority.get(field);
    if (prev === undefined || rank < prev) {
      if (prev !== undefined) extras[names[prev]!] = values.get(field);
      values.set(field, v);
      priority.set(field, rank);
    } else {
      extras[key] = v;
    }
  }
  for (const [field, rank] of priority) seen(field, table.names.get(field)![rank]!);
  return { values, extras };
}

function intOf(v: unknown): number | undefined {
  const n = numberOf(v);
  if (n !== undefined && Number.isFinite(n)) return n;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

function numOrNullArray(v: unknown): (number | null)[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => {
    const n = numberOf(x);
    return n === undefined || !Number.isFinite(n) ? null : n;
  });
}

function boolArray(v: unknown): boolean[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => x === true || x === 1);
}

function strArray(v: unknown): string[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
}

function str(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

const REQUIRED_TOP: readonly TrajectoryField[] = ['iteration', 'group', 'rollout', 'reward', 'A', 'turns'];

/** Normalises a parsed record; records what it met into the observer when one is given. */
export function normaliseRecord(
  obj: Record<string, unknown>,
  tables: SchemaTables,
  obs?: SchemaObserver,
): { core: TrajectoryCore; view: TrajectoryView } {
  const top = pick(
    obj,
    tables.trajectory,
    (f, n) => obs?.seeTrajectory(f, n),
    (n) => obs?.seeUnknown('trajectory', n),
  );
  const v = top.values;
  const missingFields: string[] = REQUIRED_TOP.filter((f) => !v.has(f));
  const rawTurns = Array.isArray(v.get('turns')) ? (v.get('turns') as unknown[]) : [];
  const turns: TurnView[] = rawTurns.map((rt, index) => {
    const o = rt !== null && typeof rt === 'object' && !Array.isArray(rt) ? (rt as Record<string, unknown>) : { action: rt };
    const t = pick<TurnField>(
      o,
      tables.turn,
      (f, n) => obs?.seeTurn(f, n),
      (n) => obs?.seeUnknown('turn', n),
    );
    const tv = t.values;
    const cRaw = tv.get('c');
    const cNum = numberOf(cRaw);
    const AtNum = numberOf(tv.get('A_t'));
    return {
      index,
      action: str(tv.get('action')),
      candidates: strArray(tv.get('candidates')),
      scores: numOrNullArray(tv.get('scores')),
      same: boolArray(tv.get('same')),
      done: boolArray(tv.get('done')),
      c: tv.has('c') ? (cNum === undefined ? null : cNum) : undefined,
      At: AtNum,
      masked: tv.get('masked') === true,
      fallback: tv.get('fallback') === true,
      extras: t.extras,
    };
  });
  if (obs) {
    obs.records++;
    obs.turns += turns.length;
  }
  const labeledRaw = v.get('labeled');
  const view: TrajectoryView = {
    iteration: intOf(v.get('iteration')) ?? MISSING_ITERATION,
    group: intOf(v.get('group')) ?? -1,
    rollout: intOf(v.get('rollout')) ?? -1,
    taskId: str(v.get('task_id')),
    instruction: str(v.get('instruction')),
    reward: numberOf(v.get('reward')) ?? NaN,
    A: numberOf(v.get('A')) ?? NaN,
    labeled: labeledRaw === true || labeledRaw === 1 || turns.some((t) => (t.scores?.length ?? 0) >= 2),
    turns,
    extras: top.extras,
    missingFields,
  };
  const core: TrajectoryCore = {
    iteration: view.iteration,
    group: view.group,
    rollout: view.rollout,
    reward: view.reward,
    A: view.A,
    labeled: labeledRaw === undefined ? undefined : labeledRaw === true || labeledRaw === 1,
    turns,
    missing: missingFields.length,
  };
  return { core, view };
}
