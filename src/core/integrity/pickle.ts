/**
 * A reader of Python pickles that never executes them. Every opcode is interpreted on a plain
 * stack: a global reference (GLOBAL, STACK_GLOBAL) becomes its name, object construction
 * (REDUCE, NEWOBJ, NEWOBJ_EX, OBJ, INST) a record of what would have been called with what, and
 * BUILD / APPEND / SETITEM on such a record are kept on it. Anything else (persistent ids,
 * extension codes, out-of-band buffers, opcodes it does not know) is refused with a reason, as is
 * a file over the size bound, a value nested deeper than the depth bound or a memo over its bound.
 *
 * Why not the npm `pickleparser` package: its REDUCE calls the resolved function (`func(...args)`),
 * its BUILD copies attacker-chosen keys onto objects with `Object.assign` (`__proto__` included)
 * and calls a `__setstate__` found on them, and it has no bound on memo indexes, lengths or depth;
 * its last release is from 2024. What section 9 needs is a few hundred lines that construct
 * nothing, so we keep our own.
 */

export interface PickleGlobal {
  kind: 'global';
  module: string;
  name: string;
}

/** What REDUCE / NEWOBJ / OBJ would have built: never built. */
export interface PickleObject {
  kind: 'object';
  /** the callable (usually a PickleGlobal) */
  callee: PickleValue;
  args: PickleValue[];
  kwargs?: PickleValue;
  /** the argument of BUILD (a dict, or a tuple of dict and slots dict), if any */
  state?: PickleValue;
  /** APPEND / APPENDS onto the object (a list subclass) */
  listItems?: PickleValue[];
  /** SETITEM / SETITEMS onto the object (a dict subclass) */
  dictItems?: [PickleValue, PickleValue][];
}

export interface PickleDict {
  kind: 'dict';
  entries: [PickleValue, PickleValue][];
}

export interface PickleSet {
  kind: 'set';
  items: PickleValue[];
}

export interface PickleTuple {
  kind: 'tuple';
  items: PickleValue[];
}

export type PickleValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Uint8Array
  | PickleValue[]
  | PickleTuple
  | PickleDict
  | PickleSet
  | PickleGlobal
  | PickleObject;

export interface PickleLimits {
  /** the most bytes a pickle may have */
  maxBytes: number;
  /** the deepest nesting of containers and records */
  maxDepth: number;
  /** the most memo entries */
  maxMemo: number;
  /** the most nested MARKs and stack entries */
  maxStack: number;
}

/** A torch.distributed.checkpoint `.metadata` of the real run is a few MB; these leave room and still bound the work. */
export const DEFAULT_PICKLE_LIMITS: PickleLimits = { maxBytes: 256 << 20, maxDepth: 64, maxMemo: 1 << 22, maxStack: 1 << 20 };

/**
 * `globals` holds every global reference read, on a refusal too: those before the point refused, which
 * `pickle.load` would have imported (and may have called) before failing there.
 */
export type PickleResult =
  { ok: true; value: PickleValue; globals: PickleGlobal[] } | { ok: false; reason: string; globals: PickleGlobal[] };

class Refused extends Error {}

const MARK = Symbol('mark');
type Slot = PickleValue | typeof MARK;

const isRecord = (v: PickleValue): v is PickleTuple | PickleDict | PickleSet | PickleGlobal | PickleObject =>
  typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v);

/** Reads a pickle into plain values; never calls, imports or resolves anything it names. */
export function readPickle(bytes: Uint8Array, limits: PickleLimits = DEFAULT_PICKLE_LIMITS): PickleResult {
  if (bytes.length > limits.maxBytes)
    return { ok: false, reason: `it is ${bytes.length} bytes, over the ${limits.maxBytes} bytes a reader accepts`, globals: [] };
  const reader = new Reader(bytes, limits);
  try {
    return reader.run();
  } catch (e) {
    if (e instanceof Refused) return { ok: false, reason: e.message, globals: reader.globalsRead() };
    throw e;
  }
}

class Reader {
  private pos = 0;
  private stack: Slot[] = [];
  private readonly memo = new Map<number, PickleValue>();
  private readonly depth = new WeakMap<object, number>();
  private readonly globals: PickleGlobal[] = [];
  private readonly view: DataView;

  constructor(
    private readonly b: Uint8Array,
    private readonly limits: PickleLimits,
  ) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  globalsRead(): PickleGlobal[] {
    return this.globals;
  }

  run(): PickleResult {
    for (;;) {
      const at = this.pos;
      const op = this.u8();
      if (op === 0x2e /* STOP */) {
        const v = this.pop();
        return { ok: true, value: v, globals: this.globals };
      }
      this.step(op, at);
      if (this.stack.length > this.limits.maxStack) throw new Refused(`its stack grows past ${this.limits.maxStack} entries`);
    }
  }

  // The opcodes of pickle protocols 0 to 5 that plain data and object construction use.
  private step(op: number, at: number): void {
    switch (op) {
      case 0x80 /* PROTO */: {
        const v = this.u8();
        if (v > 5) throw new Refused(`it is pickle protocol ${v}, newer than 5`);
        return;
      }
      case 0x95 /* FRAME */:
        this.take(8);
        return;
      case 0x28 /* MARK */:
        this.stack.push(MARK);
        return;
      case 0x30 /* POP */:
        this.popSlot();
        return;
      case 0x31 /* POP_MARK */:
        this.popMark();
        return;
      case 0x32 /* DUP */:
        return this.push(this.top());
      case 0x4e /* NONE */:
        return this.push(null);
      case 0x88 /* NEWTRUE */:
        return this.push(true);
      case 0x89 /* NEWFALSE */:
        return this.push(false);
      case 0x4a /* BININT */:
        return this.push(this.view.getInt32(this.take(4), true));
      case 0x4b /* BININT1 */:
        return this.push(this.u8());
      case 0x4d /* BININT2 */:
        return this.push(this.view.getUint16(this.take(2), true));
      case 0x8a /* LONG1 */:
        return this.push(this.long(this.u8()));
      case 0x8b /* LONG4 */:
        return this.push(this.long(this.len4()));
      case 0x49 /* INT */:
        return this.push(this.textInt(this.line()));
      case 0x4c /* LONG */:
        return this.push(this.textInt(this.line().replace(/L$/, '')));
      case 0x47 /* BINFLOAT */:
        return this.push(this.view.getFloat64(this.take(8), false));
      case 0x46 /* FLOAT */:
        return this.push(this.textFloat(this.line()));
      case 0x8c /* SHORT_BINUNICODE */:
        return this.push(this.utf8(this.u8()));
      case 0x58 /* BINUNICODE */:
        return this.push(this.utf8(this.len4()));
      case 0x8d /* BINUNICODE8 */:
        return this.push(this.utf8(this.len8()));
      case 0x55 /* SHORT_BINSTRING */:
        return this.push(this.latin1(this.u8()));
      case 0x54 /* BINSTRING */:
        return this.push(this.latin1(this.len4()));
      case 0x43 /* SHORT_BINBYTES */:
        return this.push(this.raw(this.u8()));
      case 0x42 /* BINBYTES */:
        return this.push(this.raw(this.len4()));
      case 0x8e /* BINBYTES8 */:
      case 0x96 /* BYTEARRAY8 */:
        return this.push(this.raw(this.len8()));
      case 0x29 /* EMPTY_TUPLE */:
        return this.push({ kind: 'tuple', items: [] });
      case 0x85 /* TUPLE1 */:
      case 0x86 /* TUPLE2 */:
      case 0x87 /* TUPLE3 */: {
        const items = this.popN(op - 0x84);
        return this.push(this.grown({ kind: 'tuple', items }, items));
      }
      case 0x74 /* TUPLE */: {
        const items = this.popMark();
        return this.push(this.grown({ kind: 'tuple', items }, items));
      }
      case 0x5d /* EMPTY_LIST */:
        return this.push([]);
      case 0x6c /* LIST */: {
        const items = this.popMark();
        return this.push(this.grown(items, items));
      }
      case 0x61 /* APPEND */:
        return this.appendTo(this.popN(1));
      case 0x65 /* APPENDS */:
        return this.appendTo(this.popMark());
      case 0x7d /* EMPTY_DICT */:
        return this.push({ kind: 'dict', entries: [] });
      case 0x64 /* DICT */: {
        const d: PickleDict = { kind: 'dict', entries: pairs(this.popMark()) };
        return this.push(this.grown(d, d.entries.flat()));
      }
      case 0x73 /* SETITEM */:
        return this.setItems(pairs(this.popN(2)));
      case 0x75 /* SETITEMS */:
        return this.setItems(pairs(this.popMark()));
      case 0x8f /* EMPTY_SET */:
        return this.push({ kind: 'set', items: [] });
      case 0x90 /* ADDITEMS */: {
        const items = this.popMark();
        const s = this.top();
        if (!isRecord(s) || s.kind !== 'set') throw new Refused(`ADDITEMS at byte ${at} onto something that is not a set`);
        s.items.push(...items);
        this.grown(s, items);
        return;
      }
      case 0x91 /* FROZENSET */: {
        const items = this.popMark();
        return this.push(this.grown({ kind: 'set', items }, items));
      }
      case 0x63 /* GLOBAL */: {
        const module = this.line();
        return this.push(this.global(module, this.line()));
      }
      case 0x93 /* STACK_GLOBAL */: {
        const [module, name] = this.popN(2);
        if (typeof module !== 'string' || typeof name !== 'string') throw new Refused(`STACK_GLOBAL at byte ${at} without two strings`);
        return this.push(this.global(module, name));
      }
      case 0x52 /* REDUCE */: {
        const [callee, args] = this.popN(2);
        return this.push(this.construct(callee!, args!, undefined, at));
      }
      case 0x81 /* NEWOBJ */: {
        const [cls, args] = this.popN(2);
        return this.push(this.construct(cls!, args!, undefined, at));
      }
      case 0x92 /* NEWOBJ_EX */: {
        const [cls, args, kwargs] = this.popN(3);
        return this.push(this.construct(cls!, args!, kwargs, at));
      }
      case 0x6f /* OBJ */: {
        const [cls, ...args] = this.popMark();
        if (cls === undefined) throw new Refused(`OBJ at byte ${at} without a class`);
        return this.push(this.construct(cls, { kind: 'tuple', items: args }, undefined, at));
      }
      case 0x69 /* INST */: {
        const module = this.line();
        const cls = this.global(module, this.line());
        return this.push(this.construct(cls, { kind: 'tuple', items: this.popMark() }, undefined, at));
      }
      case 0x62 /* BUILD */: {
        const [state] = this.popN(1);
        const o = this.top();
        if (!isRecord(o) || o.kind !== 'object') throw new Refused(`BUILD at byte ${at} onto something that is not an object`);
        o.state = state;
        this.grown(o, [state!]);
        return;
      }
      case 0x70 /* PUT */:
        return this.put(this.textIndex(this.line()));
      case 0x71 /* BINPUT */:
        return this.put(this.u8());
      case 0x72 /* LONG_BINPUT */:
        return this.put(this.view.getUint32(this.take(4), true));
      case 0x94 /* MEMOIZE */:
        return this.put(this.memo.size);
      case 0x67 /* GET */:
        return this.get(this.textIndex(this.line()), at);
      case 0x68 /* BINGET */:
        return this.get(this.u8(), at);
      case 0x6a /* LONG_BINGET */:
        return this.get(this.view.getUint32(this.take(4), true), at);
      case 0x50 /* PERSID */:
      case 0x51 /* BINPERSID */:
        throw new Refused(`it refers to a persistent object (opcode at byte ${at}), which only its writer can resolve`);
      case 0x82 /* EXT1 */:
      case 0x83 /* EXT2 */:
      case 0x84 /* EXT4 */:
        throw new Refused(`it uses the copyreg extension registry (opcode at byte ${at})`);
      case 0x97 /* NEXT_BUFFER */:
      case 0x98 /* READONLY_BUFFER */:
        throw new Refused(`it refers to an out-of-band buffer (opcode at byte ${at})`);
      default:
        throw new Refused(`unknown pickle opcode 0x${op.toString(16).padStart(2, '0')} at byte ${at}`);
    }
  }

  private global(module: string, name: string): PickleGlobal {
    const g: PickleGlobal = { kind: 'global', module, name };
    this.globals.push(g);
    return g;
  }

  private construct(callee: PickleValue, args: PickleValue, kwargs: PickleValue | undefined, at: number): PickleObject {
    if (!isRecord(args) || args.kind !== 'tuple') throw new Refused(`an object built at byte ${at} without an argument tuple`);
    const o: PickleObject = { kind: 'object', callee, args: args.items };
    if (kwargs !== undefined) o.kwargs = kwargs;
    return this.grown(o, kwargs === undefined ? [callee, args] : [callee, args, kwargs]);
  }

  private appendTo(items: PickleValue[]): void {
    const t = this.top();
    if (Array.isArray(t)) t.push(...items);
    else if (isRecord(t) && t.kind === 'object') (t.listItems ??= []).push(...items);
    else throw new Refused(`APPEND at byte ${this.pos - 1} onto something that is not a list`);
    this.grown(t, items);
  }

  private setItems(entries: [PickleValue, PickleValue][]): void {
    const t = this.top();
    if (isRecord(t) && t.kind === 'dict') t.entries.push(...entries);
    else if (isRecord(t) && t.kind === 'object') (t.dictItems ??= []).push(...entries);
    else throw new Refused(`SETITEM at byte ${this.pos - 1} onto something that is not a dict`);
    this.grown(t, entries.flat());
  }

  /** Records `v`'s nesting depth from its children's, refusing past the bound (a self-appended list grows it each time). */
  private grown<T extends PickleValue>(v: T, children: PickleValue[]): T {
    let d = typeof v === 'object' && v !== null ? (this.depth.get(v) ?? 1) : 0;
    for (const c of children) if (typeof c === 'object' && c !== null) d = Math.max(d, (this.depth.get(c) ?? 1) + 1);
    if (d > this.limits.maxDepth) throw new Refused(`it nests values deeper than ${this.limits.maxDepth}`);
    if (typeof v === 'object' && v !== null) this.depth.set(v, d);
    return v;
  }

  private put(i: number): void {
    if (!this.memo.has(i) && this.memo.size >= this.limits.maxMemo) throw new Refused(`its memo grows past ${this.limits.maxMemo} entries`);
    this.memo.set(i, this.top());
  }

  private get(i: number, at: number): void {
    const v = this.memo.get(i);
    if (v === undefined) throw new Refused(`memo entry ${i} read at byte ${at} was never written`);
    this.push(v);
  }

  private push(v: PickleValue): void {
    this.stack.push(v);
  }

  private popSlot(): Slot {
    if (this.stack.length === 0) throw new Refused(`its stack underflows at byte ${this.pos - 1}`);
    return this.stack.pop()!;
  }

  private pop(): PickleValue {
    const v = this.popSlot();
    if (v === MARK) throw new Refused(`a MARK is used as a value at byte ${this.pos - 1}`);
    return v;
  }

  private top(): PickleValue {
    const v = this.stack[this.stack.length - 1];
    if (v === undefined || v === MARK) throw new Refused(`no value on the stack at byte ${this.pos - 1}`);
    return v;
  }

  private popN(n: number): PickleValue[] {
    const out: PickleValue[] = [];
    for (let i = 0; i < n; i++) out.unshift(this.pop());
    return out;
  }

  private popMark(): PickleValue[] {
    const i = this.stack.lastIndexOf(MARK);
    if (i < 0) throw new Refused(`no MARK to close at byte ${this.pos - 1}`);
    const items = this.stack.splice(i);
    items.shift();
    return items as PickleValue[];
  }

  private u8(): number {
    if (this.pos >= this.b.length) throw new Refused('it ends before its STOP opcode');
    return this.b[this.pos++]!;
  }

  private take(n: number): number {
    if (n > this.b.length - this.pos) throw new Refused(`it ends inside a ${n}-byte field at byte ${this.pos}`);
    const at = this.pos;
    this.pos += n;
    return at;
  }

  private len4(): number {
    return this.view.getUint32(this.take(4), true);
  }

  private len8(): number {
    const n = this.view.getBigUint64(this.take(8), true);
    if (n > BigInt(this.b.length)) throw new Refused(`a length of ${n} bytes at byte ${this.pos - 8}, past the file's end`);
    return Number(n);
  }

  private raw(n: number): Uint8Array {
    const at = this.take(n);
    return this.b.slice(at, at + n);
  }

  private utf8(n: number): string {
    const at = this.take(n);
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(this.b.subarray(at, at + n));
    } catch {
      throw new Refused(`a string at byte ${at} is not UTF-8`);
    }
  }

  private latin1(n: number): string {
    const at = this.take(n);
    return Buffer.from(this.b.subarray(at, at + n)).toString('latin1');
  }

  private line(): string {
    const end = this.b.indexOf(0x0a, this.pos);
    if (end < 0) throw new Refused(`a text field at byte ${this.pos} has no end of line`);
    const s = Buffer.from(this.b.subarray(this.pos, end)).toString('latin1');
    this.pos = end + 1;
    return s;
  }

  /** Two's complement little-endian integer of n bytes: a number when exact, else a bigint. */
  private long(n: number): number | bigint {
    const at = this.take(n);
    if (n === 0) return 0;
    let v = 0n;
    for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(this.b[at + i]!);
    if (this.b[at + n - 1]! & 0x80) v -= 1n << BigInt(8 * n);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }

  private textInt(s: string): number | bigint | boolean {
    if (s === '00') return false;
    if (s === '01') return true;
    if (!/^[-+]?\d{1,4300}$/.test(s)) throw new Refused(`INT ${JSON.stringify(s.slice(0, 40))} is not a whole number`);
    const v = BigInt(s);
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }

  private textFloat(s: string): number {
    const v = Number(s);
    if (s.trim() === '' || Number.isNaN(v)) throw new Refused(`FLOAT ${JSON.stringify(s.slice(0, 40))} is not a number`);
    return v;
  }

  private textIndex(s: string): number {
    if (!/^\d{1,9}$/.test(s)) throw new Refused(`memo index ${JSON.stringify(s.slice(0, 40))} is not a small whole number`);
    return Number(s);
  }
}

function pairs(items: PickleValue[]): [PickleValue, PickleValue][] {
  if (items.length % 2 !== 0) throw new Refused('a dict is given an odd number of keys and values');
  const out: [PickleValue, PickleValue][] = [];
  for (let i = 0; i < items.length; i += 2) out.push([items[i]!, items[i + 1]!]);
  return out;
}
