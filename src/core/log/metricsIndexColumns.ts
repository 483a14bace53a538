/**
 * The metrics index's storage: growable number columns kept in blocks (no copy of the whole
 * on growth, a few bytes while short), and one metric's entries (the rows that have it and
 * its values), whose rows are not stored while they are consecutive.
 */

const BITS = 16;
const BLOCK = 1 << BITS;
const MASK = BLOCK - 1;
const FIRST = 2;

type NumberArray = Float64Array | Uint32Array;

/** A growable array of numbers: the first block doubles up to 65,536 slots, later blocks are allocated whole. */
export class NumberColumn {
  private blocks: NumberArray[] = [];
  length = 0;

  constructor(private readonly make: (n: number) => NumberArray) {}

  push(v: number): void {
    const b = this.length >>> BITS;
    const o = this.length & MASK;
    let block = this.blocks[b];
    if (!block) this.blocks.push((block = this.make(b === 0 ? FIRST : BLOCK)));
    else if (o === block.length) {
      const next = this.make(Math.min(BLOCK, block.length * 2));
      next.set(block);
      this.blocks[b] = block = next;
    }
    block[o] = v;
    this.length++;
  }

  at(i: number): number {
    return this.blocks[i >>> BITS]![i & MASK]!;
  }

  /** Keeps the first `n` values. */
  truncate(n: number): void {
    if (n >= this.length) return;
    this.length = n;
    this.blocks.length = n === 0 ? 0 : ((n - 1) >>> BITS) + 1;
  }

  /** The values as one array (for a saved frame). */
  toArray(): NumberArray {
    const out = this.make(this.length);
    let at = 0;
    for (const b of this.blocks) {
      const part = b.subarray(0, Math.min(b.length, this.length - at));
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export const floatColumn = (): NumberColumn => new NumberColumn((n) => new Float64Array(n));
export const uintColumn = (): NumberColumn => new NumberColumn((n) => new Uint32Array(n));

/** One metric's entries in row order: the rows it was logged on, with the value logged. */
export class MetricEntries {
  /** row of the first entry; while `rows` is undefined the entries sit on rows start, start + 1, ... */
  private start = 0;
  private rows: NumberColumn | undefined;
  readonly values = floatColumn();

  constructor(readonly name: string) {}

  get length(): number {
    return this.values.length;
  }

  rowAt(i: number): number {
    return this.rows ? this.rows.at(i) : this.start + i;
  }

  /** Adds the value of a row later than every row held. */
  add(row: number, value: number): void {
    const n = this.values.length;
    if (n === 0) this.start = row;
    else if (!this.rows && row !== this.start + n) {
      this.rows = uintColumn();
      for (let i = 0; i < n; i++) this.rows.push(this.start + i);
    }
    this.rows?.push(row);
    this.values.push(value);
  }

  /** Drops the entries of rows `mark` and later. */
  dropFrom(mark: number): void {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rowAt(mid) < mark) lo = mid + 1;
      else hi = mid;
    }
    this.values.truncate(lo);
    this.rows?.truncate(lo);
  }
}
