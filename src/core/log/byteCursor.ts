/**
 * The reading position in one JSON line held as bytes, with the moves every byte-level
 * reader of a record makes (white space, one character, a string's end). A reader that
 * meets what it does not expect throws `ScanError`; its caller then reads the line the
 * slow way, which defines the semantics.
 */

/** The byte reader met something it does not read; the slow path decides. */
export class ScanError extends Error {}

export const Q = 0x22,
  BS = 0x5c,
  LB = 0x7b,
  RB = 0x7d,
  LS = 0x5b,
  RS = 0x5d,
  COMMA = 0x2c,
  COLON = 0x3a;

/** bytes of a string looked at one by one before `indexOf` takes over */
const SHORT_STRING = 64;

export class ByteCursor {
  protected b: Buffer = Buffer.alloc(0);
  protected p = 0;
  protected end = 0;

  /** Reads buf[start, end) from its start. */
  protected at(buf: Buffer, start: number, end: number): void {
    this.b = buf;
    this.p = start;
    this.end = end;
  }

  /** Past JSON's white space. */
  protected ws(): void {
    const b = this.b;
    const end = this.end;
    let p = this.p;
    while (p < end) {
      const c = b[p];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) p++;
      else break;
    }
    this.p = p;
  }

  /** The byte at the position, -1 at the end. */
  protected peek(): number {
    return this.p < this.end ? this.b[this.p]! : -1;
  }

  protected next(): number {
    if (this.p >= this.end) throw new ScanError('unexpected end of line');
    return this.b[this.p++]!;
  }

  protected expect(ch: number): void {
    if (this.b[this.p] !== ch || this.p >= this.end) throw new ScanError(`expected ${String.fromCharCode(ch)}`);
    this.p++;
  }

  /**
   * Index of the quote that closes the string whose opening quote is at `open`. A record's
   * strings are mostly short: their first bytes are looked at here, an escape stepped over,
   * and only a longer string costs a call of `indexOf` (whose own cost is that of some
   * sixty bytes looked at in a loop).
   */
  protected stringEnd(open: number): number {
    const b = this.b;
    const stop = Math.min(this.end, open + 1 + SHORT_STRING);
    let p = open + 1;
    while (p < stop) {
      const c = b[p]!;
      if (c === Q) return p;
      p += c === BS ? 2 : 1;
    }
    // an escape's second byte may be past `stop`: the search goes on from the last byte looked at
    let q = Math.min(p, stop) - 1;
    if (q < open) q = open;
    for (;;) {
      q = b.indexOf(Q, q + 1);
      if (q < 0 || q >= this.end) throw new ScanError('unterminated string');
      let n = 0;
      let k = q - 1;
      while (b[k] === BS) {
        n++;
        k--;
      }
      if ((n & 1) === 0) return q;
    }
  }
}
