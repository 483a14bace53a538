/**
 * A byte-level reader of one credit-log record that decodes only what the index
 * needs: it skips string values with `Buffer.indexOf` and never builds the record's
 * object tree. Anything it does not expect makes it throw; the caller then falls
 * back to `JSON.parse` and `normaliseRecord`, which define the semantics.
 */
import { SchemaObserver } from '../record/schema';
import type { KeyTable, SchemaTables, TrajectoryField, TurnField } from '../record/schema';
import { MISSING_ITERATION } from '../record/trajectory';
import type { TrajectoryCore, TurnCore } from '../record/trajectory';
import { ActionMatcher } from '../credit/actions';
import type { MatchOptions } from '../credit/actions';
import { ByteActions } from '../behaviour/byteActions';
import { ByteArgs, UNDECIDED, YES } from '../behaviour/byteArgs';
import { BS, ByteCursor, COLON, COMMA, LB, LS, Q, RB, RS, ScanError } from './byteCursor';

/** Deepest nesting of arrays and objects a record may have (deeper lines are refused, in both readers). */
export const MAX_DEPTH = 512;

const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

interface KeyEntry<F> {
  field: F;
  /** the field's place in TOP_SLOTS or TURN_SLOTS (-1: none) */
  slot: number;
  name: string;
  bytes: Buffer;
  rank: number;
  count: number;
}

/** Buffer's own latin1 decoder, without the argument checks of `toString`. */
interface Latin1 {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const fast = (b: Buffer): Latin1 => b as unknown as Latin1;

function hashBytes(b: Uint8Array, start: number, end: number): number {
  let h = 0;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + b[i]!) | 0;
  return h;
}

/**
 * Known keys by the hash of their bytes, in a table indexed by the hash's low bits (a Map lookup
 * a key cost more than the key's bytes); collisions are resolved by comparing bytes.
 */
class KeyMap<F> {
  private readonly buckets: (KeyEntry<F>[] | undefined)[];
  private readonly hashes: number[][];
  private readonly mask: number;
  private readonly list: KeyEntry<F>[];
  constructor(list: Iterable<KeyEntry<F>>) {
    this.list = [...list];
    let size = 64;
    while (size < this.list.length * 4) size *= 2;
    this.mask = size - 1;
    this.buckets = Array.from({ length: size }, () => undefined);
    this.hashes = Array.from({ length: size }, () => []);
    for (const e of this.list) {
      const h = hashBytes(e.bytes, 0, e.bytes.length);
      const k = h & this.mask;
      (this.buckets[k] ??= []).push(e);
      this.hashes[k]!.push(h);
    }
  }
  get(b: Buffer, start: number, end: number, h: number): KeyEntry<F> | undefined {
    const k = h & this.mask;
    const l = this.buckets[k];
    if (l === undefined) return undefined;
    const hs = this.hashes[k]!;
    outer: for (let j = 0; j < l.length; j++) {
      const e = l[j]!;
      if (hs[j] !== h || e.bytes.length !== end - start) continue;
      for (let i = 0; i < e.bytes.length; i++) if (e.bytes[i] !== b[start + i]) continue outer;
      return e;
    }
    return undefined;
  }
  values(): KeyEntry<F>[] {
    return this.list;
  }
}

const TOP_SLOTS: readonly TrajectoryField[] = [
  'iteration',
  'group',
  'rollout',
  'task_id',
  'instruction',
  'reward',
  'A',
  'labeled',
  'turns',
];
const TURN_SLOTS: readonly TurnField[] = ['action', 'candidates', 'scores', 'same', 'done', 'c', 'A_t', 'masked', 'fallback'];
const REQUIRED_TOP_MASK = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 5) | (1 << 6) | (1 << 8);

function entries<F extends string>(table: KeyTable<F>, slots: readonly F[]): KeyMap<F> {
  const out: KeyEntry<F>[] = [];
  for (const [name, field] of table.byName) {
    const rank = table.names.get(field)!.indexOf(name);
    out.push({ field, slot: slots.indexOf(field), name, bytes: Buffer.from(name, 'utf8'), rank, count: 0 });
  }
  return new KeyMap(out);
}

export class FastScanner extends ByteCursor {
  private readonly top: KeyMap<TrajectoryField>;
  private readonly turn: KeyMap<TurnField>;
  /** set by `key()`: the key's byte range and hash */
  private ks = 0;
  private ke = 0;
  private kh = 0;
  private kEscaped = false;
  private readonly turnChosen: (KeyEntry<TurnField> | undefined)[] = Array.from({ length: TURN_SLOTS.length }, () => undefined);
  private readonly unknownTop = new Map<string, number>();
  private readonly unknownTurn = new Map<string, number>();
  /** names met since the last flush, in the order first met (fast and slow path alike) */
  private readonly touchedTop: KeyEntry<TrajectoryField>[] = [];
  private readonly touchedTurn: KeyEntry<TurnField>[] = [];
  private readonly slowTop = new Map<string, KeyEntry<TrajectoryField>>();
  private readonly slowTurn = new Map<string, KeyEntry<TurnField>>();
  private records = 0;
  private turns = 0;
  /**
   * The observer the slow path (`normaliseRecord`) reports to: what it meets joins what
   * the fast path met, in line order, so that a flush puts names and unknown keys into the
   * observer in the order of their first line however the file was cut into chunks or parts.
   */
  readonly slowObserver: SchemaObserver = new SlowObserver(this);
  /** open brackets of a skipped structure; its length bounds the depth the fast path reads */
  private readonly stack = new Uint8Array(MAX_DEPTH - 8);
  /**
   * the executed actions of the last record scanned, as byte ranges of its line (valid until the next scan); undefined when not asked
   * for
   */
  readonly actions: ByteActions | undefined;
  /** the action of the turn being read: its string's content range (-1: none) */
  private actStart = -1;
  private actEnd = -1;
  /** a turn's candidate actions, compared on their bytes where the form is a common one */
  private readonly candidateArgs: ByteArgs;

  /** per-turn numbers read as JSON.parse reads them, or within 1e-15 (see `numOrNull`) */
  private readonly approx: boolean;
  /** the bytes and the value of the last number `longNumber` read (length -1: none) */
  private readonly lastNumber = new Uint8Array(40);
  private lastNumberLength = -1;
  private lastNumberValue = 0;
  /** the content [start, end) of the last record's `task_id` and `instruction` strings (-1: null or absent) */
  private readonly textAt = new Int32Array(4);

  constructor(
    tables: SchemaTables,
    private readonly match: MatchOptions,
    withActions = true,
    exact = false,
  ) {
    super();
    this.approx = !exact;
    this.actions = withActions ? new ByteActions(match) : undefined;
    this.candidateArgs = new ByteArgs(match);
    this.top = entries(tables.trajectory, TOP_SLOTS);
    this.turn = entries(tables.turn, TURN_SLOTS);
  }

  /** Reads the record in buf[start, end); throws when the text is not what it expects. */
  scan(buf: Buffer, start: number, end: number): TrajectoryCore {
    checkText(buf, start, end);
    this.actions?.reset(buf);
    this.at(buf, start, end);
    const chosen = new Array<KeyEntry<TrajectoryField> | undefined>(TOP_SLOTS.length);
    const t: TrajectoryCore = {
      iteration: MISSING_ITERATION,
      group: -1,
      rollout: -1,
      reward: NaN,
      A: NaN,
      labeled: undefined,
      turns: [],
      missing: 0,
    };
    const unknown: string[] = [];
    this.textAt.fill(-1);
    this.ws();
    this.expect(LB);
    this.ws();
    if (this.peek() !== RB) {
      for (;;) {
        this.ws();
        this.key();
        this.ws();
        this.expect(COLON);
        this.ws();
        const e = this.kEscaped ? undefined : this.top.get(this.b, this.ks, this.ke, this.kh);
        if (e === undefined) {
          const name = this.keyString();
          const known = this.kEscaped ? this.top.values().find((x) => x.name === name) : undefined;
          if (known) throw new ScanError('escaped key');
          unknown.push(name);
          this.skipValue();
        } else {
          const slot = e.slot;
          const prev = chosen[slot];
          if (prev !== undefined && prev.rank < e.rank) {
            this.skipValue();
          } else {
            chosen[slot] = e;
            switch (e.field) {
              case 'iteration':
                t.iteration = this.intOr(MISSING_ITERATION);
                break;
              case 'group':
                t.group = this.intOr(-1);
                break;
              case 'rollout':
                t.rollout = this.intOr(-1);
                break;
              case 'task_id':
              case 'instruction':
                this.stringOrNull(e.field === 'task_id' ? 0 : 2);
                break;
              case 'reward':
                t.reward = this.numOrNaN();
                break;
              case 'A':
                t.A = this.numOrNaN();
                break;
              case 'labeled':
                t.labeled = this.bool();
                break;
              case 'turns':
                t.turns = this.turnsArray();
                break;
              default:
                this.skipValue();
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
      if (e) {
        if (e.count++ === 0) this.touchedTop.push(e);
        have |= 1 << i;
      }
    }
    for (const k of unknown) this.unknownTop.set(k, (this.unknownTop.get(k) ?? 0) + 1);
    let missing = 0;
    for (let i = 0; i < TOP_SLOTS.length; i++) if ((REQUIRED_TOP_MASK & (1 << i)) !== 0 && (have & (1 << i)) === 0) missing++;
    t.missing = missing;
    this.records++;
    this.turns += t.turns.length;
    return t;
  }

  /** Moves what was met since the last flush into the observer, in the order first met. */
  flushInto(obs: SchemaObserver): void {
    for (const e of this.touchedTop) {
      bumpBy(obs.trajectoryNames, e.field, e.name, e.count);
      e.count = 0;
    }
    for (const e of this.touchedTurn) {
      bumpBy(obs.turnNames, e.field, e.name, e.count);
      e.count = 0;
    }
    this.touchedTop.length = 0;
    this.touchedTurn.length = 0;
    for (const [k, n] of this.unknownTop) obs.seeUnknown('trajectory', k, n);
    for (const [k, n] of this.unknownTurn) obs.seeUnknown('turn', k, n);
    this.unknownTop.clear();
    this.unknownTurn.clear();
    obs.records += this.records + this.slowObserver.records;
    obs.turns += this.turns + this.slowObserver.turns;
    this.records = 0;
    this.turns = 0;
    this.slowObserver.records = 0;
    this.slowObserver.turns = 0;
  }

  /** A name the slow path met, counted as the fast path counts its own. */
  noteName(level: 'trajectory' | 'turn', field: string, name: string): void {
    const map = (level === 'trajectory' ? this.slowTop : this.slowTurn) as Map<string, KeyEntry<string>>;
    const touched = (level === 'trajectory' ? this.touchedTop : this.touchedTurn) as KeyEntry<string>[];
    const key = `${field}\0${name}`;
    let e = map.get(key);
    if (!e) {
      e = { field, slot: -1, name, bytes: Buffer.alloc(0), rank: 0, count: 0 };
      map.set(key, e);
    }
    if (e.count++ === 0) touched.push(e);
  }

  /** An unknown key the slow path met. */
  noteUnknown(level: 'trajectory' | 'turn', name: string): void {
    const m = level === 'trajectory' ? this.unknownTop : this.unknownTurn;
    m.set(name, (m.get(name) ?? 0) + 1);
  }

  // ---- turns

  private turnsArray(): TurnCore[] {
    const out: TurnCore[] = [];
    this.expect(LS);
    this.ws();
    if (this.peek() === RS) {
      this.p++;
      return out;
    }
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
    const t: TurnCore = {
      scores: null,
      same: null,
      done: null,
      candidates: null,
      c: undefined,
      At: undefined,
      masked: false,
      fallback: false,
    };
    const chosen = this.turnChosen;
    chosen.fill(undefined);
    this.actStart = -1;
    this.expect(LB);
    this.ws();
    if (this.peek() === RB) {
      this.p++;
      this.actions?.push(-1, -1);
      return t;
    }
    for (;;) {
      this.ws();
      this.key();
      this.ws();
      this.expect(COLON);
      this.ws();
      const e = this.kEscaped ? undefined : this.turn.get(this.b, this.ks, this.ke, this.kh);
      if (e === undefined) {
        const name = this.keyString();
        if (this.kEscaped && this.turn.values().some((x) => x.name === name)) throw new ScanError('escaped key');
        this.unknownTurn.set(name, (this.unknownTurn.get(name) ?? 0) + 1);
        this.skipValue();
      } else {
        const slot = e.slot;
        const prev = chosen[slot];
        if (prev !== undefined && prev.rank < e.rank) this.skipValue();
        else {
          chosen[slot] = e;
          switch (e.field) {
            case 'action':
              this.actionString();
              break;
            case 'scores':
              t.scores = this.numArray();
              break;
            case 'same':
              t.same = this.boolArray();
              break;
            case 'done':
              t.done = this.boolArray();
              break;
            case 'candidates':
              t.sameRecomputed = this.candidatesSame();
              break;
            case 'c':
              t.c = this.numOrNull(this.approx);
              break;
            case 'A_t': {
              const v = this.numOrNull(this.approx);
              t.At = v === null ? undefined : v;
              break;
            }
            case 'masked':
              t.masked = this.bool() === true;
              break;
            case 'fallback':
              t.fallback = this.bool() === true;
              break;
            default:
              this.skipValue();
          }
        }
      }
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RB) break;
      throw new ScanError('expected , or }');
    }
    for (const e of chosen) if (e && e.count++ === 0) this.touchedTurn.push(e);
    this.actions?.push(this.actStart, this.actEnd);
    return t;
  }

  /** The turn's action: a string's content range kept, or null (no action). */
  private actionString(): void {
    if (this.peek() === Q) {
      const close = this.stringEnd(this.p);
      this.actStart = this.p + 1;
      this.actEnd = close;
      this.p = close + 1;
    } else {
      this.literal('null');
      this.actStart = -1;
    }
  }

  // ---- values

  private numArray(): (number | null)[] | null {
    if (this.peek() !== LS) {
      this.literal('null');
      return null;
    }
    this.p++;
    const out: (number | null)[] = [];
    this.ws();
    if (this.peek() === RS) {
      this.p++;
      return out;
    }
    for (;;) {
      this.ws();
      const v = this.numOrNull(this.approx);
      out.push(v === null || !Number.isFinite(v) ? null : v);
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  private boolArray(): boolean[] | null {
    if (this.peek() !== LS) {
      this.literal('null');
      return null;
    }
    this.p++;
    const out: boolean[] = [];
    this.ws();
    if (this.peek() === RS) {
      this.p++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.bool(false) === true);
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out;
      throw new ScanError('expected , or ]');
    }
  }

  /**
   * Reads the candidate texts and returns the recomputed same-action flags. Works on
   * bytes where it can: identical bytes match, different tool names do not; only the
   * rest is decoded and parsed.
   */
  private candidatesSame(): boolean[] | null {
    if (this.peek() !== LS) {
      this.literal('null');
      return null;
    }
    this.p++;
    const b = this.b;
    const out: boolean[] = [];
    let s0 = 0,
      e0 = 0,
      n0 = 0;
    let matcher: ActionMatcher | undefined;
    let argsReset = false;
    this.ws();
    if (this.peek() === RS) {
      this.p++;
      return null;
    }
    for (let k = 0; ; k++) {
      this.ws();
      if (this.peek() !== Q) throw new ScanError('candidate is not a string');
      const open = this.p;
      const close = this.stringEnd(open);
      this.p = close + 1;
      if (k === 0) {
        s0 = open + 1;
        e0 = close;
        n0 = nameEnd(b, s0, e0);
        out.push(true);
      } else {
        const len = close - open - 1;
        let same: boolean | undefined;
        if (len === e0 - s0 && sameBytes(b, s0, open + 1, len)) same = true;
        else {
          const n = nameEnd(b, open + 1, close);
          if (
            n0 > s0 &&
            b[n0] === 0x28 &&
            n > open + 1 &&
            b[n] === 0x28 &&
            (n - open - 1 !== n0 - s0 || !sameBytes(b, s0, open + 1, n0 - s0))
          )
            same = false;
          if (
            same === undefined &&
            k < 64 &&
            n0 > s0 &&
            isIdStart(b[s0]!) &&
            n - open - 1 === n0 - s0 &&
            sameBytes(b, s0, open + 1, n0 - s0)
          ) {
            // the same tool name: the common argument forms are compared on the bytes, as the tags compare actions
            if (!argsReset) {
              this.candidateArgs.reset(b);
              argsReset = true;
            }
            const r = this.candidateArgs.compare(0, n0, e0, k, n, close);
            if (r !== UNDECIDED) same = r === YES;
          }
        }
        if (same === undefined) {
          matcher ??= new ActionMatcher(this.decode(s0 - 1, e0), this.match);
          same = matcher.matches(this.decode(open, close));
        }
        out.push(same);
      }
      this.ws();
      const ch = this.next();
      if (ch === COMMA) continue;
      if (ch === RS) return out.length > 1 ? out : null;
      throw new ScanError('expected , or ]');
    }
  }

  private decode(open: number, close: number): string {
    const text = fast(this.b).utf8Slice(open + 1, close);
    return text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text;
  }

  /** true or false (null, where allowed, as undefined); any other value is a wrong type the slow path reports */
  private bool(allowNull = true): boolean | undefined {
    const b = this.b;
    const ch = b[this.p];
    if (ch === 0x74 && b[this.p + 1] === 0x72 && b[this.p + 2] === 0x75 && b[this.p + 3] === 0x65) {
      this.p += 4;
      return true;
    }
    if (ch === 0x66 && b[this.p + 1] === 0x61 && b[this.p + 2] === 0x6c && b[this.p + 3] === 0x73 && b[this.p + 4] === 0x65) {
      this.p += 5;
      return false;
    }
    if (ch === 0x6e && allowNull) {
      this.literal('null');
      return undefined;
    }
    throw new ScanError('not a boolean');
  }

  /** A whole number from 0 to 2^53 - 1; null is `dflt` (absent); anything else goes to the slow path, which refuses the line. */
  private intOr(dflt: number): number {
    const v = this.numOrNull();
    if (v === null) return dflt;
    if (!Number.isSafeInteger(v) || v < 0) throw new ScanError('not a whole number');
    return v;
  }

  private numOrNaN(): number {
    const v = this.numOrNull();
    return v === null ? NaN : v;
  }

  /** A string or null, skipped (its content's range kept at `textAt[at]`); anything else goes to the slow path. */
  private stringOrNull(at: number): void {
    if (this.peek() === Q) {
      const close = this.stringEnd(this.p);
      this.textAt[at] = this.p + 1;
      this.textAt[at + 1] = close;
      this.p = close + 1;
    } else {
      this.literal('null');
      this.textAt[at] = -1;
    }
  }

  /** The last record's `task_id` or `instruction`, as `normaliseRecord` reads it (null: null or absent). */
  text(field: 'task_id' | 'instruction'): string | null {
    const at = field === 'task_id' ? 0 : 2;
    const open = this.textAt[at]!;
    return open < 0 ? null : this.decode(open - 1, this.textAt[at + 1]!);
  }

  /**
   * The number b[s, e) read by `Number` (a form the loop does not read exactly); the last one read
   * is kept with its bytes, as a turn's `A_t` often repeats its trajectory's bytes from turn to turn.
   */
  private longNumber(b: Buffer, s: number, e: number): number {
    const len = e - s;
    const last = this.lastNumber;
    if (len === this.lastNumberLength) {
      let k = 0;
      while (k < len && b[s + k] === last[k]) k++;
      if (k === len) return this.lastNumberValue;
    }
    const n = Number(fast(b).latin1Slice(s, e));
    if (Number.isNaN(n)) throw new ScanError('bad number');
    if (len <= last.length) {
      for (let k = 0; k < len; k++) last[k] = b[s + k]!;
      this.lastNumberLength = len;
      this.lastNumberValue = n;
    }
    return n;
  }

  /**
   * A number, null, a Python non-finite token. A decimal whose digits make an integer below 2^53
   * is read exactly without a string (that integer divided by a power of ten up to 10^22, both
   * exact, is the correctly rounded value). With `approx`, larger ones are read so too (relative
   * error below 1e-15, far inside the 1e-6 of the report's comparisons); used for per-turn values only.
   */
  private numOrNull(approx = false): number | null {
    const b = this.b;
    let p = this.p;
    const ch = b[p];
    if (ch === 0x6e) {
      this.literal('null');
      return null;
    }
    if (ch === 0x4e) {
      this.literal('NaN');
      return NaN;
    }
    if (ch === 0x49) {
      this.literal('Infinity');
      return Infinity;
    }
    if (ch === 0x2d && b[p + 1] === 0x49) {
      this.p++;
      this.literal('Infinity');
      return -Infinity;
    }
    // a boolean, a string or a structure where a number belongs: the slow path decides
    if (ch === 0x74 || ch === 0x66 || ch === Q || ch === LB || ch === LS) throw new ScanError('not a number');
    if (ch === undefined || !((ch >= 0x30 && ch <= 0x39) || ch === 0x2d)) throw new ScanError('unexpected character');
    // integer fast path
    let neg = false;
    if (ch === 0x2d) {
      neg = true;
      p++;
    }
    let v = 0;
    let digits = 0;
    let c = b[p]!;
    while (c >= 0x30 && c <= 0x39) {
      v = v * 10 + (c - 0x30);
      p++;
      digits++;
      c = b[p]!;
    }
    if (digits === 0 || (digits > 1 && b[p - digits] === 0x30)) throw new ScanError('bad number');
    if (c !== 0x2e && c !== 0x65 && c !== 0x45 && digits < 16) {
      this.p = p;
      return neg ? -v : v;
    }
    let fracDigits = 0;
    if (c === 0x2e) {
      p++;
      c = b[p]!;
      while (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30);
        p++;
        fracDigits++;
        c = b[p]!;
      }
      if (fracDigits === 0) throw new ScanError('bad number');
    }
    if (c === 0x65 || c === 0x45 || (v >= 2 ** 53 && !approx) || fracDigits > 22) {
      while (p < this.end) {
        c = b[p]!;
        if ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d) p++;
        else break;
      }
      const n = this.longNumber(b, this.p, p);
      this.p = p;
      return n;
    }
    // an exact integer (below 2^53) and a power of ten up to 10^22: one correctly rounded division
    this.p = p;
    const n = v / POW10[fracDigits]!;
    return neg ? -n : n;
  }

  private literal(word: string): void {
    for (let i = 0; i < word.length; i++) if (this.b[this.p + i] !== word.charCodeAt(i)) throw new ScanError(`expected ${word}`);
    this.p += word.length;
  }

  /** Reads a key: sets its range, hash and whether it needs decoding. */
  private key(): void {
    const b = this.b;
    if (b[this.p] !== Q) throw new ScanError('expected a key');
    const s = this.p + 1;
    let p = s;
    let escaped = false;
    let h = 0;
    for (;;) {
      if (p >= this.end) throw new ScanError('unterminated key');
      const c = b[p]!;
      if (c === Q) break;
      if (c === BS) {
        escaped = true;
        p += 2;
        continue;
      }
      h = (Math.imul(h, 31) + c) | 0;
      p++;
    }
    this.p = p + 1;
    this.ks = s;
    this.ke = p;
    this.kh = h;
    this.kEscaped = escaped;
  }

  private keyString(): string {
    return this.kEscaped
      ? (JSON.parse(this.b.toString('utf8', this.ks - 1, this.ke + 1)) as string)
      : this.b.toString('utf8', this.ks, this.ke);
  }

  /** Skips one value, checking it as `JSON.parse` would (strings aside, see `checkText`). */
  private skipValue(): void {
    const ch = this.b[this.p];
    if (ch === Q) {
      this.p = this.stringEnd(this.p) + 1;
      return;
    }
    if (ch === LB || ch === LS) return this.skipStructure();
    if (ch === 0x74) return this.literal('true');
    if (ch === 0x66) return this.literal('false');
    this.numOrNull();
  }

  /** An array or object, without recursion; deeper than MAX_DEPTH goes to the slow path, which refuses it. */
  private skipStructure(): void {
    const open = this.stack;
    let depth = 0;
    for (;;) {
      // at the start of a value
      const ch = this.b[this.p];
      if (ch === LB || ch === LS) {
        if (depth >= open.length) throw new ScanError('nested too deep');
        open[depth++] = ch;
        this.p++;
        this.ws();
        const close = ch === LB ? RB : RS;
        if (this.peek() === close) {
          this.p++;
          depth--;
        } else {
          if (ch === LB) this.member();
          continue;
        }
      } else this.skipValue();
      // after a value: commas and closing brackets
      for (;;) {
        if (depth === 0) return;
        this.ws();
        const c = this.next();
        const top = open[depth - 1];
        if (c === COMMA) {
          this.ws();
          if (top === LB) this.member();
          break;
        }
        if ((top === LB && c === RB) || (top === LS && c === RS)) depth--;
        else throw new ScanError('expected , or a closing bracket');
      }
    }
  }

  /** `"key" :` inside a skipped object. */
  private member(): void {
    this.key();
    this.ws();
    this.expect(COLON);
    this.ws();
  }
}

/**
 * Raw control characters (bytes below 0x20), which `JSON.parse` refuses inside strings:
 * a line that holds one goes to the slow path, which refuses it or, for a tab or CR
 * between tokens, reads it. Four bytes at a time: a word x holds a byte below 0x20
 * iff (x - 0x20202020) & ~x & 0x80808080 is not 0.
 */
function checkText(b: Buffer, start: number, end: number): void {
  const u = wordsOf(b);
  const off = b.byteOffset;
  let p = start;
  const head = Math.min(end, start + ((4 - ((off + start) & 3)) & 3));
  for (; p < head; p++) if (b[p]! < 0x20) throw new ScanError('control character');
  let w = (off + p) >> 2;
  const wEnd = (off + end) >> 2;
  let acc = 0;
  for (; w + 4 <= wEnd; w += 4) {
    const w0 = u[w]!,
      w1 = u[w + 1]!,
      w2 = u[w + 2]!,
      w3 = u[w + 3]!;
    acc |= ((w0 - 0x20202020) & ~w0) | ((w1 - 0x20202020) & ~w1) | ((w2 - 0x20202020) & ~w2) | ((w3 - 0x20202020) & ~w3);
  }
  for (; w < wEnd; w++) acc |= (u[w]! - 0x20202020) & ~u[w]!;
  if ((acc & 0x80808080) !== 0) throw new ScanError('control character');
  for (p = Math.max(p, (wEnd << 2) - off); p < end; p++) if (b[p]! < 0x20) throw new ScanError('control character');
  checkEscapes(b.subarray(start, end));
}

/** `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`, and `\u` with 4 hex digits: the escapes `JSON.parse` takes. */
const ESCAPE_OK = new Uint8Array(256);
for (const c of '"\\/bfnrt') ESCAPE_OK[c.charCodeAt(0)] = 1;
const HEX = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX[c.charCodeAt(0)] = 1;

/**
 * Every backslash of a line starts an escape `JSON.parse` accepts. One `indexOf` a
 * backslash over the line's own bytes (a view, so a line without one costs one memchr).
 */
function checkEscapes(line: Buffer): void {
  for (let q = line.indexOf(BS); q >= 0; q = line.indexOf(BS, q)) {
    const e = line[q + 1] ?? 0;
    if (e === 0x75) {
      if (!(HEX[line[q + 2] ?? 0]! & HEX[line[q + 3] ?? 0]! & HEX[line[q + 4] ?? 0]! & HEX[line[q + 5] ?? 0]!))
        throw new ScanError('bad \\u escape');
      q += 6;
    } else if (ESCAPE_OK[e] === 1) q += 2;
    else throw new ScanError('bad escape');
  }
}

let wordsBuffer: ArrayBufferLike | undefined;
let wordsView: Int32Array<ArrayBufferLike> = new Int32Array(0);
/** The buffer's memory as 32-bit words from its ArrayBuffer's start (one view a buffer, kept). */
function wordsOf(b: Buffer): Int32Array {
  if (b.buffer !== wordsBuffer) {
    wordsBuffer = b.buffer;
    wordsView = new Int32Array(b.buffer, 0, b.buffer.byteLength >> 2);
  }
  return wordsView;
}

/** Whether b[a, a + len) and b[c, c + len) hold the same bytes (a loop: the ranges are short, a native call costs more). */
function sameBytes(b: Buffer, a: number, c: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (b[a + i] !== b[c + i]) return false;
  return true;
}

/** A parsed tool name starts with a letter or `_`. */
function isIdStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** End of the tool name at the start of an action's bytes (ASCII identifier characters and dots). */
function nameEnd(b: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end && (b[i] === 0x20 || b[i] === 0x09)) i++;
  while (i < end) {
    const c = b[i]!;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e) i++;
    else break;
  }
  return i;
}

/** Forwards what `normaliseRecord` meets to its scanner's pending counts (records and turns it keeps itself, until a flush). */
class SlowObserver extends SchemaObserver {
  constructor(private readonly scanner: FastScanner) {
    super();
  }
  override seeTrajectory(field: TrajectoryField, name: string): void {
    this.scanner.noteName('trajectory', field, name);
  }
  override seeTurn(field: TurnField, name: string): void {
    this.scanner.noteName('turn', field, name);
  }
  override seeUnknown(level: 'trajectory' | 'turn', name: string): void {
    this.scanner.noteUnknown(level, name);
  }
}

function bumpBy<F>(m: Map<F, Map<string, number>>, field: F, name: string, n: number): void {
  let inner = m.get(field);
  if (!inner) {
    inner = new Map();
    m.set(field, inner);
  }
  inner.set(name, (inner.get(name) ?? 0) + n);
}
