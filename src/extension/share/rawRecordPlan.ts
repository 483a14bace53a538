/**
 * How "Open Raw Record" shows a record of a given size (pure; no vscode): the log at its
 * line, the formatted view, or, for a record too large to format, the log at its line with
 * a one-line note (formatting builds the whole indented text in memory, a hundred times the
 * record or more, enough to end the extension host), refused when there is no local file.
 */
import { formatBytes } from '../../shared/format';

/** Longer lines open as the formatted view: an editor slows down on them (and turns off its features). */
export const LONG_LINE_BYTES = 200 * 1024;
/** Longer records are not formatted (their indented text would take hundreds of MB); they open as the log at their line. */
export const FORMAT_MAX_BYTES = 2_000_000;

export type RawRecordPlan = { kind: 'log'; note?: string } | { kind: 'formatted' } | { kind: 'refused'; message: string };

export interface RawRecordAsk {
  /** the record's bytes in the log */
  bytes: number;
  /** the turn asked for, or null for the record */
  turn: number | null;
  /** the log is a file on this machine (not a Hub log read in place) */
  localFile: boolean;
  /** where the record is, for the note: "file:line" */
  at: string;
}

export function rawRecordPlan(a: RawRecordAsk): RawRecordPlan {
  if (a.bytes <= FORMAT_MAX_BYTES)
    return a.turn === null && a.bytes <= LONG_LINE_BYTES && a.localFile ? { kind: 'log' } : { kind: 'formatted' };
  const size = `${a.at}: the record is ${formatBytes(a.bytes)}, over the ${formatBytes(FORMAT_MAX_BYTES)} Open Raw Record formats`;
  if (!a.localFile) return { kind: 'refused', message: `${size}, and the log is not a local file to open at its line` };
  return { kind: 'log', note: `${size}: opened as the log at its line${a.turn === null ? '' : ` (not at turn ${a.turn})`}` };
}
