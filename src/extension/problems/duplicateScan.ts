/**
 * The repeated trajectory keys of a credit log, carried from call to call: each call reads
 * only the rows appended since the last one (the Problems panel asks on every change; a
 * 10 M-row log rebuilt its map each time). A provisional last row is checked, not kept; a
 * re-indexed log is read again from its first row.
 */
import type { CreditIndex } from '../../core/log/creditIndex';

export interface DuplicateRow {
  /** the row's own line */
  line: number;
  /** the line the key first appeared on */
  first: number;
  iteration: number;
  group: number;
  rollout: number;
}

export interface DuplicateRows {
  /** how many rows repeat a key seen before */
  count: number;
  /** the first `limit` of them */
  rows: DuplicateRow[];
}

class Scan {
  readonly first = new Map<string, number>();
  readonly rows: DuplicateRow[] = [];
  count = 0;
  /** rows read into `first` */
  scanned = 0;
  /** rows looked at in all (the committed ones once, a provisional last one each call): what a test counts */
  work = 0;

  constructor(
    readonly generation: number,
    readonly limit: number,
  ) {}
}

const scans = new WeakMap<CreditIndex, Scan>();

const keyOf = (idx: CreditIndex, i: number): string => {
  const c = idx.columns;
  return `${c.iteration[i]}:${c.group[i]}:${c.rollout[i]}`;
};

function rowOf(idx: CreditIndex, i: number, first: number): DuplicateRow {
  const c = idx.columns;
  return { line: c.line[i]!, first, iteration: c.iteration[i]!, group: c.group[i]!, rollout: c.rollout[i]! };
}

/** The rows of `idx` whose key appeared on an earlier row, at most `limit` listed. */
export function duplicateRows(idx: CreditIndex, limit: number): DuplicateRows {
  let s = scans.get(idx);
  if (!s || s.generation !== idx.generation || s.limit !== limit || idx.size < s.scanned)
    scans.set(idx, (s = new Scan(idx.generation, limit)));
  const committed = idx.pendingTail ? idx.size - 1 : idx.size;
  for (; s.scanned < committed; s.scanned++, s.work++) {
    const k = keyOf(idx, s.scanned);
    const at = s.first.get(k);
    if (at === undefined) {
      s.first.set(k, idx.columns.line[s.scanned]!);
      continue;
    }
    s.count++;
    if (s.rows.length < limit) s.rows.push(rowOf(idx, s.scanned, at));
  }
  if (committed >= s.scanned && committed < idx.size) {
    s.work++;
    const at = s.first.get(keyOf(idx, committed));
    if (at !== undefined)
      return { count: s.count + 1, rows: s.rows.length < limit ? [...s.rows, rowOf(idx, committed, at)] : s.rows.slice() };
  }
  return { count: s.count, rows: s.rows.slice() };
}

/** Rows the scan of `idx` has looked at so far (for tests: appending N rows costs N). */
export function duplicateScanWork(idx: CreditIndex): number {
  return scans.get(idx)?.work ?? 0;
}
