/**
 * CSV of the trajectory table (RFC 4180): a header row, one row per trajectory, CRLF
 * after every row, a field quoted when it holds a comma, a quote, CR or LF (quotes
 * doubled); text inside a quoted field keeps its own line breaks. Non-finite numbers
 * and absent values are empty fields (the columns: `SUMMARY_COLUMNS`). Text from the log (task id, instruction) that a
 * spreadsheet would run as a formula gets a leading `'` (`guardFormula`).
 */
import type { TrajectoryRow } from '../log/creditIndex';
import { SUMMARY_COLUMNS } from './summary';
import type { RecordText, SummaryValue } from './summary';

export type { RecordText } from './summary';

/** Every Unicode space and format character (NBSP, U+3000, ZWSP, BOM, LF, …) a spreadsheet skips before a formula. */
const LEADING_BLANKS = /^[\p{White_Space}\p{Cf}]+/u;
/** What starts a formula, in ASCII and fullwidth (`＝`, `＋`, `－`, `＠`). */
const FORMULA_START = /^[=+\-@\uff1d\uff0b\uff0d\uff20]/;

/**
 * A text field that starts with `=`, `+`, `-`, `@` (or their fullwidth forms) after any
 * Unicode spaces and format characters, or with a tab or a CR, is what Excel, LibreOffice and
 * Google Sheets may run as a formula (CSV injection); a leading `'` makes them show it as text.
 * Only the log's text columns go through it: the numbers are ours, and `-0.5` stays a number.
 */
export function guardFormula(s: string): string {
  return /^[\t\r]/.test(s) || FORMULA_START.test(s.replace(LEADING_BLANKS, '')) ? `'${s}` : s;
}

/** A summary value as CSV text: null is empty, a string from the log is guarded. */
export function csvText(v: SummaryValue): string {
  if (v === null) return '';
  if (typeof v === 'string') return guardFormula(v);
  return String(v);
}

export const CSV_EOL = '\r\n';

/** One field, quoted when RFC 4180 requires it. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvLine(fields: readonly string[]): string {
  return fields.map(csvField).join(',') + CSV_EOL;
}

export function csvHeader(): string {
  return csvLine(SUMMARY_COLUMNS.map((c) => c.name));
}

export function csvRow(r: TrajectoryRow, t: RecordText): string {
  return csvLine(SUMMARY_COLUMNS.map((c) => csvText(c.get(r, t))));
}
