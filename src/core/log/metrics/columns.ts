/**
 * The metrics index's storage: growable number columns kept in blocks (no copy of the whole
 * on growth, a few bytes while short); columns of increasing numbers that are not stored
 * while they step evenly (rows 0, 1, 2, ...; lines; iterations logged every k steps); and
 * one metric's entries (the rows that have it and its values).
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

  /** The values as views of the blocks, in order (a saved frame writes them without a copy). */
  parts(): NumberArray[] {
    const out: NumberArray[] = [];
    let left = this.length;
    for (const b of this.blocks) {
      if (left <= 0) break;
      out.push(b.subarray(0, Math.min(b.length, left)));
      left -= b.length;
    }
    return out;
  }

  /** The values as one array. */
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

/**
 * Increasing numbers (rows, lines, iterations): while each is the one before plus the same
 * step, only the first and the step are kept; the first uneven one stores them all.
 */
export class SteppedColumn {
  private first = 0;
  private step = 0;
  private stored: NumberColumn | undefined;
  length = 0;

  constructor(private readonly make: () => NumberColumn) {}

  /** undefined while the numbers step evenly: `first + i * step` */
  get even(): { first: number; step: number } | undefined {
    return this.stored ? undefined : { first: this.first, step: this.step };
  }

  at(i: number): number {
    return this.stored ? this.stored.at(i) : this.first + i * this.step;
  }

  push(v: number): void {
    const n = this.length;
    if (!this.stored) {
      if (n === 0) this.first = v;
      else if (n === 1 && v - this.first > 0 && this.first + (v - this.first) === v) this.step = v - this.first;
      else if (n === 1 || v !== this.first + n * this.step) {
        this.stored = this.make();
        for (let i = 0; i < n; i++) this.stored.push(this.first + i * this.step);
      }
    }
    this.stored?.push(v);
    this.length++;
  }

  truncate(n: number): void {
    if (n >= this.length) return;
    this.length = n;
    this.stored?.truncate(n);
    if (!this.stored && n <= 1) this.step = 0;
  }

  /** The numbers as views of stored blocks (for a saved frame; only when not `even`). */
  parts(): NumberArray[] {
    return this.stored?.parts() ?? [];
  }
}

/** One metric's entries in row order: the rows it was logged on, with the value logged. */
export class MetricEntries {
  readonly rows = new SteppedColumn(uintColumn);
  readonly values = floatColumn();

  constructor(readonly name: string) {}

  get length(): number {
    return this.values.length;
  }

  rowAt(i: number): number {
    return this.rows.at(i);
  }

  /** Adds the value of a row later than every row held. */
  add(row: number, value: number): void {
    this.rows.push(row);
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
    this.rows.truncate(lo);
  }
}
