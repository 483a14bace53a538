/**
 * What the dataset's rows read of one record: its task texts, its turns and their actions. The
 * index's byte scanner reads a record without building its object tree (its numbers read exactly,
 * as JSON.parse reads them); a record it does not expect goes to `JSON.parse` and
 * `normaliseRecord`, which define the semantics, as in the index.
 */
import type { CreditIndex } from '../../log/creditIndex';
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
  /** turn k's action as a string cell: its bytes as logged when they are ASCII without an escape, else its text */
  actionCell(k: number): string | Uint8Array | null;
}

/** b[s, e) is ASCII without a backslash: the JSON string's content is the UTF-8 of its text. */
function plainAscii(b: Buffer, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c >= 0x80 || c === 0x5c) return false;
  }
  return true;
}

export class RecordTurnsReader {
  private readonly scanner: FastScanner;

  constructor(
    private readonly index: CreditIndex,
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
      return plainAscii(bytes, a, z) ? bytes.subarray(a, z) : actions.action(k);
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
