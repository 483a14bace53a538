/** How a file is cut into ranges, and what a range has written. */
import type { PartialRecord } from './manifest';

export interface RangeState {
  index: number;
  start: number;
  /** exclusive */
  end: number;
  /** bytes written from `start` (the record's entry, kept up to date) */
  have: number;
}

/** The ranges of a partial's record (`have` clamped to each range's length). */
export function rangesOf(rec: PartialRecord): RangeState[] {
  return rec.have.map((h, index) => {
    const start = index * rec.rangeBytes;
    const end = Math.min(rec.size, start + rec.rangeBytes);
    return { index, start, end, have: Math.min(h, end - start) };
  });
}

export const rangeDone = (r: RangeState): boolean => r.start + r.have >= r.end;

/** A fresh record: nothing written. */
export function freshRecord(oid: string, size: number, rangeBytes: number): PartialRecord {
  return { oid, size, rangeBytes, have: new Array<number>(Math.max(1, Math.ceil(size / rangeBytes))).fill(0) };
}
