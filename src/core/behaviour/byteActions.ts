/**
 * The executed actions of one record as byte ranges of the line the fast reader holds:
 * identical bytes match and different tool names do not, without decoding; only the
 * rest is decoded and given to the canonical matcher. Same answers as `StringActions`
 * over the decoded texts. Reused from record to record (`reset`).
 */
import { ActionMatcher, toolName } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';
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

export class ByteActions implements ActionSeq {
  private b: Buffer = Buffer.alloc(0);
  /** per action: the string's content [start, end) in `b` (start -1: no action text) */
  start: Int32Array = new Int32Array(64);
  end: Int32Array = new Int32Array(64);
  /** per action: its tool name's [ns, ne); ne -1: not known from the bytes (an escape) */
  private ns: Int32Array = new Int32Array(64);
  private ne: Int32Array = new Int32Array(64);
  private n = 0;
  private readonly texts: (string | undefined)[] = [];
  private readonly matchers: (ActionMatcher | undefined)[] = [];

  constructor(private readonly match: MatchOptions) {}

  get length(): number {
    return this.n;
  }

  /** Starts a record held in `b`. */
  reset(b: Buffer): void {
    this.b = b;
    this.n = 0;
  }

  /** The next turn's action: the content of a JSON string at [start, end), or none (start -1). */
  push(start: number, end: number): void {
    const i = this.n++;
    if (i === this.start.length) this.grow();
    this.start[i] = start;
    this.end[i] = end;
    this.texts[i] = undefined;
    this.matchers[i] = undefined;
    if (start < 0) return;
    const s = nameStart(this.b, start, end);
    const e = nameEnd(this.b, s, end);
    this.ns[i] = s;
    this.ne[i] = e < end && this.b[e] === BS ? -1 : e;
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

  private named(i: number, name: Buffer): boolean {
    if (this.start[i]! < 0) return false;
    const ne = this.ne[i]!;
    if (ne < 0) return toolName(this.text(i)) === name.toString('latin1');
    const ns = this.ns[i]!;
    return ne - ns === name.length && this.b.compare(name, 0, name.length, ns, ne) === 0;
  }

  isDone(i: number): boolean {
    return this.named(i, DONE);
  }

  isScroll(i: number): boolean {
    return this.named(i, SCROLL);
  }

  same(i: number, j: number): boolean {
    const si = this.start[i]!,
      sj = this.start[j]!;
    if (si < 0 || sj < 0) return false;
    const b = this.b;
    const ei = this.end[i]!,
      ej = this.end[j]!;
    if (ei - si === ej - sj && b.compare(b, si, ei, sj, ej) === 0) return true;
    const ni = this.ne[i]!,
      nj = this.ne[j]!;
    if (ni >= 0 && nj >= 0) {
      const li = ni - this.ns[i]!;
      if (li > 0 && (li !== nj - this.ns[j]! || b.compare(b, this.ns[i], ni, this.ns[j], nj) !== 0)) return false;
    }
    return (this.matchers[i] ??= new ActionMatcher(this.text(i), this.match)).matches(this.text(j));
  }
}
