/**
 * One trajectory of the credit log: the core fields the index needs, the full
 * normalised view that the detail pane and `rlrb show` need, and the per-trajectory
 * summary of section 4 figures.
 */
import type { KeyTable, SchemaObserver, SchemaTables, TrajectoryField, TurnField } from './schema';
import { numberOf } from '../log/tolerantJson';
import type { CreditParams } from '../credit/credit';
import type { MatchOptions } from '../credit/actions';
import { classifyTurn, newTurnClass } from '../credit/turnMarks';
import { Flag } from '../../shared/shapes';

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

const scratch = newTurnClass();

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
    if (turn.done)
      for (let k = 1; k < turn.done.length; k++)
        if (turn.done[k]) {
          s.flags |= Flag.DoneCandidate;
          break;
        }
    const k = classifyTurn(turn, A, p, m, scratch);
    if (k.aTMismatch) s.aTMismatches++;
    if (!k.labeled) continue;
    s.labeledTurns++;
    labeled = true;
    if (k.sameMismatch) s.sameMismatches++;
    if (k.masked) s.maskedTurns++;
    if (k.fallback) s.fallbackTurns++;
    if (!k.credited) continue;
    s.creditedTurns++;
    if (k.executedIsArgmax) s.argmaxTurns++;
    if (k.flipCounted) s.flipBase++;
    if (k.signFlip) s.signFlips++;
    if (k.cCounted) {
      const c = turn.c as number;
      s.cCount++;
      s.sumC += c;
      s.sumC2 += c * c;
    }
    if (k.cMismatch) s.cMismatches++;
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
  // no prototype: a field named __proto__ or constructor is data like any other
  const extras = Object.create(null) as Record<string, unknown>;
  const priority = new Map<F, number>();
  for (const key of Object.keys(obj)) {
    const v = obj[key];
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

/**
 * The value rules both readers share. Numbers are JSON numbers (or Python's NaN and
 * Infinity); booleans are `true` and `false` only; null is "not given" wherever it is
 * allowed. Anything else is a wrong type: read as missing and reported by field.
 */
class FieldReader {
  /** reference names (`reward`, `turn.masked`) that held a value of the wrong type */
  readonly wrongTypes: string[] = [];
  /** set when the record cannot be placed: its iteration, group or rollout is not a whole number >= 0 (digits in a string are read) */
  refused: string | undefined;

  private wrong(name: string): void {
    if (!this.wrongTypes.includes(name)) this.wrongTypes.push(name);
  }

  id(v: unknown, name: string, missing: number): number {
    if (v === undefined || v === null) return missing;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    // digits in a string name the trajectory just as well: read, and flagged as a wrong type
    if (typeof v === 'string' && /^\d{1,15}$/.test(v)) {
      this.wrong(name);
      return Number(v);
    }
    const shown = typeof v === 'string' && !v.startsWith('\u0000') ? JSON.stringify(v) : String(numberOf(v) ?? JSON.stringify(v));
    this.refused ??= `${name} ${shown.slice(0, 40)} is not a whole number from 0 to 2^53 - 1`;
    return missing;
  }

  num(v: unknown, name: string): number {
    if (v === undefined || v === null) return NaN;
    const n = typeof v === 'boolean' ? undefined : numberOf(v);
    if (n === undefined) this.wrong(name);
    return n ?? NaN;
  }

  /** c: null stays null (logged as null); a wrong type reads as null */
  numOrNull(v: unknown, name: string): number | null {
    if (v === null) return null;
    const n = typeof v === 'boolean' ? undefined : numberOf(v);
    if (n === undefined) this.wrong(name);
    return n ?? null;
  }

  bool(v: unknown, name: string): boolean | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'boolean') return v;
    this.wrong(name);
    return undefined;
  }

  array(v: unknown, name: string): unknown[] | null {
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) return v as unknown[];
    this.wrong(name);
    return null;
  }

  scores(v: unknown, name: string): (number | null)[] | null {
    return (
      this.array(v, name)?.map((x) => {
        if (x === null) return null;
        const n = typeof x === 'boolean' ? undefined : numberOf(x);
        if (n === undefined) this.wrong(name);
        return n === undefined || !Number.isFinite(n) ? null : n;
      }) ?? null
    );
  }

  /** elements must be true or false; null among them is a wrong type too */
  bools(v: unknown, name: string): boolean[] | null {
    return (
      this.array(v, name)?.map((x) => {
        if (x === null) this.wrong(name);
        return this.bool(x, name) === true;
      }) ?? null
    );
  }

  strings(v: unknown, name: string): string[] | null {
    return (
      this.array(v, name)?.map((x) => {
        if (x === null) this.wrong(name);
        return this.str(x, name) ?? 'null';
      }) ?? null
    );
  }

  str(v: unknown, name: string): string | null {
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    this.wrong(name);
    return JSON.stringify(v);
  }
}

const REQUIRED_TOP: readonly TrajectoryField[] = ['iteration', 'group', 'rollout', 'reward', 'A', 'turns'];

/** Normalises a parsed record; records what it met into the observer when one is given. */
export function normaliseRecord(
  obj: Record<string, unknown>,
  tables: SchemaTables,
  obs?: SchemaObserver,
): { core: TrajectoryCore; view: TrajectoryView; wrongTypes: string[]; refused: string | undefined } {
  const top = pick(
    obj,
    tables.trajectory,
    (f, n) => obs?.seeTrajectory(f, n),
    (n) => obs?.seeUnknown('trajectory', n),
  );
  const v = top.values;
  const r = new FieldReader();
  const missingFields: string[] = REQUIRED_TOP.filter((f) => !v.has(f));
  const rawTurns = r.array(v.get('turns'), 'turns') ?? [];
  const turns: TurnView[] = rawTurns.map((rt, index) => {
    const isObject = rt !== null && typeof rt === 'object' && !Array.isArray(rt);
    if (!isObject) r.array(rt, 'turns');
    const o = isObject ? (rt as Record<string, unknown>) : { action: rt };
    const t = pick<TurnField>(
      o,
      tables.turn,
      (f, n) => obs?.seeTurn(f, n),
      (n) => obs?.seeUnknown('turn', n),
    );
    const tv = t.values;
    const At = tv.get('A_t');
    return {
      index,
      action: r.str(tv.get('action'), 'turn.action'),
      candidates: r.strings(tv.get('candidates'), 'turn.candidates'),
      scores: r.scores(tv.get('scores'), 'turn.scores'),
      same: r.bools(tv.get('same'), 'turn.same'),
      done: r.bools(tv.get('done'), 'turn.done'),
      c: tv.has('c') ? r.numOrNull(tv.get('c'), 'turn.c') : undefined,
      At: At === null || At === undefined ? undefined : (r.numOrNull(At, 'turn.A_t') ?? undefined),
      masked: r.bool(tv.get('masked'), 'turn.masked') === true,
      fallback: r.bool(tv.get('fallback'), 'turn.fallback') === true,
      extras: t.extras,
    };
  });
  if (obs) {
    obs.records++;
    obs.turns += turns.length;
  }
  const labeled = r.bool(v.get('labeled'), 'labeled');
  const view: TrajectoryView = {
    iteration: r.id(v.get('iteration'), 'iteration', MISSING_ITERATION),
    group: r.id(v.get('group'), 'group', -1),
    rollout: r.id(v.get('rollout'), 'rollout', -1),
    taskId: r.str(v.get('task_id'), 'task_id'),
    instruction: r.str(v.get('instruction'), 'instruction'),
    reward: r.num(v.get('reward'), 'reward'),
    A: r.num(v.get('A'), 'A'),
    labeled: labeled === true || turns.some((t) => (t.scores?.length ?? 0) >= 2),
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
    labeled,
    turns,
    missing: missingFields.length,
  };
  return { core, view, wrongTypes: r.wrongTypes, refused: r.refused };
}
