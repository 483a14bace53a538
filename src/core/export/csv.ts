/**
 * CSV of the trajectory table (RFC 4180): a header row, one row per trajectory, CRLF
 * after every row, a field quoted when it holds a comma, a quote, CR or LF (quotes
 * doubled); text inside a quoted field keeps its own line breaks. Non-finite numbers
 * and absent values are empty fields. Text from the log (task id, instruction) that a
 * spreadsheet would run as a formula gets a leading `'` (`guardFormula`).
 */
import type { TrajectoryRow } from '../log/creditIndex';

/** What a CSV row needs from the record itself (the index does not hold these). */
export interface RecordText {
  taskId: string | null;
  instruction: string | null;
}

interface Column {
  name: string;
  get: (r: TrajectoryRow, t: RecordText) => string;
}

const num = (v: number | null): string => (v !== null && Number.isFinite(v) ? String(v) : '');

/**
 * A text field that starts with `=`, `+`, `-`, `@`, a tab or a CR is what Excel, LibreOffice
 * and Google Sheets run as a formula (CSV injection); a leading `'` makes them show it as
 * text. Only the log's text columns go through it: the numbers are ours, and `-0.5` stays a number.
 */
export function guardFormula(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** The columns, in order: the table's summary plus the record's task and instruction and its line. */
export const CSV_COLUMNS: readonly Column[] = [
  { name: 'iteration', get: (r) => num(r.iteration) },
  { name: 'group', get: (r) => num(r.group) },
  { name: 'rollout', get: (r) => num(r.rollout) },
  { name: 'task_id', get: (_, t) => guardFormula(t.taskId ?? '') },
  { name: 'instruction', get: (_, t) => guardFormula(t.instruction ?? '') },
  { name: 'reward', get: (r) => num(r.reward) },
  { name: 'A', get: (r) => num(r.A) },
  { name: 'labeled', get: (r) => (r.labeled ? 'true' : 'false') },
  { name: 'turns', get: (r) => num(r.turns) },
  { name: 'labeled_turns', get: (r) => num(r.labeledTurns) },
  { name: 'credited_turns', get: (r) => num(r.creditedTurns) },
  { name: 'mean_c', get: (r) => num(r.meanC) },
  { name: 'sign_flips', get: (r) => num(r.signFlips) },
  { name: 'argmax_turns', get: (r) => num(r.argmaxTurns) },
  { name: 'fallback_turns', get: (r) => num(r.fallbackTurns) },
  { name: 'line', get: (r) => num(r.line) },
];

export const CSV_EOL = '\r\n';

/** One field, quoted when RFC 4180 requires it. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_EOL;
}

export function csvHeader(): string {
  return csvLine(CSV_COLUMNS.map((c) => c.name));
}

export function csvRow(r: TrajectoryRow, t: RecordText): string {
  return csvLine(CSV_COLUMNS.map((c) => c.get(r, t)));
}
