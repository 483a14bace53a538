/**
 * A share of a run's dataset written by a worker thread (`indexWorker.js`): some iterations'
 * partitions, from their rows' index columns (copied: a worker holds no index) and what the
 * index derives of them (behaviour tags, counted), into the run's staging folders.
 */
import type { Columns } from '../../log/creditIndex';
import { withReadRoots } from '../../log/logFile';
import type { ThreadCpu } from '../../log/threads/cpu';
import type { DatasetIndex } from './tables';
import { rowsByIteration, writeIterations } from './writeIterations';
import type { DatasetDirs, DatasetResult } from './writeIterations';

export interface DatasetTask {
  /** tells the worker this is a dataset share, not a part of a log to index */
  dataset: true;
  path: string;
  runId: string;
  options: DatasetIndex['options'];
  dirs: DatasetDirs;
  /** the share's rows, iteration after iteration, each one's rows in file order */
  columns: Columns;
  /** each row's behaviour tags (`DatasetIndex.tags`) */
  tags: Uint32Array;
  /** 1: the row is counted (`DatasetIndex.counted`) */
  counted: Uint8Array;
  /** the run has labeled turns (`DatasetIndex.hasLabeledTurns`) */
  labels: boolean;
  rowGroup?: number | undefined;
  /** the read scope's roots (`withReadRoots`) the log is read in, if any */
  roots?: readonly string[] | undefined;
}

export interface DatasetPartResult extends DatasetResult {
  /** the worker's CPU time, its start included (undefined where the system does not say) */
  cpu?: ThreadCpu | undefined;
}

/** Some rows of an index, copied with what the index derives of them. */
export class RowsIndex implements DatasetIndex {
  readonly size: number;

  constructor(private readonly task: DatasetTask) {
    this.size = task.tags.length;
  }

  get path(): string {
    return this.task.path;
  }

  get options(): DatasetIndex['options'] {
    return this.task.options;
  }

  get columns(): Readonly<Columns> {
    return this.task.columns;
  }

  counted(i: number): boolean {
    return this.task.counted[i] === 1;
  }

  tags(i: number): number {
    return this.task.tags[i]!;
  }

  hasLabeledTurns(): boolean {
    return this.task.labels;
  }
}

type Share = Pick<DatasetTask, 'runId' | 'dirs' | 'rowGroup' | 'roots'>;

/** The task of writing rows `rows` of `index` (iteration after iteration, each one's rows in file order). */
export function datasetTask(index: DatasetIndex, rows: readonly number[], share: Share): DatasetTask {
  const src = index.columns;
  const columns: Partial<Record<keyof Columns, Columns[keyof Columns]>> = {};
  for (const k of Object.keys(src) as (keyof Columns)[]) {
    const from = src[k];
    const to = new (from.constructor as new (n: number) => typeof from)(rows.length);
    for (let i = 0; i < rows.length; i++) to[i] = from[rows[i]!]!;
    columns[k] = to;
  }
  const tags = new Uint32Array(rows.length);
  const counted = new Uint8Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    tags[i] = index.tags(rows[i]!);
    counted[i] = index.counted(rows[i]!) ? 1 : 0;
  }
  const { credit, match, mapping } = index.options;
  return {
    dataset: true,
    path: index.path,
    options: { credit, match, mapping },
    columns: columns as Columns,
    tags,
    counted,
    labels: index.hasLabeledTurns(),
    ...share,
  };
}

/** Writes a task's partitions (what a worker does with it). */
export function writeDatasetPart(task: DatasetTask): Promise<DatasetResult> {
  const index = new RowsIndex(task);
  const write = (): Promise<DatasetResult> =>
    writeIterations(index, task.runId, rowsByIteration(index), task.dirs, task.rowGroup !== undefined ? { rowGroup: task.rowGroup } : {});
  return task.roots ? withReadRoots(task.roots, write) : write();
}
