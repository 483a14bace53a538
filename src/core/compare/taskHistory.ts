/**
 * One task across training, from a run's index and its task column (no log re-read):
 * every group that holds the task at each iteration, with its rollouts' rows, rewards
 * and success, and the task's success per iteration. A task is its `task_id`, else its
 * `instruction` (section 6); a trajectory succeeded when its reward is a finite number
 * above 0, and a non-finite reward is not counted in a success rate.
 */
import { Flag } from '../../shared/shapes';
import type { TaskColumn } from './taskColumn';

/** The columns the history reads: the index's, and the task column's `task` and `tasks`. */
export interface TaskRows {
  size: number;
  iteration: ArrayLike<number>;
  group: ArrayLike<number>;
  rollout: ArrayLike<number>;
  reward: ArrayLike<number>;
  /** whether each row is a labeled trajectory */
  labeled: (row: number) => boolean;
  /** task id per row (index into `tasks`), -1 without a key */
  task: ArrayLike<number>;
  tasks: readonly string[];
}

/** One group of the task at one iteration. */
export interface TaskGroup {
  iteration: number;
  group: number;
  /** its rows, in rollout order */
  rows: number[];
  /** rollouts whose reward is finite */
  counted: number;
  succeeded: number;
  /** succeeded / counted; null when none is counted */
  success: number | null;
  /** labeled rollouts */
  labeled: number;
}

/** The task's success at one iteration (every group of it together). */
export interface TaskIteration {
  iteration: number;
  counted: number;
  succeeded: number;
  success: number | null;
}

export interface TaskHistory {
  task: string;
  /** ordered by iteration, then group */
  groups: TaskGroup[];
  /** ordered by iteration */
  perIteration: TaskIteration[];
  /** the task's trajectories, counted or not */
  trajectories: number;
}

/** The history of `task` in one run (empty when the run never saw it). */
export function taskHistory(r: TaskRows, task: string): TaskHistory {
  const id = r.tasks.indexOf(task);
  const byGroup = new Map<string, TaskGroup>();
  let trajectories = 0;
  if (id >= 0)
    for (let i = 0; i < r.size; i++) {
      if (r.task[i] !== id) continue;
      trajectories++;
      const iteration = r.iteration[i]!;
      const group = r.group[i]!;
      const key = `${iteration}/${group}`;
      let g = byGroup.get(key);
      if (!g) byGroup.set(key, (g = { iteration, group, rows: [], counted: 0, succeeded: 0, success: null, labeled: 0 }));
      g.rows.push(i);
      const reward = r.reward[i]!;
      if (Number.isFinite(reward)) {
        g.counted++;
        if (reward > 0) g.succeeded++;
      }
      if (r.labeled(i)) g.labeled++;
    }
  const groups = [...byGroup.values()].sort((a, b) => a.iteration - b.iteration || a.group - b.group);
  const perIteration: TaskIteration[] = [];
  for (const g of groups) {
    g.rows.sort((a, b) => r.rollout[a]! - r.rollout[b]! || a - b);
    g.success = g.counted > 0 ? g.succeeded / g.counted : null;
    let it = perIteration[perIteration.length - 1];
    if (it?.iteration !== g.iteration) perIteration.push((it = { iteration: g.iteration, counted: 0, succeeded: 0, success: null }));
    it.counted += g.counted;
    it.succeeded += g.succeeded;
  }
  for (const it of perIteration) it.success = it.counted > 0 ? it.succeeded / it.counted : null;
  return { task, groups, perIteration, trajectories };
}

/** A task of the pick list: its key and how many trajectories and iterations of a run hold it. */
export interface TaskCount {
  task: string;
  trajectories: number;
  iterations: number;
}

/** Every task of a run with its counts, most trajectories first (then by key). */
export function taskCounts(r: TaskRows): TaskCount[] {
  const n = new Array<number>(r.tasks.length).fill(0);
  const its = r.tasks.map(() => new Set<number>());
  for (let i = 0; i < r.size; i++) {
    const t = r.task[i]!;
    if (t < 0) continue;
    n[t]!++;
    its[t]!.add(r.iteration[i]!);
  }
  return r.tasks
    .map((task, t) => ({ task, trajectories: n[t]!, iterations: its[t]!.size }))
    .filter((c) => c.trajectories > 0)
    .sort((a, b) => b.trajectories - a.trajectories || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0));
}

/** The rows of a run: its index's columns and its task column (read it first: `column.update()`). */
export function taskRowsOf(column: TaskColumn): TaskRows {
  const c = column.index.columns;
  return {
    size: Math.min(column.size, column.index.size),
    iteration: c.iteration,
    group: c.group,
    rollout: c.rollout,
    reward: c.reward,
    labeled: (row) => (c.flags[row]! & Flag.Labeled) !== 0,
    task: column.task,
    tasks: column.tasks,
  };
}
