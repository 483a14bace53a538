/**
 * The task view's and the side-by-side view's messages and states: one union per
 * direction for each panel, checked on arrival (anything else is dropped).
 */
import type { ErrorMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, isObj, rawMessage } from '../protocol';
import type { TurnDetailView } from './trajectories';

/** One trajectory of a run, named by the run's root path. */
export interface RunTrajectoryKey {
  run: string;
  iteration: number;
  group: number;
  rollout: number;
}

/** What the task view keeps across reloads. */
export interface TaskPanelState {
  kind: 'task';
  /** the first run (the panel follows every run of `runs`) */
  root: string;
  task: string;
  /** run root paths, 1 or 2 */
  runs: string[];
}

/** What the side-by-side view keeps across reloads. */
export interface SideBySideState {
  kind: 'sideBySide';
  /** the left trajectory's run */
  root: string;
  left: RunTrajectoryKey;
  right: RunTrajectoryKey;
}

// ---- the task view

/** One rollout of a group, from the index. */
export interface TaskRolloutView {
  rollout: number;
  reward: number | null;
  A: number | null;
  labeled: boolean;
  turns: number;
}

export interface TaskGroupView {
  iteration: number;
  group: number;
  rollouts: TaskRolloutView[];
  /** succeeded over rollouts with a finite reward; null when none has one */
  success: number | null;
  labeled: number;
}

export interface TaskIterationView {
  iteration: number;
  counted: number;
  success: number | null;
}

export interface TaskRunView {
  root: string;
  name: string;
  groups: TaskGroupView[];
  perIteration: TaskIterationView[];
  trajectories: number;
  /** why the run shows nothing (not open, no credit log, still reading); null when it shows its groups */
  note: string | null;
}

export interface TaskView {
  task: string;
  /** the instruction of the task's first trajectory, when the task is keyed by its task_id (null otherwise) */
  instruction: string | null;
  runs: TaskRunView[];
}

export interface TaskViewMessage {
  type: 'task/view';
  view: TaskView;
}

export type TaskHostMessage = TaskViewMessage | ErrorMessage;

/** webview -> host: open one trajectory of run `run` (an index into the view's runs) in the trajectory browser. */
export interface TaskOpenMessage {
  type: 'task/open';
  run: number;
  iteration: number;
  group: number;
  rollout: number;
}

/** One side of a pair the page chose: a run index and a trajectory key. */
export interface TaskPick {
  run: number;
  iteration: number;
  group: number;
  rollout: number;
}

/** webview -> host: open two trajectories side by side. */
export interface TaskSideBySideMessage {
  type: 'task/sideBySide';
  left: TaskPick;
  right: TaskPick;
}

export type TaskWebviewMessage = ReadyMessage | TaskOpenMessage | TaskSideBySideMessage;

const isKey = (v: unknown): v is number => isInt(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
const isRunIndex = (v: unknown): v is number => v === 0 || v === 1;

function parsePick(v: unknown): TaskPick | undefined {
  if (!isObj(v)) return undefined;
  const { run, iteration, group, rollout } = v;
  return isRunIndex(run) && isKey(iteration) && isKey(group) && isKey(rollout) ? { run, iteration, group, rollout } : undefined;
}

function parseTask(m: RawMessage): TaskWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'task/open': {
      const p = parsePick(m);
      return p && { type: 'task/open', ...p };
    }
    case 'task/sideBySide': {
      const left = parsePick(m['left']);
      const right = parsePick(m['right']);
      return left && right ? { type: 'task/sideBySide', left, right } : undefined;
    }
    default:
      return undefined;
  }
}

/** A message from the task view, checked; anything else is dropped. */
export function parseTaskMessage(v: unknown): TaskWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parseTask(m);
}

// ---- two trajectories side by side

export interface SideView {
  runName: string;
  root: string;
  iteration: number;
  group: number;
  rollout: number;
  line: number;
  taskId: string | null;
  instruction: string | null;
  reward: number | null;
  A: number | null;
  labeled: boolean;
  /** some turn of this trajectory has candidates (at least 2 scores) */
  hasCandidates: boolean;
  beta: number;
  turns: TurnDetailView[];
}

export interface SideBySideView {
  left: SideView | null;
  right: SideView | null;
  /** why a side is missing (its run is not open, no such trajectory), by side */
  leftError: string | null;
  rightError: string | null;
  /** the first turn where the executed actions differ; null when they never do (or a side is missing) */
  divergeAt: number | null;
  /** per turn index (as many as the longer side has): both sides executed the same action there */
  sameAt: boolean[];
}

export interface SideBySideViewMessage {
  type: 'sideBySide/view';
  view: SideBySideView;
}

export type SideBySideHostMessage = SideBySideViewMessage | ErrorMessage;

/** webview -> host: open one side in the trajectory browser. */
export interface SideBySideOpenMessage {
  type: 'sideBySide/open';
  side: 'left' | 'right';
}

export type SideBySideWebviewMessage = ReadyMessage | SideBySideOpenMessage;

/** A message from the side-by-side view, checked; anything else is dropped. */
export function parseSideBySideMessage(v: unknown): SideBySideWebviewMessage | undefined {
  const m = rawMessage(v);
  if (!m) return undefined;
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type === 'sideBySide/open' && (m['side'] === 'left' || m['side'] === 'right')) return { type: 'sideBySide/open', side: m['side'] };
  return undefined;
}

// ---- the states, checked where they come back (the serializer, a command's arguments)

const isPath = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 4096;

/** A trajectory of a run: `{ run, iteration, group, rollout }`, or undefined. */
export function parseRunTrajectoryKey(v: unknown): RunTrajectoryKey | undefined {
  if (!isObj(v)) return undefined;
  const { run, iteration, group, rollout } = v;
  return isPath(run) && isKey(iteration) && isKey(group) && isKey(rollout) ? { run, iteration, group, rollout } : undefined;
}

/** A task key and 1 or 2 runs, or undefined. */
export function parseTaskState(v: unknown): TaskPanelState | undefined {
  if (!isObj(v) || v['kind'] !== 'task') return undefined;
  const { task, runs } = v;
  if (typeof task !== 'string' || task.length === 0 || task.length > 100_000) return undefined;
  if (!Array.isArray(runs) || runs.length < 1 || runs.length > 2 || !runs.every(isPath)) return undefined;
  return { kind: 'task', root: runs[0] as string, task, runs: [...runs] };
}

export function parseSideBySideState(v: unknown): SideBySideState | undefined {
  if (!isObj(v) || v['kind'] !== 'sideBySide') return undefined;
  const left = parseRunTrajectoryKey(v['left']);
  const right = parseRunTrajectoryKey(v['right']);
  return left && right ? { kind: 'sideBySide', root: left.run, left, right } : undefined;
}
