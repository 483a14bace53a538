/**
 * The arguments of an action read from its bytes (the content of a JSON string, still
 * escaped), for the common forms only: keyword or positional arguments whose values are
 * strings (`\"...\"` or `'...'`) whose one escape is their own quote, whole numbers, or flat lists
 * of those.
 * Two such actions are compared as `parsedMatch` compares the parsed ones; whatever this
 * reader cannot decide (another form, keys in another order, text that is not ASCII) is
 * `UNDECIDED`, and the caller decodes the texts.
 */
import { isUtf8 } from 'node:buffer';
import type { MatchOptions } from '../credit/actions';
import { doubled } from './doubled';
import { ByteCursor } from '../log/byteCursor';

export const NO = 0;
export const YES = 1;
export const UNDECIDED = 2;
export type Answer = typeof NO | typeof YES | typeof UNDECIDED;

const BS = 0x5c;
const DQ = 0x22;
const SQ = 0x27;

/** Token kinds; a token is four ints (kind, a, b, c) and one number. */
const ARG = 1; // a: key start (-1: positional), b: key end (positional: its index)
const STR = 2; // a, b: content [a, b); c: its width (0 ASCII, 1 valid UTF-8, 2 not valid UTF-8) | DOUBLE_QUOTED | ESCAPED
const INT = 3; // the number
const LIST = 4; // a: its element count (the elements follow)
const WIDTH = 3;
const DOUBLE_QUOTED = 4;
const ESCAPED = 8;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isIdStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isId = (c: number): boolean => isIdStart(c) || isDigit(c);

/** The tokens of one record's actions, each action's read at most once (`reset` per record). */
export class ByteArgs extends ByteCursor {
  private tok: Int32Array = new Int32Array(256);
  private num: Float64Array = new Float64Array(64);
  private nTok = 0;
  /** per action: its first token (-2: its form is not one of those read here), valid where `readIn` is this record's */
  private first: Int32Array = new Int32Array(64);
  /** per action: its argument count, once read */
  private count: Int32Array = new Int32Array(64);
  /** per action: the record (`gen`) whose action i was read; an action is read when first compared, not when pushed */
  private readIn: Int32Array = new Int32Array(64);
  private gen = 1;
  /** the positional arguments read so far */
  private positional = 0;

  constructor(private readonly match: MatchOptions) {
    super();
  }

  /** A new record in `b`. */
  reset(b: Buffer): void {
    this.b = b;
    this.nTok = 0;
    this.gen = (this.gen + 1) | 0 || 1;
  }

  /**
   * a_i ~ a_j for two actions of the same tool name, or UNDECIDED; each action's arguments start at `from` (just after its name; -1:
   * not a form read here) and its text ends at `end`.
   */
  compare(i: number, fromI: number, endI: number, j: number, fromJ: number, endJ: number): Answer {
    if (!this.read(i, fromI, endI) || !this.read(j, fromJ, endJ)) return UNDECIDED;
    const n = this.count[i]!;
    if (n !== this.count[j]!) return NO;
    let ti = this.first[i]!;
    let tj = this.first[j]!;
    let answer: Answer = YES;
    for (let a = 0; a < n; a++) {
      if (!this.sameKey(ti, tj)) return UNDECIDED;
      const keyArg = this.isKeyArg(ti);
      const v = this.valuesMatch(ti + 4, tj + 4, keyArg);
      if (v === UNDECIDED) return UNDECIDED;
      if (v === NO) answer = NO;
      ti = this.nextToken(ti + 4);
      tj = this.nextToken(tj + 4);
    }
    return answer;
  }

  /** The token after the value at `t`. */
  private nextToken(t: number): number {
    return this.tok[t] === LIST ? t + 4 * (this.tok[t + 1]! + 1) : t + 4;
  }

  private sameKey(ti: number, tj: number): boolean {
    const t = this.tok;
    const si = t[ti + 1]!,
      sj = t[tj + 1]!;
    if (si < 0 || sj < 0) return si === sj && t[ti + 2] === t[tj + 2];
    return this.bytesEqual(si, t[ti + 2]!, sj, t[tj + 2]!);
  }

  private isKeyArg(t: number): boolean {
    const s = this.tok[t + 1]!;
    if (s < 0 || !this.match.keyCaseInsensitive) return false;
    const len = this.tok[t + 2]! - s;
    const b = this.b;
    return b[s] === 0x6b && b[s + 1] === 0x65 && b[s + 2] === 0x79 && (len === 3 || (len === 4 && b[s + 3] === 0x73));
  }

  private valuesMatch(ta: number, tb: number, keyArg: boolean): Answer {
    const t = this.tok;
    const ka = t[ta]!,
      kb = t[tb]!;
    if (ka === LIST && kb === LIST) return this.listsMatch(ta, tb, keyArg);
    if (ka !== kb) return NO;
    if (ka === INT) return this.num[ta >> 2] === this.num[tb >> 2] ? YES : NO;
    const sa = t[ta + 1]!,
      ea = t[ta + 2]!,
      sb = t[tb + 1]!,
      eb = t[tb + 2]!;
    if (this.bytesEqual(sa, ea, sb, eb)) return YES;
    const fa = t[ta + 3]!,
      fb = t[tb + 3]!;
    // a char is written one way in each quote style, not across them: `'` is `\\'` in one and itself in the other
    if (((fa | fb) & ESCAPED) !== 0 && ((fa ^ fb) & DOUBLE_QUOTED) !== 0) return UNDECIDED;
    const wa = fa & WIDTH,
      wb = fb & WIDTH;
    // different valid UTF-8 is different text; a key's case (Unicode) and broken bytes are the parser's
    if (wa === 0 && wb === 0) return keyArg && this.asciiCaseEqual(sa, ea, sb, eb) ? YES : NO;
    return keyArg || wa === 2 || wb === 2 ? UNDECIDED : NO;
  }

  private listsMatch(ta: number, tb: number, keyArg: boolean): Answer {
    const t = this.tok;
    const n = t[ta + 1]!;
    if (n === 2 && t[tb + 1] === 2 && t[ta + 4] === INT && t[ta + 8] === INT && t[tb + 4] === INT && t[tb + 8] === INT) {
      const tol = this.match.clickTolerance;
      const num = this.num;
      return Math.abs(num[(ta + 4) >> 2]! - num[(tb + 4) >> 2]!) <= tol && Math.abs(num[(ta + 8) >> 2]! - num[(tb + 8) >> 2]!) <= tol
        ? YES
        : NO;
    }
    if (n !== t[tb + 1]) return NO;
    let answer: Answer = YES;
    for (let k = 1; k <= n; k++) {
      const v = this.valuesMatch(ta + 4 * k, tb + 4 * k, keyArg);
      if (v === UNDECIDED) return UNDECIDED;
      if (v === NO) answer = NO;
    }
    return answer;
  }

  private bytesEqual(s1: number, e1: number, s2: number, e2: number): boolean {
    if (e1 - s1 !== e2 - s2) return false;
    const b = this.b;
    for (let k = 0; k < e1 - s1; k++) if (b[s1 + k] !== b[s2 + k]) return false;
    return true;
  }

  private asciiCaseEqual(s1: number, e1: number, s2: number, e2: number): boolean {
    if (e1 - s1 !== e2 - s2) return false;
    const b = this.b;
    for (let k = 0; k < e1 - s1; k++) {
      const x = b[s1 + k]!,
        y = b[s2 + k]!;
      if (x !== y && ((x | 0x20) !== (y | 0x20) || (x | 0x20) < 0x61 || (x | 0x20) > 0x7a)) return false;
    }
    return true;
  }

  // ---- reading

  /** Reads action i's tokens once; false when its form is not one read here. */
  private read(i: number, from: number, end: number): boolean {
    if (i >= this.first.length) this.grow(i);
    if (this.readIn[i] === this.gen) return this.first[i]! >= 0;
    this.readIn[i] = this.gen;
    this.first[i] = -2;
    if (from < 0) return false;
    const start = this.nTok;
    this.p = from;
    this.end = end;
    this.positional = 0;
    const n = this.args();
    if (n < 0 || this.hasDuplicateKey(start, n)) {
      this.nTok = start;
      return false;
    }
    this.first[i] = start;
    this.count[i] = n;
    return true;
  }

  private grow(i: number): void {
    while (i >= this.first.length) {
      this.first = doubled(this.first);
      this.count = doubled(this.count);
      this.readIn = doubled(this.readIn);
    }
  }

  /** `( arg, ... )` then nothing but spaces: the argument count, or -1. */
  private args(): number {
    this.spaces();
    if (this.p >= this.end || this.b[this.p] !== 0x28) return -1;
    this.p++;
    const n = this.items(0x29, true);
    this.spaces();
    return n >= 0 && this.p === this.end ? n : -1;
  }

  /**
   * Items up to `close` (just after an opening bracket), commas between, one after the last
   * allowed: arguments (`args`) or a list's values; their count, or -1.
   */
  private items(close: number, args: boolean): number {
    this.spaces();
    if (this.peek() === close) {
      this.p++;
      return 0;
    }
    for (let n = 1; ; n++) {
      if (!(args ? this.arg() : this.value(false))) return -1;
      this.spaces();
      const c = this.peek();
      if (c === close) {
        this.p++;
        return n;
      }
      if (c !== 0x2c) return -1;
      this.p++;
      this.spaces();
      if (this.peek() === close) {
        this.p++;
        return n;
      }
    }
  }

  private spaces(): void {
    while (this.p < this.end && this.b[this.p] === 0x20) this.p++;
  }

  /** `key = value` or a positional `value`. */
  private arg(): boolean {
    const b = this.b;
    let ks = -1;
    let ke = this.positional;
    if (this.p < this.end && isIdStart(b[this.p]!)) {
      const s = this.p;
      let q = s + 1;
      while (q < this.end && isId(b[q]!)) q++;
      let r = q;
      while (r < this.end && b[r] === 0x20) r++;
      // a bare word as a value (True, None, down) is a form this reader leaves to the parser
      if (r >= this.end || b[r] !== 0x3d || b[r + 1] === 0x3d) return false;
      ks = s;
      ke = q;
      this.p = r + 1;
      this.spaces();
    } else this.positional++;
    this.push(ARG, ks, ke, 0);
    return this.value(true);
  }

  /** A string, a whole number, or (when `list` is allowed) a flat list or tuple of those. */
  private value(list: boolean): boolean {
    const c = this.peek();
    if (c === BS || c === SQ) return this.string();
    if (c === 0x2d || isDigit(c)) return this.int();
    if (list && (c === 0x5b || c === 0x28)) return this.list(c === 0x5b ? 0x5d : 0x29);
    return false;
  }

  private list(close: number): boolean {
    const at = this.nTok;
    this.push(LIST, 0, 0, 0);
    this.p++;
    const n = this.items(close, false);
    this.tok[at + 1] = n;
    return n >= 0;
  }

  /** `\"...\"` (a JSON-escaped double quote) or `'...'`, no other backslash inside. */
  private string(): boolean {
    const b = this.b;
    const dq = b[this.p] === BS;
    if (dq && b[this.p + 1] !== DQ) return false;
    this.p += dq ? 2 : 1;
    const s = this.p;
    let wide = false;
    let escaped = 0;
    while (this.p < this.end) {
      const c = b[this.p]!;
      if (c === BS) {
        // the one escape read here: the string's own quote, `\\\"` (`\"` in the action) or `\\'`, each char written one way only
        if (dq && b[this.p + 1] === BS && b[this.p + 2] === BS && b[this.p + 3] === DQ) {
          this.p += 4;
          escaped = ESCAPED;
          continue;
        }
        if (!dq && b[this.p + 1] === BS && b[this.p + 2] === SQ) {
          this.p += 3;
          escaped = ESCAPED;
          continue;
        }
        if (!dq || b[this.p + 1] !== DQ) return false;
        this.push(STR, s, this.p, this.width(s, this.p, wide) | DOUBLE_QUOTED | escaped);
        this.p += 2;
        return true;
      }
      if (!dq && c === SQ) {
        this.push(STR, s, this.p, this.width(s, this.p, wide) | escaped);
        this.p++;
        return true;
      }
      if (c >= 0x80) wide = true;
      this.p++;
    }
    return false;
  }

  /** 0: ASCII, 1: valid UTF-8, 2: not (decoded, its bytes would become U+FFFD: different bytes, maybe the same text) */
  private width(s: number, e: number, wide: boolean): number {
    if (!wide) return 0;
    return isUtf8(this.b.subarray(s, e)) ? 1 : 2;
  }

  /** At most 15 digits after an optional minus, not followed by a fraction or an exponent. */
  private int(): boolean {
    const b = this.b;
    let p = this.p;
    const neg = b[p] === 0x2d;
    if (neg) p++;
    const s = p;
    let v = 0;
    while (p < this.end && isDigit(b[p]!)) v = v * 10 + (b[p++]! - 0x30);
    if (p === s || p - s > 15) return false;
    const c = p < this.end ? b[p]! : -1;
    if (c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) return false;
    this.p = p;
    const at = this.nTok;
    this.push(INT, 0, 0, 0);
    this.num[at >> 2] = neg ? -v : v;
    return true;
  }

  private push(kind: number, a: number, b: number, c: number): void {
    if (this.nTok + 4 > this.tok.length) {
      this.tok = doubled(this.tok);
      this.num = doubled(this.num);
    }
    const t = this.tok;
    const at = this.nTok;
    t[at] = kind;
    t[at + 1] = a;
    t[at + 2] = b;
    t[at + 3] = c;
    this.nTok += 4;
  }

  /** Two keyword arguments of one action with the same key: the parser keeps the last, a form left to it. */
  private hasDuplicateKey(start: number, n: number): boolean {
    if (n < 2) return false;
    const keys: number[] = [];
    let t = start;
    for (let a = 0; a < n; a++) {
      if (this.tok[t + 1]! >= 0) {
        for (const k of keys) if (this.sameKey(k, t)) return true;
        keys.push(t);
      }
      t = this.nextToken(t + 4);
    }
    return false;
  }
}
