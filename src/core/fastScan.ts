/**
 * A byte-level reader of one credit-log record that decodes only what the index
 * needs: it skips string values with `Buffer.indexOf` and never builds the record's
 * object tree. Anything it does not expect makes it throw; the caller then falls
 * back to `JSON.parse` and `normaliseRecord`, which define the semantics.
 */
import type { KeyTable, SchemaObserver, SchemaTables, TrajectoryField, TurnField } from './schema';
import { MISSING_ITERATION } from './trajectory';
import type { TrajectoryCore, TurnCore } from './trajectory';

class ScanError extends Error {}

interface KeyEntry<F> {
  field: F;
  name: string;
  rank: number;
  count: number;
}

const TOP_SLOTS: readonly TrajectoryField[] = ['iteration', 'group', 'rollout', 'task_id', 'instruction', 'reward', 'A', 'labeled', 'turns'];
const TURN_SLOTS: readonly TurnField[] = ['action', 'candidates', 'scores', 'same', 'done', 'c', 'A_t', 'masked', 'fallback'];
const REQUIRED_TOP_MASK = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 5) | (1 << 6) | (1 << 8);

function entries<F extends string>(table: KeyTable<F>): Map<string, KeyEntry<F>> {
  const out = new Map<string, KeyEntry<F>>();
  for (const [name, field] of table.byName) {
    out.set(name, { field, name, rank: table.names.get(field)!.indexOf(name), count: 0 });
  }
  return out;
}

const Q = 0x22, BS = 0x5c, LB = 0x7b, RB = 0x7d, LS = 0x5b, RS = 0x5d, COMMA = 0x2c, COLON = 0x3a;

export class FastScanner {
  private readonly top: Map<string, KeyEntry<TrajectoryField>>;
  private readonly turn: Map<string, KeyEntry<TurnField>>;
  private readonly topSlot: Map<TrajectoryField, number>;
  private readonly turnSlot: Map<TurnField, number>;
  private readonly unknownTop = new Map<string, number>();
  private readonly unknownTurn = new Map<string, number>();
  private records = 0;
  private turns = 0;
  private b: Buffer = Buffer.alloc(0);
  private p = 0;
  private end = 0;

  constructor(tables: SchemaTables) {
    this.top = entries(tables.trajectory);
    this.turn = entries(tables.turn);
    this.topSlot = new Map(TOP_SLOTS.map((f, i) => [f, i]));
    this.turnSlot = new Map(TURN_SLOTS.map((f, i) => [f, i]));
  }

  /** Reads the record in buf[start, end); throws when the text is not what it expects. */
  scan(buf: Buffer, start: number, end: number): TrajectoryCore {
    this.b = buf; this.p = start; this.end = end;
    const chosen: (KeyEntry<TrajectoryField> | undefined)[] = new Array(TOP_SLOTS.length);
    const t: TrajectoryCore = { iteration: MISSING_ITERATION, group: -1, rollout: -1, reward: NaN, A: NaN, labeled: undefined, turns: [], missing: 0 };
    const unknown: string[] = [];
    this.ws();
    this.expect(LB);
    this.ws();
    if (this.peek() !== RB) {
      for (;;) {
        this.ws();
        const key = this.key();
        this.ws();
        this.expect(COLON);
        this.ws();
        const e = this.top.get(key);
        if (e === undefined) {
          unknown.push(key);
          this.skipValue();
        } else {
          const slot = this.topSlot.get(e.field)!;
          const prev = chosen[slot];
          if (prev !== undefined && prev.rank < e.rank) { this.skipValue(); }
          else {
            chosen[slot] = e;
            switch (e.field) {
              case 'iteration': t.iteration = this.intOr(MISSING_ITERATION); break;
              case 'group': t.group = this.intOr(-1); break;
              case 'rollout': t.rollout = this.intOr(-1); break;
              case 'reward': t.reward = this.numOrNaN(); break;
              case 'A': t.A = this.numOrNaN(); break;
              case 'labeled': t.labeled = this.boolish(); break;
              case 'turns': t.turns = this.turnsArray(); break;
              default: this.skipValue();
            }
          }
        }
        this.ws();
        const ch = this.next();
        if (ch === COMMA) continue;
        if (ch === RB) break;
        throw new ScanError('expected , or }');
      }
    } else {
      this.p++;
    }
    this.ws();
    if (this.p !== this.end) throw new ScanError('text after the record');
    let have = 0;
    for (let i = 0; i < chosen.length; i++) {
      const e = chosen[i];
      if (e) { e.count++; have |= 1 << i; }
    }
    for (const k of unknown) this.unknownTop.set(k, (this.unknownTop.get(k) ?? 0) + 1);
    let missing = 0;
    for (let i = 0; i < TOP_SLOTS.length; i++) if ((REQUIRED_TOP_MASK & (1 << i)) !== 0 && (have & (1 << i)) === 0) missing++;
    t.missing = missing;
    this.records++;
    this.turns += t.turns.length;
    return t;
  }

  /** Moves what was met since the last flush into the observer. */
  flushInto(obs: SchemaObserver): void {
    for (const e of this.top.values()) if (e.count > 0) { bumpBy(obs.trajectoryNames, e.field, e.name, e.count); e.count = 0; }
    for (const e of this.turn.values()) if (e.count > 0) { bumpBy(obs.turnNames, e.field, e.name, e.count); e.count = 0; }
    for (const [k, n] of this.unknownTop) { for (let i = 0; i < n; i++) obs.seeUnknown('trajectory', k); }
    for (const [k, n] of this.unknownTurn) { for (let i = 0; i < n; i++) obs.seeUnknown('turn', k); }
    this.unknownTop.clear(); this.unknownTurn.clear();
    obs.records += this.records; obs.turns += this.turns;
    this.records = 0; this.turns = 0;
  }

  // ---- turns

  private turnsArray(): TurnCore[] {
    const out: TurnCore[] = [];
    this.expect(LS);
    this.ws();
    if (this.peek() === RS) { this.p++; return out; }
    for (;;) {
      this.ws();
      out.push(this.turnObject());
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  private turnObject(): TurnCore {
    const t: TurnCore = { scores: null, same: null, done: null, candidates: null, c: undefined, At: undefined, masked: false, fallback: false };
    const chosen: (KeyEntry<TurnField> | undefined)[] = new Array(TURN_SLOTS.length);
    this.expect(LB);
    this.ws();
    if (this.peek() === RB) { this.p++; return t; }
    for (;;) {
      this.ws();
      const key = this.key();
      this.ws();
      this.expect(COLON);
      this.ws();
      const e = this.turn.get(key);
      if (e === undefined) {
        this.unknownTurn.set(key, (this.unknownTurn.get(key) ?? 0) + 1);
        this.skipValue();
      } else {
        const slot = this.turnSlot.get(e.field)!;
        const prev = chosen[slot];
        if (prev !== undefined && prev.rank < e.rank) this.skipValue();
        else {
          chosen[slot] = e;
          switch (e.field) {
            case 'scores': t.scores = this.numArray(); break;
            case 'same': t.same = this.boolArray(); break;
            case 'done': t.done = this.boolArray(); break;
            case 'candidates': t.candidates = this.strArray(); break;
            case 'c': t.c = this.numOrNull(); break;
            case 'A_t': { const v = this.numOrNull(); t.At = v === null ? undefined : v; break; }
            case 'masked': t.masked = this.boolish() === true; break;
            case 'fallback': t.fallback = this.boolish() === true; break;
            default: this.skipValue();
          }
        }
      }
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RB) break;
      throw new ScanError('expected , or }');
    }
    for (const e of chosen) if (e) e.count++;
    return t;
  }

  // ---- values

  private numArray(): (number | null)[] | null {
    if (this.peek() !== LS) { this.skipValue(); return null; }
    this.p++;
    const out: (number | null)[] = [];
    this.ws();
    if (this.peek() === RS) { this.p++; return out; }
    for (;;) {
      this.ws();
      const v = this.numOrNull();
      out.push(v === null || !Number.isFinite(v) ? null : v);
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  private boolArray(): boolean[] | null {
    if (this.peek() !== LS) { this.skipValue(); return null; }
    this.p++;
    const out: boolean[] = [];
    this.ws();
    if (this.peek() === RS) { this.p++; return out; }
    for (;;) {
      this.ws();
      out.push(this.boolish() === true);
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  private strArray(): string[] | null {
    if (this.peek() !== LS) { this.skipValue(); return null; }
    this.p++;
    const out: string[] = [];
    this.ws();
    if (this.peek() === RS) { this.p++; return out; }
    for (;;) {
      this.ws();
      if (this.peek() !== Q) throw new ScanError('candidate is not a string');
      out.push(this.stringValue());
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  /** true/false, 1/0, or anything else as undefined (skipped) */
  private boolish(): boolean | undefined {
    const b = this.b;
    const ch = b[this.p];
    if (ch === 0x74 && b[this.p + 1] === 0x72 && b[this.p + 2] === 0x75 && b[this.p + 3] === 0x65) { this.p += 4; return true; }
    if (ch === 0x66 && b[this.p + 1] === 0x61 && b[this.p + 2] === 0x6c && b[this.p + 3] === 0x73 && b[this.p + 4] === 0x65) { this.p += 5; return false; }
    if (ch === 0x6e) { this.literal('null'); return undefined; }
    if (ch === 0x31 || ch === 0x30) { const v = this.numOrNull(); return v === 1 ? true : v === 0 ? false : undefined; }
    this.skipValue();
    return undefined;
  }

  private intOr(dflt: number): number {
    const v = this.numOrNull();
    return v === null || !Number.isFinite(v) ? dflt : v;
  }

  private numOrNaN(): number {
    const v = this.numOrNull();
    return v === null ? NaN : v;
  }

  /** A number, null, a Python non-finite token; other values are skipped as null. */
  private numOrNull(): number | null {
    const b = this.b;
    let p = this.p;
    const ch = b[p];
    if (ch === 0x6e) { this.literal('null'); return null; }
    if (ch === 0x4e) { this.literal('NaN'); return NaN; }
    if (ch === 0x49) { this.literal('Infinity'); return Infinity; }
    if (ch === 0x2d && b[p + 1] === 0x49) { this.p++; this.literal('Infinity'); return -Infinity; }
    if (ch === 0x74) { this.literal('true'); return 1; }
    if (ch === 0x66) { this.literal('false'); return 0; }
    // a string or a structure where a number belongs: the slow path decides
    if (ch === Q || ch === LB || ch === LS) throw new ScanError('not a number');
    if (ch === undefined || !((ch >= 0x30 && ch <= 0x39) || ch === 0x2d)) throw new ScanError('unexpected character');
    // integer fast path
    let neg = false;
    if (ch === 0x2d) { neg = true; p++; }
    let v = 0;
    let digits = 0;
    let c = b[p]!;
    while (c >= 0x30 && c <= 0x39) { v = v * 10 + (c - 0x30); p++; digits++; c = b[p]!; }
    if (digits === 0) throw new ScanError('bad number');
    if (c !== 0x2e && c !== 0x65 && c !== 0x45 && digits < 16) { this.p = p; return neg ? -v : v; }
    while (p < this.end) {
      c = b[p]!;
      if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) p++;
      else break;
    }
    const n = Number(b.toString('latin1', this.p, p));
    if (Number.isNaN(n)) throw new ScanError('bad number');
    this.p = p;
    return n;
  }

  private literal(word: string): void {
    for (let i = 0; i < word.length; i++) if (this.b[this.p + i] !== word.charCodeAt(i)) throw new ScanError(`expected ${word}`);
    this.p += word.length;
  }

  private key(): string {
    const b = this.b;
    if (b[this.p] !== Q) throw new ScanError('expected a key');
    const s = this.p + 1;
    let p = s;
    let escaped = false;
    for (;;) {
      if (p >= this.end) throw new ScanError('unterminated key');
      const c = b[p]!;
      if (c === Q) break;
      if (c === BS) { escaped = true; p += 2; continue; }
      if (c >= 0x80) escaped = true;
      p++;
    }
    this.p = p + 1;
    return escaped ? (JSON.parse(b.toString('utf8', s - 1, p + 1)) as string) : b.toString('latin1', s, p);
  }

  /** Index of the closing quote of the string whose opening quote is at `open`. */
  private stringEnd(open: number): number {
    const b = this.b;
    let q = open;
    for (;;) {
      q = b.indexOf(Q, q + 1);
      if (q < 0 || q >= this.end) throw new ScanError('unterminated string');
      let n = 0;
      let k = q - 1;
      while (b[k] === BS) { n++; k--; }
      if ((n & 1) === 0) return q;
    }
  }

  private stringValue(): string {
    const open = this.p;
    const close = this.stringEnd(open);
    this.p = close + 1;
    const b = this.b;
    for (let i = open + 1; i < close; i++) {
      if (b[i] === BS) return JSON.parse(b.toString('utf8', open, close + 1)) as string;
    }
    return b.toString('utf8', open + 1, close);
  }

  private skipValue(): void {
    const b = this.b;
    const ch = b[this.p];
    if (ch === Q) { this.p = this.stringEnd(this.p) + 1; return; }
    if (ch === LB || ch === LS) {
      let depth = 0;
      let p = this.p;
      while (p < this.end) {
        const c = b[p]!;
        if (c === Q) { p = this.stringEnd(p) + 1; continue; }
        if (c === LB || c === LS) depth++;
        else if (c === RB || c === RS) { depth--; if (depth === 0) { this.p = p + 1; return; } }
        p++;
      }
      throw new ScanError('unterminated value');
    }
    if (ch === 0x74) return this.literal('true');
    if (ch === 0x66) return this.literal('false');
    this.numOrNull();
  }

  private ws(): void {
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

  private peek(): number {
    return this.b[this.p] ?? -1;
  }

  private next(): number {
    if (this.p >= this.end) throw new ScanError('unexpected end of line');
    return this.b[this.p++]!;
  }

  private expect(ch: number): void {
    if (this.b[this.p] !== ch || this.p >= this.end) throw new ScanError(`expected ${String.fromCharCode(ch)}`);
    this.p++;
  }
}

function bumpBy<F>(m: Map<F, Map<string, number>>, field: F, name: string, n: number): void {
  let inner = m.get(field);
  if (!inner) { inner = new Map(); m.set(field, inner); }
  inner.set(name, (inner.get(name) ?? 0) + n);
}
