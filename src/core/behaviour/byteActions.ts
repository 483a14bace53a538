/**
 * The executed actions of one record as byte ranges of the line the fast reader holds:
 * identical bytes match and different tool names do not, without decoding; only the
 * rest is decoded and given to the canonical matcher. Same answers as `StringActions`
 * over the decoded texts. Reused from record to record (`reset`).
 */
import { toolName } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';
import { ParsedTexts } from './actionSeq';
import { ByteArgs, UNDECIDED, YES } from './byteArgs';
import { doubled } from './doubled';
import type { ActionSeq } from './actionSeq';
import { DONE_KEY, NO_KEY, SCROLL_KEY } from './actionSeq';

const BS = 0x5c;
const DONE = Buffer.from('done', 'latin1');
const SCROLL = Buffer.from('scroll', 'latin1');

/** A key that only the decoded text can give (the name holds an escape). */
const DECODE_KEY = -4;

/** 1 for a byte of a tool name (`[0-9A-Za-z_.]`): a table, since every action's name is read as it is pushed */
const NAME_BYTE = new Uint8Array(256);
for (let c = 0; c < 256; c++)
  NAME_BYTE[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e ? 1 : 0;

/** b[s1, e1) and b[s2, e2) hold the same bytes (a loop: the ranges are short, and `Buffer.compare` checks its arguments first). */
function bytesEqual(b: Buffer, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let k = 0; k < e1 - s1; k++) if (b[s1 + k] !== b[s2 + k]) return false;
  return true;
}

const isIdStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

export class ByteActions implements ActionSeq {
  private b: Buffer = Buffer.alloc(0);
  /** per action: the string's content [start, end) in `b` (start -1: no action text) */
  start: Int32Array = new Int32Array(64);
  end: Int32Array = new Int32Array(64);
  /** per action: its tool name's [ns, ne); ne -1: not known from the bytes (an escape) */
  private ns: Int32Array = new Int32Array(64);
  private ne: Int32Array = new Int32Array(64);
  /** per action: `ActionSeq.key`, or DECODE_KEY */
  private keys: Int32Array = new Int32Array(64);
  private n = 0;
  private readonly texts: (string | undefined)[] = [];
  /** whether a text was decoded since the last reset */
  private decoded = false;
  private readonly cells: ParsedTexts;
  /** the arguments of the common forms, compared without decoding */
  private readonly args: ByteArgs;

  constructor(match: MatchOptions) {
    this.cells = new ParsedTexts(match);
    this.args = new ByteArgs(match);
  }

  get length(): number {
    return this.n;
  }

  /** Starts a record held in `b`. */
  reset(b: Buffer): void {
    this.b = b;
    this.n = 0;
    if (this.decoded) {
      this.decoded = false;
      this.texts.length = 0;
    }
    this.cells.reset();
    this.args.reset(b);
  }

  /** The next turn's action: the content of a JSON string at [start, end), or none (start -1); its name read and numbered in one pass. */
  push(start: number, end: number): void {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start;
    this.end[i] = end;
    if (start < 0) {
      this.keys[i] = NO_KEY;
      this.ne[i] = -1;
      return;
    }
    const b = this.b;
    let s = start;
    while (s < end && b[s] === 0x20) s++;
    let e = s;
    let h = 0;
    for (; e < end; e++) {
      const c = b[e]!;
      if (NAME_BYTE[c] === 0) break;
      h = (Math.imul(h, 31) + c) | 0;
    }
    this.ns[i] = s;
    if (e < end && b[e] === BS) {
      this.ne[i] = -1;
      this.keys[i] = DECODE_KEY;
      return;
    }
    this.ne[i] = e;
    const len = e - s;
    this.keys[i] =
      len === 0 ? NO_KEY : len === 4 && this.isName(s, DONE) ? DONE_KEY : len === 6 && this.isName(s, SCROLL) ? SCROLL_KEY : h >>> 1;
  }

  private grow(): void {
    this.start = doubled(this.start);
    this.end = doubled(this.end);
    this.ns = doubled(this.ns);
    this.ne = doubled(this.ne);
    this.keys = doubled(this.keys);
  }

  /** Action i's text (null: none), decoded as JSON.parse would. */
  action(i: number): string | null {
    return this.start[i]! < 0 ? null : this.text(i);
  }

  private text(i: number): string {
    let t = this.texts[i];
    if (t === undefined) {
      const raw = this.b.toString('utf8', this.start[i], this.end[i]);
      t = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
      this.texts[i] = t;
      this.decoded = true;
    }
    return t;
  }

  /** b[ns, ns + name.length) is `name` (the length already checked). */
  private isName(ns: number, name: Buffer): boolean {
    for (let k = 0; k < name.length; k++) if (this.b[ns + k] !== name[k]) return false;
    return true;
  }

  key(i: number): number {
    const k = this.keys[i]!;
    if (k !== DECODE_KEY) return k;
    const name = toolName(this.text(i));
    return name === 'done' ? DONE_KEY : name === 'scroll' ? SCROLL_KEY : NO_KEY;
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
      // the same name, both in a common form: the matcher's answer, from the bytes (the parser's names start with a letter or `_`)
      if (li > 0 && isIdStart(b[this.ns[i]!]!)) {
        const r = this.args.compare(i, ni, ei, j, nj, ej);
        if (r !== UNDECIDED) return r === YES;
      }
    }
    return this.cells.matches(i, this.text(i), j, this.text(j));
  }
}
