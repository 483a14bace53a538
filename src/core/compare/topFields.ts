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
import { BS, ByteCursor, COLON, COMMA, LB, LS, Q, RB, RS, ScanError } from '../log/byteCursor';

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

/** How the last record's task key was found. */
export const enum TaskKind {
  None = 0,
  /** a string without escapes: its bytes are `buf[taskStart, taskEnd)` */
  Bytes = 1,
  /** any other value: `taskText` */
  Text = 2,
}

export class TopFieldReader extends ByteCursor {
  /** names of the wanted fields, by their length in bytes */
  private readonly byLength: (Name[] | undefined)[] = [];
  private readonly rank = new Float64Array(3);
  private readonly vs = new Int32Array(3);
  private readonly ve = new Int32Array(3);
  /** the last record's fields, set by `read` */
  iteration = NaN;
  taskKind: TaskKind = TaskKind.None;
  taskStart = 0;
  taskEnd = 0;
  taskText: string | null = null;

  constructor(private readonly tables: SchemaTables) {
    super();
    const t = tables.trajectory;
    for (const [name, field] of t.byName) {
      const slot = WANTED.indexOf(field as Wanted);
      if (slot < 0) continue;
      const bytes = Buffer.from(name, 'utf8');
      (this.byLength[bytes.length] ??= []).push({ slot, rank: t.names.get(field)!.indexOf(name), bytes });
    }
  }

  /** Reads buf[start, end) into the fields above; falls back to \`JSON.parse\` on anything the byte reader does not expect. */
  read(buf: Buffer, start: number, end: number): void {
    try {
      this.scan(buf, start, end);
    } catch {
      const f = this.slow(buf.toString('utf8', start, end));
      this.iteration = f.iteration;
      this.setText(f.task);
    }
  }

  /** The same, as a value (for tests and single records). */
  fields(buf: Buffer, start: number, end: number): TopFields {
    this.read(buf, start, end);
    const task = this.taskKind === TaskKind.Bytes ? buf.toString('utf8', this.taskStart, this.taskEnd) : this.taskText;
    return { iteration: this.iteration, task };
  }

  private setText(task: string | null): void {
    this.taskKind = task === null ? TaskKind.None : TaskKind.Text;
    this.taskText = task;
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

  private scan(buf: Buffer, start: number, end: number): void {
    this.at(buf, start, end);
    const rank = this.rank;
    rank.fill(Infinity);
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
        this.p = ke + 1;
        this.ws();
        if (buf[this.p] !== COLON) throw new ScanError('expected :');
        this.p++;
        this.ws();
        const vs = this.p;
        this.skipValue();
        const name = this.lookup(ks, ke);
        if (name === undefined) {
          // an escaped key may spell a wanted name: the slow path decides
          for (let i = ks; i < ke; i++) if (buf[i] === BS) throw new ScanError('escaped key');
        } else if (name.rank < rank[name.slot]!) {
          rank[name.slot] = name.rank;
          this.vs[name.slot] = vs;
          this.ve[name.slot] = this.p;
          if (rank[0] === 0 && rank[1] === 0 && !this.noKey(vs, this.p)) break;
        }
        this.ws();
        const ch = buf[this.p++];
        if (ch === COMMA) continue;
        if (ch === RB) break;
        throw new ScanError('expected , or }');
      }
    }
    this.iteration = rank[0] === Infinity ? NaN : this.iterationAt(this.vs[0]!, this.ve[0]!);
    this.taskKind = TaskKind.None;
    this.taskText = null;
    if (rank[1] !== Infinity) this.keyAt(this.vs[1]!, this.ve[1]!);
    if (this.taskKind === TaskKind.None && rank[2] !== Infinity) this.keyAt(this.vs[2]!, this.ve[2]!);
  }

  /** `""` or `null`: a task_id that names no task, so the instruction is still wanted */
  private noKey(s: number, e: number): boolean {
    const b = this.b;
    return (e - s === 2 && b[s] === Q) || (e - s === 4 && b[s] === 0x6e);
  }

  private lookup(ks: number, ke: number): Name | undefined {
    const list = this.byLength[ke - ks];
    if (list === undefined) return undefined;
    const b = this.b;
    outer: for (const n of list) {
      for (let i = 0; i < n.bytes.length; i++) if (n.bytes[i] !== b[ks + i]) continue outer;
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

  /** Sets the task fields from the value at [s, e), unless it names no task. */
  private keyAt(s: number, e: number): void {
    const b = this.b;
    if (b[s] === Q) {
      let escaped = false;
      for (let i = s + 1; i < e - 1; i++)
        if (b[i] === BS) {
          escaped = true;
          break;
        }
      if (!escaped) {
        if (e - s > 2) {
          this.taskKind = TaskKind.Bytes;
          this.taskStart = s + 1;
          this.taskEnd = e - 1;
        }
        return;
      }
    }
    const k = taskKey(this.parsed(s, e));
    if (k !== null) this.setText(k);
  }

  private parsed(s: number, e: number): unknown {
    try {
      return parseTolerant(this.b.toString('utf8', s, e));
    } catch {
      return undefined;
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
