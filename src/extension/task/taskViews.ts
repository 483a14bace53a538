/** The task view's and the side-by-side view's view models, from core's task history and trajectory detail (pure; no vscode). */
import type { CreditIndex } from '../../core/log/creditIndex';
import type { TrajectoryView } from '../../core/record/trajectory';
import type { TaskHistory } from '../../core/compare/taskHistory';
import { alignTurns } from '../../core/compare/align';
import type { SideBySideView, SideView, TaskGroupView, TaskRunView } from '../../shared/protocol/task';
import { detailView } from '../trajectories/trajectoryViews';

const fin = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** One run's part of the task view: its groups with their rollouts (from the index columns) and its success per iteration. */
export function taskRunView(root: string, name: string, index: CreditIndex, h: TaskHistory): TaskRunView {
  const groups: TaskGroupView[] = h.groups.map((g) => ({
    iteration: g.iteration,
    group: g.group,
    success: g.success,
    labeled: g.labeled,
    rollouts: g.rows.map((row) => {
      const r = index.row(row);
      return { rollout: r.rollout, reward: fin(r.reward), A: fin(r.A), labeled: r.labeled, turns: r.turns };
    }),
  }));
  return {
    root,
    name,
    groups,
    perIteration: h.perIteration.map((i) => ({ iteration: i.iteration, counted: i.counted, success: i.success })),
    trajectories: h.trajectories,
    note: h.trajectories === 0 ? 'no trajectory of this task in this run' : null,
  };
}

/** A run the task view cannot show, and why. */
export function missingRunView(root: string, name: string, note: string): TaskRunView {
  return { root, name, groups: [], perIteration: [], trajectories: 0, note };
}

/** One side of the side-by-side view: the trajectory with every turn's candidates, c, A_t and marks (the browser's detail). */
export function sideView(root: string, runName: string, index: CreditIndex, row: number, t: TrajectoryView): SideView {
  const d = detailView(index, row, t);
  return {
    runName,
    root,
    iteration: d.iteration,
    group: d.group,
    rollout: d.rollout,
    line: d.line,
    taskId: d.taskId,
    instruction: d.instruction,
    reward: d.reward,
    A: d.A,
    labeled: d.labeled,
    hasCandidates: d.turns.some((u) => u.candidates.length >= 2),
    beta: d.beta,
    turns: d.turns,
  };
}

/** Both sides and the first turn where their executed actions differ (the left run's matching options). */
export function sideBySideView(
  left: SideView | string,
  right: SideView | string,
  match: CreditIndex['options']['match'] | undefined,
): SideBySideView {
  const l = typeof left === 'string' ? null : left;
  const r = typeof right === 'string' ? null : right;
  const rows = l && r ? alignTurns(l.turns, r.turns, match) : [];
  return {
    left: l,
    right: r,
    leftError: typeof left === 'string' ? left : null,
    rightError: typeof right === 'string' ? right : null,
    divergeAt: rows.find((x) => !x.same)?.index ?? null,
    sameAt: rows.map((x) => x.same),
  };
}
