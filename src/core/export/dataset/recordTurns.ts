/**
 * What the dataset's rows read of one record: its task texts, its turns and their actions. The
 * index's byte scanner reads a record without building its object tree (its numbers read exactly,
 * as JSON.parse reads them); a record it does not expect goes to `JSON.parse` and
 * `normaliseRecord`, which define the semantics, as in the index.
 */
import type { DatasetIndex } from './tables';
import { FastScanner } from '../../log/fastScan';
import { parseTolerant } from '../../log/tolerantJson';
import { normaliseRecord } from '../../record/trajectory';
import type { SchemaTables } from '../../record/schema';
import type { TurnInput } from '../../credit/turnMarks';
import { StringActions } from '../../behaviour/actionSeq';
import type { ActionSeq } from '../../behaviour/actionSeq';
import type { ByteActions } from '../../behaviour/byteActions';

export interface RecordTurns {
  taskId: string | null;
  instruction: string | null;
  turns: readonly TurnInput[];
  /** the turns' actions, for section 7's windows */
  actions: ActionSeq;
  /** turn k's action text (null: none) */
  action(k: number): string | null;
  /** turn k's action as a string cell: its UTF-8 (valid until the next call) read from an ASCII content, else its text */
  actionCell(k: number): string | Uint8Array | null;
}

/** An escape's byte: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` (0: not one of these). */
const UNESCAPED = new Uint8Array(128);
for (const [ch, byte] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['/', 0x2f],
  ['b', 8],
  ['f', 12],
  ['n', 10],
  ['r', 13],
  ['t', 9],
] as const)
  UNESCAPED[ch.charCodeAt(0)] = byte;

const hex = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1);

/**
 * The UTF-8 of the text of the JSON string content b[s, e), written into `out` from 0: its
 * length, or -1 when the content is not ASCII or holds a `\u` escape of a surrogate (the text
 * decides those). An ASCII content's text is its bytes with the escapes replaced.
 */
function asciiText(b: Buffer, s: number, e: number, out: Buffer): number {
  let o = 0;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c >= 0x80) return -1;
    if (c !== 0x5c) {
      out[o++] = c;
      continue;
    }
    const x = b[++i]!;
    if (x !== 0x75) {
      out[o++] = UNESCAPED[x]!;
      continue;
    }
    const u = (hex(b[i + 1]!) << 12) | (hex(b[i + 2]!) << 8) | (hex(b[i + 3]!) << 4) | hex(b[i + 4]!);
    i += 4;
    if (u < 0 || (u >= 0xd800 && u <= 0xdfff)) return -1;
    if (u < 0x80) out[o++] = u;
    else if (u < 0x800) {
      out[o++] = 0xc0 | (u >> 6);
      out[o++] = 0x80 | (u & 0x3f);
    } else {
      out[o++] = 0xe0 | (u >> 12);
      out[o++] = 0x80 | ((u >> 6) & 0x3f);
      out[o++] = 0x80 | (u & 0x3f);
    }
  }
  return o;
}

export class RecordTurnsReader {
  private readonly scanner: FastScanner;
  /** an action's UTF-8, valid until the next `actionCell` */
  private scratch = Buffer.alloc(1024);

  constructor(
    private readonly index: DatasetIndex,
    private readonly tables: SchemaTables,
    /** false: every record by the slow path (which the fast one must agree with) */
    private readonly fast = true,
  ) {
    this.scanner = new FastScanner(tables, index.options.match, true, true);
  }

  /** Record `row` of the index, whose bytes are `bytes`. */
  read(row: number, bytes: Buffer): RecordTurns {
    const s = this.scanner;
    let turns: TurnInput[];
    if (!this.fast) return this.slow(row, bytes);
    try {
      turns = s.scan(bytes, 0, bytes.length).turns;
    } catch {
      return this.slow(row, bytes);
    }
    const actions = s.actions as ByteActions;
    const actionCell = (k: number): string | Uint8Array | null => {
      const a = actions.start[k]!;
      const z = actions.end[k]!;
      if (a < 0) return null;
      // an escape is at least as long as its UTF-8, so the content's length bounds the text's
      if (this.scratch.length < z - a) this.scratch = Buffer.alloc(2 * (z - a));
      const n = asciiText(bytes, a, z, this.scratch);
      return n >= 0 ? this.scratch.subarray(0, n) : actions.action(k);
    };
    return { taskId: s.text('task_id'), instruction: s.text('instruction'), turns, actions, action: (k) => actions.action(k), actionCell };
  }

  private slow(row: number, bytes: Buffer): RecordTurns {
    const obj = parseTolerant(bytes.toString('utf8'));
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj))
      throw new Error(`${this.index.path}:${this.index.columns.line[row]}: the record changed on disk; index it again`);
    const v = normaliseRecord(obj as Record<string, unknown>, this.tables).view;
    const texts = v.turns.map((t) => t.action);
    return {
      taskId: v.taskId,
      instruction: v.instruction,
      turns: v.turns,
      actions: new StringActions(texts, this.index.options.match),
      action: (k) => texts[k] ?? null,
      actionCell: (k) => texts[k] ?? null,
    };
  }
}
