/**
 * Each run's task column (core's `TaskColumn`: the task key of every row), one per
 * index and shared by every task view, brought up to date before each use: reading it
 * again after the log grew reads only the new rows. Updates of one column run one at a time.
 */
import type { CreditIndex } from '../../core/log/creditIndex';
import { TaskColumn } from '../../core/compare/taskColumn';
import { taskRowsOf } from '../../core/compare/taskHistory';
import type { TaskRows } from '../../core/compare/taskHistory';

interface Entry {
  column: TaskColumn;
  last: Promise<void>;
}

/** Keyed by the index itself: a run opened again (new settings) gets a new index, and its old column goes with the old one. */
const columns = new WeakMap<CreditIndex, Entry>();

/** The rows of a run's index with their task keys, read up to the index's last row. */
export async function taskRows(index: CreditIndex): Promise<TaskRows> {
  let e = columns.get(index);
  if (!e) columns.set(index, (e = { column: new TaskColumn(index), last: Promise.resolve() }));
  const entry = e;
  const next = entry.last.then(() => entry.column.update());
  entry.last = next.catch(() => undefined);
  await next;
  return taskRowsOf(entry.column);
}
