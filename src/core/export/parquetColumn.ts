/**
 * One column of a Parquet row group, gathered value by value into its encoded form: definition
 * (and, for a list, repetition) levels and the PLAIN bytes of its values, so a row group costs
 * one pass over its cells and no value array. Written as one DATA_PAGE_V2 page, SNAPPY, with
 * the chunk's statistics (hyparquet-writer's page header and RLE; `snappy.ts`, which compresses as
 * its Snappy does: the same bytes its `ParquetWriter` writes for a column, without its per-value
 * dictionary, sampling and sorting).
 */
import { ByteWriter } from 'hyparquet-writer';
import type { Writer } from 'hyparquet-writer';
import { writePageHeader } from 'hyparquet-writer/src/datapage.js';
import { writeRleBitPackedHybrid } from 'hyparquet-writer/src/encoding.js';
import type { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { endianness } from 'node:os';
import { snappyCompress } from './snappy';

/** `int`: INT64 (held exactly to 2^53); `int32`: counts that fit, no BigInt per cell */
export type ScalarType = 'int' | 'int32' | 'float' | 'string' | 'bool';
/** a string cell may be given as its UTF-8 bytes (copied at once: a reused buffer is fine) */
export type Scalar = number | string | Uint8Array | boolean | null;

type FileMetaData = Parameters<typeof writeMetadata>[1];
export type ColumnChunk = FileMetaData['row_groups'][number]['columns'][number];

const PHYSICAL = { int: 'INT64', int32: 'INT32', float: 'DOUBLE', string: 'BYTE_ARRAY', bool: 'BOOLEAN' } as const;

/** Where b[x, x + xn) and b[y, y + yn) first differ from `from` on (both equal that far): the shorter length when one is a prefix of the other. */
function diffAt(b: Buffer, x: number, xn: number, y: number, yn: number, from: number): number {
  const n = xn < yn ? xn : yn;
  let i = from;
  while (i < n && b[x + i] === b[y + i]) i++;
  return i;
}

/** b[x, x + xn) sorts before b[y, y + yn) in byte order (UTF-8 byte order is the order of the format's statistics), `d` their `diffAt`. */
function before(b: Buffer, x: number, xn: number, y: number, yn: number, d: number): boolean {
  return d < xn && d < yn ? b[x + d]! < b[y + d]! : xn < yn;
}

/** Writes `v` as UTF-8 at `at`, returning its byte length: a short ASCII text by a loop, cheaper than a call of `write`. */
function utf8(buf: Buffer, v: string | Uint8Array, at: number): number {
  if (typeof v !== 'string') {
    buf.set(v, at);
    return v.length;
  }
  if (v.length <= 64) {
    let i = 0;
    for (; i < v.length; i++) {
      const ch = v.charCodeAt(i);
      if (ch >= 0x80) break;
      buf[at + i] = ch;
    }
    if (i === v.length) return i;
  }
  return buf.write(v, at, 'utf8');
}

/** the column's type as a number: a switch on it is a jump, not string comparisons */
const enum Kind {
  Int,
  Int32,
  Float,
  String,
  Bool,
}
const KIND: Record<ScalarType, Kind> = { int: Kind.Int, int32: Kind.Int32, float: Kind.Float, string: Kind.String, bool: Kind.Bool };

/** the levels of the page being written (one page at a time: shared, so a page allocates none) */
const LEVELS = new ByteWriter(1 << 16);

/** Parquet's numbers are little-endian; typed arrays are the machine's order. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** A growable byte buffer, with number views on it for values of a fixed size (written at aligned offsets). */
class Bytes {
  buf = Buffer.from(new ArrayBuffer(1 << 12));
  f64 = new Float64Array(this.buf.buffer);
  i32 = new Int32Array(this.buf.buffer);
  used = 0;

  ensure(n: number): void {
    if (this.used + n <= this.buf.length) return;
    const next = Buffer.from(new ArrayBuffer(Math.max(this.buf.length * 2, (this.used + n + 7) & ~7)));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
    this.f64 = new Float64Array(next.buffer);
    this.i32 = new Int32Array(next.buffer);
  }

  /** a level or a boolean, one a byte */
  byte(v: number): void {
    if (this.used === this.buf.length) this.ensure(1);
    this.buf[this.used++] = v;
  }

  view(): Buffer {
    return this.buf.subarray(0, this.used);
  }
}

/**
 * A leaf column: a scalar (optional; max definition level 1) or the element of a 3-level LIST
 * (optional list, repeated `list`, optional `element`: max definition level 3, repetition 1).
 * A value that is not of the column's type (a non-finite float, a fraction in an int column) is null.
 */
export class ColumnBuilder {
  private readonly def = new Bytes();
  private readonly rep: Bytes | null;
  private readonly values = new Bytes();
  private readonly maxDef: number;
  private readonly kind: Kind;
  private nulls = 0;
  private rows = 0;
  /** min/max, each kind of value in its own fields (a comparison of one type is a fast one) */
  private lo = Infinity;
  private hi = -Infinity;
  /** strings: the smallest and the largest value's place in `values` (-1: none yet) */
  private sLo = -1;
  private sLoLen = 0;
  private sHi = -1;
  private sHiLen = 0;
  /** the length of the prefix the smallest and the largest string share: every value so far has it */
  private sShared = 0;
  /** the last string cell: the array it was given as and its place in `values` (-1: none since the page began) */
  private lastRef: Uint8Array | null = null;
  private lastAt = -1;
  /** bit 1: a false seen, bit 2: a true */
  private bools = 0;

  constructor(
    private readonly type: ScalarType,
    readonly path: readonly string[],
    list: boolean,
  ) {
    this.kind = KIND[type];
    this.maxDef = list ? 3 : 1;
    this.rep = list ? new Bytes() : null;
  }

  /** One row of a scalar column. */
  scalar(v: Scalar): void {
    this.cell(this.value(v));
  }

  /** One row of a list column (null when `v` is not an array). */
  list(v: unknown): void {
    if (!Array.isArray(v) || v.length === 0) return this.emptyList(v);
    this.rows++;
    for (let i = 0; i < v.length; i++) this.element(i === 0, this.value(v[i] as Scalar));
  }

  /** Appends `v`'s PLAIN bytes (false: it is null for this column). */
  private value(v: Scalar): boolean {
    switch (this.kind) {
      case Kind.Float:
        return this.f64(v);
      case Kind.Int32:
        return this.i32(v);
      case Kind.Int:
        return this.i64(v);
      case Kind.Bool:
        return this.bool(v);
      case Kind.String:
        return this.str(v);
    }
  }

  /** A cell whose value was appended (`ok`) or is null. */
  private cell(ok: boolean): void {
    this.rows++;
    if (ok) this.def.byte(1);
    else {
      this.def.byte(0);
      this.nulls++;
    }
  }

  /**
   * Typed cells, for a writer that knows its columns' types (`ParquetTable`'s row writer): the
   * same bytes as `scalar` and `list` for a column of that type, without a switch on the value.
   */
  floatCell(v: unknown): void {
    this.cell(this.f64(v));
  }

  int32Cell(v: unknown): void {
    this.cell(this.i32(v));
  }

  intCell(v: unknown): void {
    this.cell(this.i64(v));
  }

  boolCell(v: unknown): void {
    this.cell(this.bool(v));
  }

  stringCell(v: unknown): void {
    this.cell(this.str(v));
  }

  /**
   * A string cell given as bytes the caller never changes once given (an id repeated over a
   * trajectory's turns): when the last cell was this same array, its bytes are copied again
   * without comparing them for the statistics.
   */
  bytesCell(v: Uint8Array): void {
    if (v !== this.lastRef || this.lastAt < 0) {
      this.cell(this.str(v));
      this.lastRef = v;
      return;
    }
    const n = v.length;
    const b = this.values;
    b.ensure(4 + n);
    const at = b.used + 4;
    b.buf.copyWithin(b.used, this.lastAt - 4, this.lastAt + n);
    b.used = at + n;
    this.lastAt = at;
    this.cell(true);
  }

  /** A list cell that is null (not an array) or empty: one null slot. */
  private emptyList(v: unknown): void {
    this.rows++;
    this.def.byte(Array.isArray(v) ? 1 : 0);
    this.rep!.byte(0);
    this.nulls++;
  }

  /** An element's levels: the first of its list or not, present or null. */
  private element(first: boolean, ok: boolean): void {
    this.rep!.byte(first ? 0 : 1);
    if (ok) this.def.byte(3);
    else {
      this.def.byte(2);
      this.nulls++;
    }
  }

  // the typed lists: each element's method called directly (a list cell is a turn's hot path)
  floatList(v: readonly unknown[] | null | undefined): void {
    if (!Array.isArray(v) || v.length === 0) return this.emptyList(v);
    this.rows++;
    for (let i = 0; i < v.length; i++) this.element(i === 0, this.f64(v[i]));
  }

  boolList(v: readonly unknown[] | null | undefined): void {
    if (!Array.isArray(v) || v.length === 0) return this.emptyList(v);
    this.rows++;
    for (let i = 0; i < v.length; i++) this.element(i === 0, this.bool(v[i]));
  }

  stringList(v: readonly unknown[] | null | undefined): void {
    if (!Array.isArray(v) || v.length === 0) return this.emptyList(v);
    this.rows++;
    for (let i = 0; i < v.length; i++) this.element(i === 0, this.str(v[i]));
  }

  private f64(v: unknown): boolean {
    if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    const b = this.values;
    b.ensure(8);
    b.f64[b.used >> 3] = v;
    b.used += 8;
    this.range(v);
    return true;
  }

  private i32(v: unknown): boolean {
    if (typeof v !== 'number' || !Number.isInteger(v) || Math.abs(v) >= 2 ** 31) return false;
    const b = this.values;
    b.ensure(4);
    b.i32[b.used >> 2] = v;
    b.used += 4;
    this.range(v);
    return true;
  }

  private i64(v: unknown): boolean {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return false;
    const b = this.values;
    const hi = Math.floor(v / 2 ** 32);
    b.ensure(8);
    b.i32[b.used >> 2] = (v - hi * 2 ** 32) | 0;
    b.i32[(b.used >> 2) + 1] = hi;
    b.used += 8;
    this.range(v);
    return true;
  }

  private bool(v: unknown): boolean {
    if (typeof v !== 'boolean') return false;
    this.values.byte(v ? 1 : 0);
    this.bools |= v ? 2 : 1;
    return true;
  }

  private str(v: unknown): boolean {
    if (typeof v !== 'string' && !(v instanceof Uint8Array)) return false;
    const b = this.values;
    b.ensure(4 + (typeof v === 'string' ? v.length * 3 : v.length));
    const at = b.used + 4;
    const n = utf8(b.buf, v, at);
    const buf = b.buf;
    buf[at - 4] = n & 0xff;
    buf[at - 3] = (n >>> 8) & 0xff;
    buf[at - 2] = (n >>> 16) & 0xff;
    buf[at - 1] = n >>> 24;
    b.used = at + n;
    this.lastRef = null;
    this.lastAt = at;
    this.stringRange(at, n);
    return true;
  }

  /**
   * The smallest and the largest string with b[at, at + n): the value is first compared with the
   * prefix all values share (every value between two strings has their common prefix), so a
   * value that keeps it is compared with the two from there on, not from their first byte.
   */
  private stringRange(at: number, n: number): void {
    const buf = this.values.buf;
    const { sLo, sLoLen, sHi, sHiLen, sShared } = this;
    if (sLo < 0) {
      this.setLo(at, n);
      this.setHi(at, n);
      this.sShared = n;
      return;
    }
    const p = diffAt(buf, at, n, sLo, sShared, 0);
    if (p < sShared) {
      // below every value or above every value, and sharing only p bytes with the others
      if (before(buf, at, n, sLo, sShared, p)) this.setLo(at, n);
      else this.setHi(at, n);
      this.sShared = p;
      return;
    }
    // a value between the two keeps their shared prefix as that of all values, and so does a new end that has it
    if (before(buf, at, n, sLo, sLoLen, diffAt(buf, at, n, sLo, sLoLen, p))) this.setLo(at, n);
    else if (before(buf, sHi, sHiLen, at, n, diffAt(buf, at, n, sHi, sHiLen, p))) this.setHi(at, n);
  }

  private setLo(at: number, n: number): void {
    this.sLo = at;
    this.sLoLen = n;
  }

  private setHi(at: number, n: number): void {
    this.sHi = at;
    this.sHiLen = n;
  }

  private range(v: number): void {
    if (v < this.lo) this.lo = v;
    if (v > this.hi) this.hi = v;
  }

  /** Writes the chunk (one page) at the writer's end and forgets its values. */
  write(writer: Writer): ColumnChunk {
    const start = writer.offset;
    const levels = LEVELS;
    levels.index = levels.offset = 0;
    const slots = this.def.used;
    const repLength = this.rep ? writeRleBitPackedHybrid(levels, this.rep.view(), 1) : 0;
    const defLength = writeRleBitPackedHybrid(levels, this.def.view(), this.maxDef === 1 ? 1 : 2);
    let page: Uint8Array = this.values.view();
    if (!LITTLE_ENDIAN && this.type === 'float') this.values.view().swap64();
    if (!LITTLE_ENDIAN && (this.type === 'int' || this.type === 'int32')) this.values.view().swap32();
    if (this.type === 'bool') {
      const rle = new ByteWriter(page.length / 4 + 16);
      rle.appendUint32(0);
      writeRleBitPackedHybrid(rle, page, 1);
      rle.view.setUint32(0, rle.offset - 4, true);
      page = rle.getBytes();
    }
    const encoding = this.type === 'bool' ? 'RLE' : 'PLAIN';
    const compressed = snappyCompress(page);
    writePageHeader(writer, {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: levels.offset + page.length,
      compressed_page_size: levels.offset + compressed.length,
      data_page_header_v2: {
        num_values: slots,
        num_nulls: this.nulls,
        num_rows: this.rows,
        encoding,
        definition_levels_byte_length: defLength,
        repetition_levels_byte_length: repLength,
        is_compressed: true,
      },
    });
    const headerSize = writer.offset - start;
    writer.appendBytes(levels.getBytes());
    writer.appendBytes(compressed);
    const chunk: ColumnChunk = {
      file_offset: BigInt(start),
      meta_data: {
        type: PHYSICAL[this.type],
        encodings: [encoding],
        path_in_schema: [...this.path],
        codec: 'SNAPPY',
        num_values: BigInt(slots),
        total_compressed_size: BigInt(writer.offset - start),
        total_uncompressed_size: BigInt(headerSize + levels.offset + page.length),
        data_page_offset: BigInt(start),
        statistics: this.statistics(),
        encoding_stats: [{ page_type: 'DATA_PAGE_V2', encoding, count: 1 }],
      },
    };
    this.reset();
    return chunk;
  }

  private statistics(): NonNullable<ColumnChunk['meta_data']>['statistics'] {
    const numbers = this.lo <= this.hi;
    const bytes = (at: number, n: number): Uint8Array | undefined =>
      at < 0 ? undefined : Uint8Array.from(this.values.buf.subarray(at, at + n));
    let min: number | Uint8Array | boolean | undefined = numbers
      ? this.lo
      : this.bools !== 0
        ? this.bools === 2
        : bytes(this.sLo, this.sLoLen);
    let max: number | Uint8Array | boolean | undefined = numbers
      ? this.hi
      : this.bools !== 0
        ? this.bools !== 1
        : bytes(this.sHi, this.sHiLen);
    // signed zero as the format asks: min -0, max +0
    if (min === 0) min = -0;
    if (max === 0) max = 0;
    const big = (v: typeof min): typeof min | bigint => (this.type === 'int' && typeof v === 'number' ? BigInt(v) : v);
    return {
      min_value: big(min),
      max_value: big(max),
      null_count: BigInt(this.nulls),
      ...(this.type === 'float' ? { nan_count: 0n } : {}),
    };
  }

  /** Forgets the values gathered since the last page. */
  reset(): void {
    this.def.used = 0;
    if (this.rep) this.rep.used = 0;
    this.values.used = 0;
    this.nulls = this.rows = 0;
    this.lo = Infinity;
    this.hi = -Infinity;
    this.sLo = this.sHi = -1;
    this.lastRef = null;
    this.lastAt = -1;
    this.bools = 0;
  }
}
