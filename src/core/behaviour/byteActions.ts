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
import { DONE_KEY, NO_KEY, SCROLL_KEY, nameNumber } from './actionSeq';

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

/** b[s1, e1) and b[s2, e2) hold the same bytes (a loop: the ranges are short, and `Buffer.compare` checks its arguments first). */
function bytesEqual(b: Buffer, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let k = 0; k < e1 - s1; k++) if (b[s1 + k] !== b[s2 + k]) return false;
  return true;
}

const isIdStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;

export class ByteActions implements ActionSeq {
  /** per action: done, scroll, another name, or a name only the decoded text says */
  private kind: Uint8Array = new Uint8Array(64);
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
    this.cells.reset();
    this.args.reset(b);
  }

  /** The next turn's action: the content of a JSON string at [start, end), or none (start -1). */
  push(start: number, end: number): void {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start;
    this.end[i] = end;
    this.texts[i] = undefined;
    this.kind[i] = 0;
    if (start < 0) return this.args.set(i, -1, end);
    const s = nameStart(this.b, start, end);
    const e = nameEnd(this.b, s, end);
    this.ns[i] = s;
    const exact = !(e < end && this.b[e] === BS);
    this.ne[i] = exact ? e : -1;
    this.kind[i] = exact ? (this.isName(s, e, DONE) ? KIND_DONE : this.isName(s, e, SCROLL) ? KIND_SCROLL : 0) : KIND_DECODE;
    // the parser's names start with a letter or `_`
    this.args.set(i, exact && e > s && isIdStart(this.b[s]!) ? e : -1, end);
  }

  private grow(): void {
    this.start = doubled(this.start);
    this.end = doubled(this.end);
    this.ns = doubled(this.ns);
    this.ne = doubled(this.ne);
    this.kind = doubled(this.kind);
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

  key(i: number): number {
    const k = this.kind[i]!;
    if (k === KIND_DONE) return DONE_KEY;
    if (k === KIND_SCROLL) return SCROLL_KEY;
    if (this.start[i]! < 0) return NO_KEY;
    if (k === KIND_DECODE) {
      const name = toolName(this.text(i));
      return name === 'done' ? DONE_KEY : name === 'scroll' ? SCROLL_KEY : NO_KEY;
    }
    const s = this.ns[i]!,
      e = this.ne[i]!;
    return e === s ? NO_KEY : nameNumber(this.b, s, e);
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
      // the same name, both in a common form: the matcher's answer, from the bytes
      if (li > 0) {
        const r = this.args.compare(i, j);
        if (r !== UNDECIDED) return r === YES;
      }
    }
    return this.cells.matches(i, this.text(i), j, this.text(j));
  }
}
