/**
 * One run into a Hive-partitioned Parquet dataset (docs/dataset.md):
 * `DIR/trajectories/run=<id>/iteration=<n>/part-0.parquet` and `DIR/turns/…`, its iterations
 * shared among threads (`datasetThreads.ts`) or written by the calling thread. The run's
 * partitions are written beside the dataset and moved in at the end: a failed export leaves
 * the run's previous partitions as they were.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { rowsByIteration, writeIterations } from './writeIterations';
import type { DatasetOptions, DatasetResult } from './writeIterations';
import type { DatasetIndex } from './tables';
import { writeInThreads } from './datasetThreads';

export const DATASET_TABLES = ['trajectories', 'turns'] as const;

/** A partition value: letters, digits, `.`, `_`, `-` (a Hive path segment every engine reads back as written). */
export const RUN_ID = /^[A-Za-z0-9._-]{1,200}$/;

/** Writes run `runId` (its index read) into the dataset at `dir`, replacing what it held of that run. */
export async function writeRunDataset(dir: string, runId: string, index: DatasetIndex, o: DatasetOptions = {}): Promise<DatasetResult> {
  if (!RUN_ID.test(runId)) throw new Error(`run id "${runId}" is not letters, digits, ".", "_" and "-"`);
  const staging = join(dir, `.staging-run=${runId}-${process.pid}`);
  const dirs = { trajectories: join(staging, 'trajectories'), turns: join(staging, 'turns') };
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    for (const t of DATASET_TABLES) await mkdir(dirs[t], { recursive: true });
    const by = rowsByIteration(index);
    let done = 0;
    const onIteration = (iteration: number): void => o.onIteration?.(iteration, ++done, by.size);
    const out =
      (await writeInThreads(index, runId, by, dirs, o, onIteration)) ?? (await writeIterations(index, runId, by, dirs, o, onIteration));
    for (const t of DATASET_TABLES) {
      const target = join(dir, t, `run=${runId}`);
      await mkdir(join(dir, t), { recursive: true });
      await rm(target, { recursive: true, force: true });
      await rename(dirs[t], target);
    }
    return out;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
