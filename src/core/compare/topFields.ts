/**
 * Reads, from one credit-log record's bytes, only the top-level fields the comparison
 * needs that the index does not keep: the raw iteration (is it a whole number?) and the
 * task key (`task_id`, else `instruction`). Keys are resolved like the record
 * normaliser does (mapped name, reference name, aliases, in that priority); the reading
 * stops as soon as the top-priority names of both fields were met, so on the usual key
 * order (`iteration`, `group`, `rollout`, `task_id`, ...) it never walks the turns.
 */
import type { SchemaTables } from '../record/schema';
import { parseTolerant } from '../log/tolerantJson';

/** What the comparison reads of one record. */
export interface TopFields {
  /** the iteration when it is a whole number, else NaN */
  iteration: number;
  /** `task_id`, else `instruction`; null when neither is there */
  task: string | null;
}

type Wanted = 'iteration' | 'task_id' | 'instruction';
const WANTED: readonly Wanted[] = ['iteration', 'task_id', 'instruction'];

interface Name {
  slot: number;
  rank: number;
  bytes: Buffer;
}

class ScanError extends Error {}

const Q = 0x22,
  BS = 0x5c,
  LB = 0x7b,
  RB = 0x7d,
  LS = 0x5b,
  RS = 0x5d,
  COMMA = 0x2c,
  COLON = 0x3a;

const isWs = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** A whole-number iteration from a parsed value (numbers and digit strings, as the normaliser reads them), else NaN. */
export function wholeIteration(v: unknown): number {
  const n = typeof v === 'string' ? (/^-?\d+$/.test(v.trim()) ? Number(v) : NaN) : typeof v === 'number' ? v : NaN;
  return Number.isSafeInteger(n) ? n : NaN;
}

/** A task key from a parsed value, as the normaliser shows it; null, absent and "" are no key. */
export function taskKey(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s === '' ? null : s;
}

export class TopFieldReader {
  private readonly names: Name[] = [];
  private b: Buffer = Buffer.alloc(0);
  private p = 0;
  private end = 0;

  constructor(private readonly tables: SchemaTables) {
    const t = tables.trajectory;
    for (const [name, field] of t.byName) {
      const slot = WANTED.indexOf(field as Wanted);
      if (slot >= 0) this.names.push({ slot, rank: t.names.get(field)!.indexOf(name), bytes: Buffer.from(name, 'utf8') });
    }
  }

  /** Reads buf[start, end); falls back to `JSON.parse` on anything the byte reader does not expect. */
  read(buf: Buffer, start: number, end: number): TopFields {
    try {
      return this.scan(buf, start, end);
    } catch {
      return this.slow(buf.toString('utf8', start, end));
    }
  }

  private slow(text: string): TopFields {
    let obj: unknown;
    try {
      obj = parseTolerant(text);
    } catch {
      return { iteration: NaN, task: null };
    }
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return { iteration: NaN, task: null };
    const o = obj as Record<string, unknown>;
    const first = (field: Wanted): unknown => {
      for (const n of this.tables.trajectory.names.get(field) ?? [])
        if (this.tables.trajectory.byName.get(n) === field && n in o) return o[n];
      return undefined;
    };
    return { iteration: wholeIteration(first('iteration')), task: taskKey(first('task_id')) ?? taskKey(first('instruction')) };
  }

  private scan(buf: Buffer, start: number, end: number): TopFields {
    this.b = buf;
    this.p = start;
    this.end = end;
    const rank = [Infinity, Infinity, Infinity];
    const values: [number, number][] = [
      [0, 0],
      [0, 0],
      [0, 0],
    ];
    this.ws();
    if (buf[this.p] !== LB) throw new ScanError('not an object');
    this.p++;
    this.ws();
    if (buf[this.p] !== RB) {
      for (;;) {
        this.ws();
        if (buf[this.p] !== Q) throw new ScanError('expected a key');
        const ks = this.p + 1;
        const ke = this.stringEnd(this.p);
        for (let i = ks; i < ke; i++) if (buf[i] === BS) throw new ScanError('escaped key');
        this.p = ke + 1;
        this.ws();
        if (buf[this.p] !== COLON) throw new ScanError('expected :');
        this.p++;
        this.ws();
        const vs = this.p;
        this.skipValue();
        const name = this.lookup(ks, ke);
        if (name && name.rank < rank[name.slot]!) {
          rank[name.slot] = name.rank;
          values[name.slot] = [vs, this.p];
          if (rank[0] === 0 && rank[1] === 0 && !this.noKey(values[1]![0], values[1]![1])) break;
        }
        this.ws();
        const ch = buf[this.p++];
        if (ch === COMMA) continue;
        if (ch === RB) break;
        throw new ScanError('expected , or }');
      }
    }
    const iteration = rank[0] === Infinity ? NaN : this.iterationAt(values[0]![0], values[0]![1]);
    const task =
      (rank[1] === Infinity ? null : this.keyAt(values[1]![0], values[1]![1])) ??
      (rank[2] === Infinity ? null : this.keyAt(values[2]![0], values[2]![1]));
    return { iteration, task };
  }

  /** `""` or `null`: a task_id that names no task, so the instruction is still wanted */
  private noKey(s: number, e: number): boolean {
    const b = this.b;
    return (e - s === 2 && b[s] === Q) || (e - s === 4 && b[s] === 0x6e);
  }

  private lookup(ks: number, ke: number): Name | undefined {
    const b = this.b;
    const len = ke - ks;
    outer: for (const n of this.names) {
      if (n.bytes.length !== len) continue;
      for (let i = 0; i < len; i++) if (n.bytes[i] !== b[ks + i]) continue outer;
      return n;
    }
    return undefined;
  }

  private iterationAt(s: number, e: number): number {
    const b = this.b;
    let v = 0;
    let i = s;
    const neg = b[i] === 0x2d;
    if (neg) i++;
    if (e - i > 0 && e - i < 16) {
      for (; i < e; i++) {
        const c = b[i]!;
        if (c < 0x30 || c > 0x39) break;
        v = v * 10 + (c - 0x30);
      }
      if (i === e) return neg ? -v : v;
    }
    return wholeIteration(this.parsed(s, e));
  }

  private keyAt(s: number, e: number): string | null {
    const b = this.b;
    if (b[s] === Q) {
      const text = b.toString('utf8', s + 1, e - 1);
      if (!text.includes('\\')) return text === '' ? null : text;
    }
    return taskKey(this.parsed(s, e));
  }

  private parsed(s: number, e: number): unknown {
    try {
      return parseTolerant(this.b.toString('utf8', s, e));
    } catch {
      return undefined;
    }
  }

  private ws(): void {
    while (this.p < this.end && isWs(this.b[this.p])) this.p++;
  }

  /** Index of the quote that closes the string opening at `open`. */
  private stringEnd(open: number): number {
    let q = open;
    for (;;) {
      q = this.b.indexOf(Q, q + 1);
      if (q < 0 || q >= this.end) throw new ScanError('unterminated string');
      let bs = 0;
      while (this.b[q - 1 - bs] === BS) bs++;
      if (bs % 2 === 0) return q;
    }
  }

  private skipValue(): void {
    const b = this.b;
    const c = b[this.p];
    if (c === Q) {
      this.p = this.stringEnd(this.p) + 1;
      return;
    }
    if (c === LB || c === LS) {
      let depth = 0;
      while (this.p < this.end) {
        const x = b[this.p]!;
        if (x === Q) {
          this.p = this.stringEnd(this.p) + 1;
          continue;
        }
        if (x === LB || x === LS) depth++;
        else if (x === RB || x === RS) {
          depth--;
          if (depth === 0) {
            this.p++;
            return;
          }
        }
        this.p++;
      }
      throw new ScanError('unterminated value');
    }
    const s = this.p;
    while (this.p < this.end) {
      const x = b[this.p]!;
      if (x === COMMA || x === RB || x === RS || isWs(x)) break;
      this.p++;
    }
    if (this.p === s) throw new ScanError('expected a value');
  }
}
