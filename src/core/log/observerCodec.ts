/** The schema observer as plain JSON for a saved index, and back (refusing any shape it did not write). */
import type { SchemaObserver } from '../record/schema';
import type { TrajectoryField, TurnField } from '../record/schema';

type Counts = [string, number][];

export interface ObserverJson {
  trajectoryNames: [string, Counts][];
  turnNames: [string, Counts][];
  unknownTrajectoryKeys: Counts;
  unknownTurnKeys: Counts;
  wrongTypes: [string, number, number[]][];
  records: number;
  turns: number;
}

export function observerToJson(o: SchemaObserver): ObserverJson {
  return {
    trajectoryNames: [...o.trajectoryNames].map(([f, m]) => [f, [...m]]),
    turnNames: [...o.turnNames].map(([f, m]) => [f, [...m]]),
    unknownTrajectoryKeys: [...o.unknownTrajectoryKeys],
    unknownTurnKeys: [...o.unknownTurnKeys],
    wrongTypes: [...o.wrongTypes].map(([k, w]) => [k, w.count, [...w.lines]]),
    records: o.records,
    turns: o.turns,
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isCounts = (v: unknown): v is Counts =>
  Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isCount(e[1]));
const isNamed = (v: unknown): v is [string, Counts][] =>
  Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isCounts(e[1]));

/** Fills `o` (reset first) from saved JSON; false, leaving `o` reset, when the JSON is not what `observerToJson` writes. */
export function observerFromJson(o: SchemaObserver, v: unknown): boolean {
  o.reset();
  if (v === null || typeof v !== 'object') return false;
  const j = v as Partial<Record<keyof ObserverJson, unknown>>;
  const wrong = j.wrongTypes;
  const wrongOk =
    Array.isArray(wrong) &&
    wrong.every(
      (e) => Array.isArray(e) && e.length === 3 && typeof e[0] === 'string' && isCount(e[1]) && Array.isArray(e[2]) && e[2].every(isCount),
    );
  if (!isNamed(j.trajectoryNames) || !isNamed(j.turnNames) || !isCounts(j.unknownTrajectoryKeys) || !isCounts(j.unknownTurnKeys))
    return false;
  if (!wrongOk || !isCount(j.records) || !isCount(j.turns)) return false;
  for (const [f, m] of j.trajectoryNames) o.trajectoryNames.set(f as TrajectoryField, new Map(m));
  for (const [f, m] of j.turnNames) o.turnNames.set(f as TurnField, new Map(m));
  for (const [k, n] of j.unknownTrajectoryKeys) o.unknownTrajectoryKeys.set(k, n);
  for (const [k, n] of j.unknownTurnKeys) o.unknownTurnKeys.set(k, n);
  for (const [k, count, lines] of wrong as [string, number, number[]][]) o.wrongTypes.set(k, { count, lines });
  o.records = j.records;
  o.turns = j.turns;
  return true;
}
