/**
 * Iterations of one run written as the dataset's partitions (docs/dataset.md), one iteration
 * at a time (its records read in file order through a bounded window), so memory is one
 * iteration's row group, not the log: by the calling thread, or by a worker for its share of
 * the iterations (`datasetPart.ts`).
 */
import { closeSync, mkdirSync, openSync, writeSync, writevSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { openLog } from '../../log/logFile';
import { buildSchemaTables } from '../../record/schema';
import { Collapse, classifyTurn, collapseOf, newTurnClass, recomputeSame } from '../../credit/turnMarks';
import { actionWindows } from '../../behaviour/windows';
import { inFileOrder, readRanges } from '../recordReader';
import type { RangeOrigin, RangeSource } from '../recordReader';
import type { ExportSink } from '../sink';
import { ParquetTable } from '../parquetTable';
import type { RowWriter } from '../parquetTable';
import type { ThreadOptions } from '../../log/threads/pool';
import { TRAJECTORY_COLUMNS, TURN_COLUMNS, markBits, writeTurnRow } from './tables';
import { RecordTurnsReader } from './recordTurns';
import type { DatasetColumn, DatasetIndex, TrajectoryEntry, TurnEntry } from './tables';

export interface DatasetOptions {
  signal?: AbortSignal;
  rowGroup?: number;
  /** the log's bytes when it is not a local file (a Hub log read in place) */
  origin?: RangeOrigin;
  onIteration?: (iteration: number, done: number, total: number) => void;
  /** the threads that write the partitions (a log read in place, from `origin`, is written on one) */
  threads?: ThreadOptions;
}

export interface DatasetResult {
  iterations: number;
  trajectories: number;
  turns: number;
}

interface ParquetFile<R> {
  table: ParquetTable<R>;
  close(): Promise<void>;
  destroy(): void;
}

/** a file up to this size is written whole at its end, by one call */
const HOLD = 8 << 20;
const DONE = Promise.resolve();

/**
 * A partition's file: its bytes held until it is complete (or larger than `HOLD`: then written
 * as they come), then written by synchronous calls, which cost less than a stream for the many
 * small files of a dataset.
 */
class FileSink implements ExportSink {
  private fd = -1;
  private held: Buffer[] = [];
  private size = 0;

  constructor(private readonly path: string) {}

  write(chunk: Buffer): Promise<void> {
    this.held.push(chunk);
    this.size += chunk.length;
    if (this.fd >= 0 || this.size > HOLD) this.drain();
    return DONE;
  }

  private drain(): void {
    if (this.fd < 0) this.fd = openSync(this.path, 'wx');
    writevAll(this.fd, this.held);
    this.held = [];
  }

  close(): void {
    this.drain();
    const fd = this.fd;
    this.fd = -1;
    closeSync(fd);
  }

  destroy(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/** Writes every byte of `chunks` (a short write is continued). */
function writevAll(fd: number, chunks: Buffer[]): void {
  let total = 0;
  for (const c of chunks) total += c.length;
  let done = writevSync(fd, chunks);
  if (done === total) return;
  for (const c of chunks) {
    if (done >= c.length) {
      done -= c.length;
      continue;
    }
    let at = done;
    while (at < c.length) at += writeSync(fd, c, at, c.length - at);
    done = 0;
  }
}

/** One table's partition files, one at a time, through one writer (its buffers reused from file to file). */
class TableFiles<R> {
  private table: ParquetTable<R> | undefined;

  constructor(
    private readonly cols: readonly DatasetColumn<R>[],
    private readonly rowGroup: number | undefined,
    private readonly rowWriter?: RowWriter<R>,
  ) {}

  open(path: string): ParquetFile<R> {
    const sink = new FileSink(path);
    if (this.table) this.table.restart(sink);
    else this.table = new ParquetTable(this.cols, sink, this.rowGroup, this.rowWriter);
    const table = this.table;
    return {
      table,
      close: async (): Promise<void> => {
        await table.finish();
        sink.close();
      },
      destroy: (): void => sink.destroy(),
    };
  }
}

/** The index's rows by iteration, the iterations in order, each one's rows in file order. */
export function rowsByIteration(index: DatasetIndex): Map<number, number[]> {
  const by = new Map<number, number[]>();
  const it = index.columns.iteration;
  for (let i = 0; i < index.size; i++) {
    const l = by.get(it[i]!);
    if (l) l.push(i);
    else by.set(it[i]!, [i]);
  }
  return new Map([...by].sort((a, b) => a[0] - b[0]));
}

/** The entry's id bytes for trajectory `id` (its turns' ids are written after it). */
function setTrajectoryId(e: TurnEntry, id: string): void {
  const n = Buffer.byteLength(id, 'utf8');
  if (e.idBytes.length < n + 24) e.idBytes = Buffer.alloc(n + 64);
  e.idBytes.write(id, 0, 'utf8');
  e.idBytes[n] = 0x2f;
  e.idLength = n;
  e.idView = e.idBytes.subarray(0, n);
}

/** A trajectory's (group, rollout) in its iteration as one number where both are small whole numbers (cheaper in a set than a text), else as text. */
function trajectoryKey(group: number, rollout: number): number | string {
  const small =
    Number.isInteger(group) && Number.isInteger(rollout) && group >= 0 && group < 2 ** 32 && rollout >= -1 && rollout < 2 ** 20 - 1;
  return small ? group * 2 ** 20 + rollout + 1 : `${group}/${rollout}`;
}

/** The partitions' folders of a run being written (`trajectories`, `turns`). */
export interface DatasetDirs {
  trajectories: string;
  turns: string;
}

interface Writers {
  trajectories: TableFiles<TrajectoryEntry>;
  turns: TableFiles<TurnEntry>;
  records: RecordTurnsReader;
  /** the log, opened once for all the iterations (none when it is read from `origin`) */
  log: FileHandle | undefined;
}

async function writeIteration(
  index: DatasetIndex,
  runId: string,
  iteration: number,
  rows: number[],
  dirs: DatasetDirs,
  files: Writers,
  o: DatasetOptions,
): Promise<{ trajectories: number; turns: number }> {
  const records = files.records;
  const c = index.columns;
  const src: RangeSource = { offset: (i) => c.offset[i]!, length: (i) => c.length[i]! };
  const part = `iteration=${iteration}`;
  mkdirSync(join(dirs.trajectories, part));
  mkdirSync(join(dirs.turns, part));
  const tf = files.trajectories.open(join(dirs.trajectories, part, 'part-0.parquet'));
  const uf = files.turns.open(join(dirs.turns, part, 'part-0.parquet'));
  const labels = index.hasLabeledTurns();
  const { credit, match } = index.options;
  const seen = new Set<number | string>();
  const windows = new Uint8Array(64);
  const turn: TurnEntry = {
    idBytes: Buffer.alloc(256),
    idLength: 0,
    idView: new Uint8Array(0),
    group: 0,
    rollout: 0,
    turn: undefined as never,
    index: 0,
    action: null,
    cls: newTurnClass(),
    windows: 0,
    collapsed: false,
    marks: 0,
  };
  try {
    const reader = readRanges(index.path, inFileOrder(rows, src), src, {
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.origin ? { origin: o.origin } : {}),
      ...(files.log ? { log: files.log } : {}),
    });
    for await (const { id: row, bytes } of reader) {
      o.signal?.throwIfAborted();
      const r = records.read(row, bytes);
      const group = c.group[row]!;
      const rollout = c.rollout[row]!;
      const key = `${runId}/${iteration}/${group}/${rollout}`;
      const k = trajectoryKey(group, rollout);
      const id = seen.has(k) ? `${key}#${c.line[row]}` : key;
      seen.add(k);
      const entry: TrajectoryEntry = { id, index, row, view: r, labels, tags: index.tags(row) };
      // a promise only when a row group went out (most rows cost no await)
      const full = tf.table.add(entry);
      if (full) await full;
      const A = c.A[row]!;
      const n = r.turns.length;
      // one classification a turn (the marks are its fields), the windows of section 7 over the trajectory
      const w = n <= windows.length ? windows.fill(0, 0, n) : new Uint8Array(n);
      actionWindows(r.actions, w);
      setTrajectoryId(turn, id);
      turn.group = group;
      turn.rollout = rollout;
      for (let k = 0; k < n; k++) {
        const t = r.turns[k]!;
        // the candidates matched once for the classification and the collapse
        t.sameRecomputed ??= recomputeSame(t.candidates, match);
        turn.turn = t;
        turn.index = k;
        turn.action = r.actionCell(k);
        classifyTurn(t, A, credit, match, turn.cls);
        turn.windows = w[k]!;
        turn.collapsed = collapseOf(t, match) === Collapse.Collapsed;
        turn.marks = markBits(turn);
        const group = uf.table.add(turn);
        if (group) await group;
      }
    }
    await tf.close();
    await uf.close();
  } catch (e) {
    tf.destroy();
    uf.destroy();
    throw e;
  }
  return { trajectories: tf.table.count, turns: uf.table.count };
}

/**
 * Writes the partitions of `iterations` (each with its rows, in file order) into `dirs`, one
 * iteration after another through one writer a table; `onIteration` after each.
 */
export async function writeIterations(
  index: DatasetIndex,
  runId: string,
  iterations: Iterable<[number, number[]]>,
  dirs: DatasetDirs,
  o: DatasetOptions,
  onIteration?: (iteration: number) => void,
): Promise<DatasetResult> {
  const out = { iterations: 0, trajectories: 0, turns: 0 };
  const files: Writers = {
    trajectories: new TableFiles(TRAJECTORY_COLUMNS, o.rowGroup),
    turns: new TableFiles(TURN_COLUMNS, o.rowGroup, writeTurnRow),
    records: new RecordTurnsReader(index, buildSchemaTables(index.options.mapping)),
    log: o.origin ? undefined : await openLog(index.path),
  };
  try {
    for (const [iteration, rows] of iterations) {
      const r = await writeIteration(index, runId, iteration, rows, dirs, files, o);
      out.iterations++;
      out.trajectories += r.trajectories;
      out.turns += r.turns;
      onIteration?.(iteration);
    }
  } finally {
    await files.log?.close();
  }
  return out;
}
