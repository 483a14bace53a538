/**
 * The two tables of the dataset (docs/dataset.md): `trajectories`, one row a trajectory, its
 * figures the index's own columns (so that section 4's and section 7's figures are sums over
 * them); and `turns`, one row a turn, classified and marked by the functions the report and the
 * trajectory view use. `run` and `iteration` are not columns: they are the Hive partitions.
 */
import type { Columns, IndexOptions } from '../../log/creditIndex';
import type { BehaviourTurnMarks, TurnClass, TurnInput } from '../../credit/turnMarks';
import { MARK_CYCLE, MARK_REPEAT } from '../../behaviour/actionSeq';
import { LABEL_TAGS } from '../../behaviour/tags';
import { Flag, TAG_NAMES } from '../../../shared/shapes';
import type { TagName } from '../../../shared/shapes';
import type { ParquetColumn, RowWriter } from '../parquetTable';

/** A column of the dataset's files, with what a reader is told it means (docs/dataset.md). */
export interface DatasetColumn<R> extends ParquetColumn<R> {
  about: string;
}

/**
 * What the dataset reads of a run's index: a `CreditIndex`, or some of its rows copied for
 * another thread (`RowsIndex`).
 */
export interface DatasetIndex {
  readonly path: string;
  readonly options: Pick<IndexOptions, 'credit' | 'match' | 'mapping'>;
  readonly columns: Readonly<Columns>;
  readonly size: number;
  /** counted by sections 6 and 7 */
  counted(i: number): boolean;
  /** its behaviour tags (`Tag` bits) */
  tags(i: number): number;
  hasLabeledTurns(): boolean;
}

export interface TrajectoryEntry {
  id: string;
  index: DatasetIndex;
  row: number;
  /** its texts as logged (null: absent) */
  view: { taskId: string | null; instruction: string | null };
  /** the run has labeled turns (else the label tags are unknown: null) */
  labels: boolean;
  /** its behaviour tags (`index.tags`), computed once for the dozen columns that read them */
  tags: number;
}

/** One turn; the writer reuses one entry for every turn (a column reads it at once). */
export interface TurnEntry {
  /** the trajectory's id as UTF-8, then `/` (its turns' ids start with it), and room for a turn's number */
  idBytes: Buffer;
  /** the id's length in `idBytes` */
  idLength: number;
  /** the id: `idBytes` up to `idLength`, a new view for each trajectory (its bytes never change once set) */
  idView: Uint8Array;
  group: number;
  rollout: number;
  turn: TurnInput;
  /** its place in the trajectory, from 0 */
  index: number;
  /** the executed action: its UTF-8 bytes as logged, or its text where it holds an escape or a non-ASCII byte */
  action: string | Uint8Array | null;
  cls: TurnClass;
  /** section 7's window marks of the turn (`MARK_REPEAT`, `MARK_CYCLE`) */
  windows: number;
  collapsed: boolean;
  /** its marks, a bit each (`markBits`) */
  marks: number;
}

const FLAG_NAMES = Object.entries(Flag).map(([k, bit]) => [k.charAt(0).toLowerCase() + k.slice(1), bit] as const);

/** The names (as UTF-8) of the bits set in `bits`, one array a set of bits (a list cell is read, never changed). */
function namesOf(names: readonly (readonly [string, number])[]): (bits: number) => readonly Uint8Array[] {
  const seen = new Map<number, readonly Uint8Array[]>();
  return (bits) => {
    let l = seen.get(bits);
    if (!l) seen.set(bits, (l = names.filter(([, bit]) => (bits & bit) !== 0).map(([n]) => Buffer.from(n, 'utf8'))));
    return l;
  };
}
const flagNames = namesOf(FLAG_NAMES);
const tagNames = namesOf(TAG_NAMES.map((n, k) => [n, 1 << k] as const));
const snake = (s: string): string => s.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

type T = DatasetColumn<TrajectoryEntry>;
const col = (e: TrajectoryEntry): DatasetIndex['columns'] => e.index.columns;
const num = (
  name: string,
  about: string,
  get: (c: DatasetIndex['columns'], i: number) => number,
  type: 'int' | 'int32' | 'float' = 'int32',
): T => ({
  name,
  type,
  about,
  get: (e) => get(col(e), e.row),
});

function tagColumn(name: TagName, bit: number): T {
  const label = (LABEL_TAGS as readonly string[]).includes(name);
  return {
    name: `tag_${snake(name)}`,
    type: 'bool',
    about: `section 7's \`${name}\`${label ? ' (null in a run without labeled turns)' : ''}`,
    get: (e) => (label && !e.labels ? null : (e.tags & bit) !== 0),
  };
}

export const TRAJECTORY_COLUMNS: readonly T[] = [
  { name: 'trajectory_id', type: 'string', about: 'run/iteration/group/rollout (#line when that key repeats)', get: (e) => e.id },
  num('line', 'the line of the credit log', (c, i) => c.line[i]!, 'int'),
  num('group', 'GRPO group', (c, i) => c.group[i]!, 'int'),
  num('rollout', 'rollout in the group', (c, i) => c.rollout[i]!, 'int'),
  {
    name: 'task',
    type: 'string',
    about: 'task_id, else instruction (the task key of section 6)',
    get: (e) => e.view.taskId ?? e.view.instruction,
  },
  { name: 'task_id', type: 'string', about: 'as logged', get: (e) => e.view.taskId },
  { name: 'instruction', type: 'string', about: 'as logged', get: (e) => e.view.instruction },
  num('reward', 'outcome; succeeded when > 0', (c, i) => c.reward[i]!, 'float'),
  num('A', 'group-normalised advantage', (c, i) => c.A[i]!, 'float'),
  {
    name: 'counted',
    type: 'bool',
    about: 'whole-number iteration and finite reward (counted by sections 6 and 7)',
    get: (e) => e.index.counted(e.row),
  },
  { name: 'labeled', type: 'bool', about: 'has a labeled turn', get: (e) => (col(e).flags[e.row]! & Flag.Labeled) !== 0 },
  num('turns', 'turns logged', (c, i) => c.turns[i]!),
  num('labeled_turns', 'turns with at least 2 scores', (c, i) => c.labeledTurns[i]!),
  num('masked_turns', 'labeled turns logged masked', (c, i) => c.maskedTurns[i]!),
  num('fallback_turns', 'fallback turns that are not masked', (c, i) => c.fallbackTurns[i]!),
  num('credited_turns', 'labeled, neither masked nor fallback', (c, i) => c.creditedTurns[i]!),
  num('flip_base', 'credited turns counted by the sign-flip rate', (c, i) => c.flipBase[i]!),
  num('sign_flips', 'sign-flipped turns', (c, i) => c.signFlips[i]!),
  num('argmax_turns', 'credited turns whose executed candidate scored highest', (c, i) => c.argmaxTurns[i]!),
  num('c_count', 'credited turns with a numeric logged c', (c, i) => c.cCount[i]!),
  num('sum_c', 'sum of c over those turns', (c, i) => c.sumC[i]!, 'float'),
  num('sum_c2', 'sum of c squared over those turns', (c, i) => c.sumC2[i]!, 'float'),
  num('mean_c', 'sum_c / c_count (null without)', (c, i) => (c.cCount[i]! > 0 ? c.sumC[i]! / c.cCount[i]! : NaN), 'float'),
  num('c_mismatches', 'credited turns whose logged c differs from the recomputed c', (c, i) => c.cMismatches[i]!),
  num('a_t_mismatches', 'turns whose A_t differs from A + beta*c', (c, i) => c.aTMismatches[i]!),
  num('collapsed_turns', 'collapsed turns (section 7)', (c, i) => c.collapsedTurns[i]!),
  num('compared_turns', 'credited turns with a non-empty comparison set', (c, i) => c.comparedTurns[i]!),
  {
    name: 'flags',
    type: { list: 'string' },
    about: 'the row flags set (signFlip, argmax, fallback, masked, ...)',
    get: (e) => flagNames(col(e).flags[e.row]!),
  },
  {
    name: 'tags',
    type: { list: 'string' },
    about: 'the behaviour tags it has',
    get: (e) => tagNames(e.tags),
  },
  ...TAG_NAMES.map((name, k) => tagColumn(name, 1 << k)),
];

type U = DatasetColumn<TurnEntry>;
const mark = (name: string, about: string, get: (e: TurnEntry) => boolean): U => ({ name, type: 'bool', about, get });

const MARK_NAMES: readonly (keyof BehaviourTurnMarks)[] = [
  'signFlip',
  'fallback',
  'clipped',
  'cMismatch',
  'aTMismatch',
  'executedIsArgmax',
  'masked',
  'repeat',
  'cycle',
  'collapsed',
];

/** Each mark's bit (`MARK_NAMES`' order). */
const BIT = Object.fromEntries(MARK_NAMES.map((m, k) => [m, 1 << k])) as Record<keyof BehaviourTurnMarks, number>;

/** The turn's marks as bits (bit k: `MARK_NAMES[k]`), computed once a turn for the columns that read them. */
export function markBits(e: TurnEntry): number {
  const c = e.cls;
  return (
    (c.signFlip ? BIT.signFlip : 0) |
    (c.fallback ? BIT.fallback : 0) |
    (c.clipped ? BIT.clipped : 0) |
    (c.cMismatch ? BIT.cMismatch : 0) |
    (c.aTMismatch ? BIT.aTMismatch : 0) |
    (c.executedIsArgmax ? BIT.executedIsArgmax : 0) |
    (c.masked ? BIT.masked : 0) |
    ((e.windows & MARK_REPEAT) !== 0 ? BIT.repeat : 0) |
    ((e.windows & MARK_CYCLE) !== 0 ? BIT.cycle : 0) |
    (e.collapsed ? BIT.collapsed : 0)
  );
}

const markNames = namesOf(MARK_NAMES.map((m, k) => [m, 1 << k] as const));
const markColumn = (m: keyof BehaviourTurnMarks, k: number): U =>
  mark(snake(m), `the turn mark \`${m}\``, (e) => (e.marks & (1 << k)) !== 0);

/** `trajectory_id/turn` as UTF-8, written after the id in the entry's buffer. */
function turnId(e: TurnEntry): Uint8Array {
  const b = e.idBytes;
  let at = e.idLength + 1;
  const digits = String(e.index);
  for (let i = 0; i < digits.length; i++) b[at++] = digits.charCodeAt(i);
  return b.subarray(0, at);
}

export const TURN_COLUMNS: readonly U[] = [
  { name: 'turn_id', type: 'string', about: 'trajectory_id/turn', get: turnId },
  { name: 'trajectory_id', type: 'string', about: 'the trajectory it belongs to', get: (e) => e.idView },
  { name: 'group', type: 'int', about: 'GRPO group', get: (e) => e.group },
  { name: 'rollout', type: 'int', about: 'rollout in the group', get: (e) => e.rollout },
  { name: 'turn', type: 'int32', about: 'its place in the trajectory, from 0', get: (e) => e.index },
  { name: 'action', type: 'string', about: 'the executed action', get: (e) => e.action },
  { name: 'scores', type: { list: 'float' }, about: 'candidate scores, [0] executed', get: (e) => e.turn.scores },
  { name: 'same', type: { list: 'bool' }, about: 'candidate k is the executed action', get: (e) => e.turn.same },
  { name: 'done', type: { list: 'bool' }, about: 'candidate k is a done action', get: (e) => e.turn.done },
  { name: 'c', type: 'float', about: 'logged credit (null: absent or null)', get: (e) => e.turn.c ?? null },
  { name: 'A_t', type: 'float', about: 'logged turn advantage', get: (e) => e.turn.At ?? null },
  { name: 'recomputed_c', type: 'float', about: 'c recomputed from the scores (section 3)', get: (e) => e.cls.recomputedC },
  mark('labeled', 'at least 2 scores', (e) => e.cls.labeled),
  mark('credited', 'labeled, neither masked nor fallback', (e) => e.cls.credited),
  mark('flip_counted', 'counted by the sign-flip rate', (e) => e.cls.flipCounted),
  mark('c_counted', 'credited with a numeric logged c', (e) => e.cls.cCounted),
  ...MARK_NAMES.map(markColumn),
  { name: 'marks', type: { list: 'string' }, about: 'the marks that hold', get: (e) => markNames(e.marks) },
];

/** The turn table's row writer: `TURN_COLUMNS`' cells, in their order, by the builders' typed methods. */
export const writeTurnRow: RowWriter<TurnEntry> = (e, b) => {
  const { cls, turn } = e;
  b[0]!.stringCell(turnId(e));
  b[1]!.bytesCell(e.idView);
  b[2]!.intCell(e.group);
  b[3]!.intCell(e.rollout);
  b[4]!.int32Cell(e.index);
  b[5]!.stringCell(e.action);
  b[6]!.floatList(turn.scores);
  b[7]!.boolList(turn.same);
  b[8]!.boolList(turn.done);
  b[9]!.floatCell(turn.c ?? null);
  b[10]!.floatCell(turn.At ?? null);
  b[11]!.floatCell(cls.recomputedC);
  b[12]!.boolCell(cls.labeled);
  b[13]!.boolCell(cls.credited);
  b[14]!.boolCell(cls.flipCounted);
  b[15]!.boolCell(cls.cCounted);
  const marks = e.marks;
  for (let k = 0; k < MARK_NAMES.length; k++) b[16 + k]!.boolCell((marks & (1 << k)) !== 0);
  b[16 + MARK_NAMES.length]!.stringList(markNames(marks));
};
