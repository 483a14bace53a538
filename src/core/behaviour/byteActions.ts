/**
 * The executed actions of one record as byte ranges of the line the fast reader holds:
 * identical bytes match and different tool names do not, without decoding; only the
 * rest is decoded and given to the canonical matcher. Same answers as `StringActions`
 * over the decoded texts. Reused from record to record (`reset`).
 */
import { toolName } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';
import { ParsedTexts } from './actionSeq';
import type { ActionSeq } from './actionSeq';

const BS = 0x5c;
const DONE = Buffer.from('done', 'latin1');
const SCROLL = Buffer.from('scroll', 'latin1');

/** End of the tool name at `start` (spaces skipped before it: ASCII letters, digits, `_` and `.`, as `toolName`). */
function nameStart(b: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end && b[i] === 0x20) i++;
  return i;
}

function nameEnd(b: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e) i++;
    else break;
  }
  return i;
}

const KIND_DONE = 1;
const KIND_SCROLL = 2;
const KIND_DECODE = 3;
const NOT_POINT = -2;
const UNKNOWN = -1;

/** Set by `intAt`: the number read and where it ends. */
let intValue = 0;
let intEnd = 0;

/** A whole number of at most 9 digits (an optional minus) at `p` into `intValue`, `intEnd`; false when there is none. */
function intAt(b: Buffer, p: number, end: number): boolean {
  let neg = false;
  if (b[p] === 0x2d) {
    neg = true;
    p++;
  }
  const start = p;
  let v = 0;
  while (p < end && b[p]! >= 0x30 && b[p]! <= 0x39 && p - start < 10) v = v * 10 + (b[p++]! - 0x30);
  if (p === start || p - start > 9) return false;
  intValue = neg ? -v : v;
  intEnd = p;
  return true;
}

/** b[s1, e1) and b[s2, e2) hold the same bytes (a loop: the ranges are short, and `Buffer.compare` checks its arguments first). */
function bytesEqual(b: Buffer, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let k = 0; k < e1 - s1; k++) if (b[s1 + k] !== b[s2 + k]) return false;
  return true;
}

function spaces(b: Buffer, p: number, end: number): number {
  while (p < end && b[p] === 0x20) p++;
  return p;
}

const isAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

export class ByteActions implements ActionSeq {
  /**
   * Per action, `name(key=[x, y])` read from the bytes (whole numbers, spaces where the
   * parser allows them): the key's range and x, y; `kEnd` is `NOT_POINT` when the text is
   * anything else, `UNKNOWN` until asked.
   */
  private kStart: Int32Array = new Int32Array(64);
  private kEnd: Int32Array = new Int32Array(64);
  private px: Float64Array = new Float64Array(64);
  /** per action: done, scroll, another name, or a name only the decoded text says */
  private kind: Uint8Array = new Uint8Array(64);
  private py: Float64Array = new Float64Array(64);
  private b: Buffer = Buffer.alloc(0);
  /** per action: the string's content [start, end) in `b` (start -1: no action text) */
  start: Int32Array = new Int32Array(64);
  end: Int32Array = new Int32Array(64);
  /** per action: its tool name's [ns, ne); ne -1: not known from the bytes (an escape) */
  private ns: Int32Array = new Int32Array(64);
  private ne: Int32Array = new Int32Array(64);
  private n = 0;
  private readonly texts: (string | undefined)[] = [];
  private readonly cells: ParsedTexts;

  constructor(private readonly match: MatchOptions) {
    this.cells = new ParsedTexts(match);
  }

  get length(): number {
    return this.n;
  }

  /** Starts a record held in `b`. */
  reset(b: Buffer): void {
    this.b = b;
    this.n = 0;
    this.cells.reset();
  }

  /** The next turn's action: the content of a JSON string at [start, end), or none (start -1). */
  push(start: number, end: number): void {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start;
    this.end[i] = end;
    this.texts[i] = undefined;
    this.kEnd[i] = UNKNOWN;
    this.kind[i] = 0;
    if (start < 0) return;
    const s = nameStart(this.b, start, end);
    const e = nameEnd(this.b, s, end);
    this.ns[i] = s;
    const exact = !(e < end && this.b[e] === BS);
    this.ne[i] = exact ? e : -1;
    this.kind[i] = exact ? (this.isName(s, e, DONE) ? KIND_DONE : this.isName(s, e, SCROLL) ? KIND_SCROLL : 0) : KIND_DECODE;
  }

  private grow(): void {
    const g = (a: Int32Array): Int32Array => {
      const out = new Int32Array(a.length * 2);
      out.set(a);
      return out;
    };
    this.start = g(this.start);
    this.end = g(this.end);
    this.ns = g(this.ns);
    this.ne = g(this.ne);
    this.kStart = g(this.kStart);
    this.kEnd = g(this.kEnd);
    const f = (a: Float64Array): Float64Array => {
      const out = new Float64Array(a.length * 2);
      out.set(a);
      return out;
    };
    this.px = f(this.px);
    const k = new Uint8Array(this.kind.length * 2);
    k.set(this.kind);
    this.kind = k;
    this.py = f(this.py);
  }

  /** Reads `name(key=[x, y])` after the name; false when the action is not one. */
  private point(i: number): boolean {
    const known = this.kEnd[i]!;
    if (known !== UNKNOWN) return known !== NOT_POINT;
    this.kEnd[i] = NOT_POINT;
    const b = this.b;
    const end = this.end[i]!;
    let p = spaces(b, this.ne[i]!, end);
    if (b[p] !== 0x28) return false;
    p = spaces(b, p + 1, end);
    const ks = p;
    if (p >= end || !isAlpha(b[p]!)) return false;
    while (p < end && (isAlpha(b[p]!) || (b[p]! >= 0x30 && b[p]! <= 0x39))) p++;
    const ke = p;
    p = spaces(b, p, end);
    if (b[p] !== 0x3d || b[p + 1] === 0x3d) return false;
    p = spaces(b, p + 1, end);
    if (b[p] !== 0x5b) return false;
    if (!intAt(b, spaces(b, p + 1, end), end)) return false;
    const x = intValue;
    p = spaces(b, intEnd, end);
    if (b[p] !== 0x2c) return false;
    if (!intAt(b, spaces(b, p + 1, end), end)) return false;
    const y = intValue;
    p = spaces(b, intEnd, end);
    if (b[p] !== 0x5d) return false;
    p = spaces(b, p + 1, end);
    if (b[p] !== 0x29 || spaces(b, p + 1, end) !== end) return false;
    this.kStart[i] = ks;
    this.kEnd[i] = ke;
    this.px[i] = x;
    this.py[i] = y;
    return true;
  }

  private text(i: number): string {
    let t = this.texts[i];
    if (t === undefined) {
      const raw = this.b.toString('utf8', this.start[i], this.end[i]);
      t = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      this.texts[i] = t;
    }
    return t;
  }

  private isName(ns: number, ne: number, name: Buffer): boolean {
    if (ne - ns !== name.length) return false;
    for (let k = 0; k < name.length; k++) if (this.b[ns + k] !== name[k]) return false;
    return true;
  }

  private named(i: number, name: Buffer, kind: number): boolean {
    const k = this.kind[i]!;
    return k === KIND_DECODE ? toolName(this.text(i)) === name.toString('latin1') : k === kind;
  }

  isDone(i: number): boolean {
    return this.named(i, DONE, KIND_DONE);
  }

  isScroll(i: number): boolean {
    return this.named(i, SCROLL, KIND_SCROLL);
  }

  same(i: number, j: number): boolean {
    const si = this.start[i]!,
      sj = this.start[j]!;
    if (si < 0 || sj < 0) return false;
    const b = this.b;
    const ei = this.end[i]!,
      ej = this.end[j]!;
    if (bytesEqual(b, si, ei, sj, ej)) return true;
    const ni = this.ne[i]!,
      nj = this.ne[j]!;
    if (ni >= 0 && nj >= 0) {
      const li = ni - this.ns[i]!;
      if (li > 0 && !bytesEqual(b, this.ns[i]!, ni, this.ns[j]!, nj)) return false;
      // the same name, and both `name(key=[x, y])`: the matcher's answer, from the bytes
      if (li > 0 && this.point(i) && this.point(j)) {
        const ks = this.kStart[i]!,
          ke = this.kEnd[i]!;
        if (!bytesEqual(b, ks, ke, this.kStart[j]!, this.kEnd[j]!)) return false;
        const tol = this.match.clickTolerance;
        return Math.abs(this.px[i]! - this.px[j]!) <= tol && Math.abs(this.py[i]! - this.py[j]!) <= tol;
      }
    }
    return this.cells.matches(i, this.text(i), j, this.text(j));
  }
}
