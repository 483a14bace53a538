/** The comparison panel's messages (two runs, docs/format.md section 6): one union per direction, checked on arrival. */
import type { ErrorMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, isObj, rawMessage } from '../protocol';
import type { VerdictTaskView, VerdictView } from './compareVerdict';
import { TAG_NAMES } from '../shapes';
import type { TagName } from '../shapes';
import type { CreditDiagnosticsView } from './credit';

/** What the comparison draws of a run's credit diagnostics: its gate per iteration and the gate in words. */
export type CompareCreditView = Pick<CreditDiagnosticsView, 'gate' | 'gateWords'>;

/** What the comparison panel keeps across reloads (`setState` and the serializer). */
export interface CompareState {
  kind: 'compare';
  rootA: string;
  rootB: string;
  /** run A again, so that the shared state helpers see a root */
  root: string;
  sort?: TaskSortView;
  text?: string;
  scrollTop?: number;
}

export type Quantity = 'rate' | 'count' | 'p' | 'signed' | 'plain';

/** One run of the pair. */
export interface CompareSideView {
  name: string;
  root: string;
  /** why its figures that need labeled turns are empty ('' when it has labeled turns) */
  unlabeled: string;
}

/** A figure of section 6: each run's value, their difference, its p value, and what it means in plain words. */
export interface CompareFigureView {
  key: string;
  label: string;
  quantity: Quantity;
  a: number | null;
  b: number | null;
  /** A minus B, or a single value of the pair (null when it has none) */
  diff: number | null;
  p: number | null;
  /** the figure read aloud; says why when the figure is empty */
  meaning: string;
}

/** One figure of section 4 for both runs. */
export interface CompareReportLineView {
  key: string;
  label: string;
  quantity: Quantity;
  card: string;
  target: string;
  a: number | null;
  b: number | null;
  markA: string;
  markB: string;
}

export interface CurveLineView {
  name: string;
  first: number | null;
  last: number | null;
  source: string;
}

export interface IterationPointView {
  iteration: number;
  successA: number;
  successB: number;
  diff: number;
}

/** One behaviour tag in a comparison (docs/format.md section 7): the rates, A minus B, p, and the line in words. */
export interface BehaviourLineView {
  tag: TagName;
  label: string;
  rateA: number | null;
  rateB: number | null;
  diff: number | null;
  p: number | null;
  words: string;
}

export interface CompareBehaviourView {
  /** on the training rollouts of the window */
  training: BehaviourLineView[];
  /** on the eval episodes, where both runs have evaluations; null otherwise */
  evals: BehaviourLineView[] | null;
  /** what the eval lines count, or why there are none */
  evalNote: string;
}

export interface CompareView {
  a: CompareSideView;
  b: CompareSideView;
  /** the window of common iterations: how many, the first and the last (null when none) */
  window: { iterations: number; first: number | null; last: number | null };
  figures: CompareFigureView[];
  warnings: string[];
  report: CompareReportLineView[];
  curveA: CurveLineView[];
  curveB: CurveLineView[];
  /** tasks in the per-task table: in both runs, in A only, in B only */
  taskCounts: { both: number; onlyA: number; onlyB: number };
  behaviour: CompareBehaviourView;
}

/** The charts' series, a point per common iteration: sent when the page asks, after it painted the figures. */
export interface CompareChartsView {
  perIteration: IterationPointView[];
  /** both runs' credit diagnostics over the window: their gates side by side */
  credit: { a: CompareCreditView; b: CompareCreditView };
}

export type TaskSortKeyView = 'task' | 'successA' | 'successB' | 'diff' | 'trajectoriesA' | 'trajectoriesB';

export const TASK_SORT_KEYS: readonly TaskSortKeyView[] = ['task', 'successA', 'successB', 'diff', 'trajectoriesA', 'trajectoriesB'];

export interface TaskSortView {
  key: TaskSortKeyView;
  descending: boolean;
}

export interface TaskRowView {
  task: string;
  successA: number | null;
  successB: number | null;
  diff: number | null;
  trajectoriesA: number;
  trajectoriesB: number;
}

// ---- host -> webview

export interface CompareDataMessage {
  type: 'compare/data';
  view: CompareView;
}

/** The charts of the last `compare/data`: the answer to `compare/queryCharts`, then after each `compare/data`. */
export interface CompareChartsMessage {
  type: 'compare/charts';
  charts: CompareChartsView;
}

/** A page of the per-task table under the query it answers. */
export interface CompareTasksMessage {
  type: 'compare/tasks';
  /** echoes the request, so the page drops answers to an older query */
  seq: number;
  total: number;
  offset: number;
  rows: TaskRowView[];
}

/** One line for the page to show (the link was copied, the task view is missing). */
export interface CompareNoticeMessage {
  type: 'compare/notice';
  message: string;
}

/** Section 8: the runs paired by checkpoint and task (sent after each `compare/data`). */
export interface CompareVerdictMessage {
  type: 'compare/verdict';
  verdict: VerdictView;
}

/** The answer to `compare/queryVerdictTasks`: that checkpoint's per-task rows, null when it is not a common checkpoint. */
export interface CompareVerdictTasksMessage {
  type: 'compare/verdictTasks';
  /** echoes the request, so the page drops an answer to a checkpoint picked before the last one */
  seq: number;
  iteration: number;
  rows: VerdictTaskView[] | null;
}

export type CompareHostMessage =
  | CompareDataMessage
  | CompareChartsMessage
  | CompareTasksMessage
  | CompareNoticeMessage
  | CompareVerdictMessage
  | CompareVerdictTasksMessage
  | ErrorMessage;

// ---- webview -> host

/** The page painted the figures: the host sends the charts' series now and after every `compare/data` from then on. */
export interface QueryChartsMessage {
  type: 'compare/queryCharts';
}

export interface QueryTasksMessage {
  type: 'compare/queryTasks';
  seq: number;
  sort: TaskSortView;
  text: string;
  offset: number;
  limit: number;
}

export interface OpenTaskMessage {
  type: 'compare/openTask';
  task: string;
}

/** The verdict's per-task table: this task's eval episodes at this checkpoint, in both runs. */
export interface OpenEvalTaskMessage {
  type: 'compare/openEvalTask';
  task: string;
  iteration: number;
}

/** The verdict's per-task table at another checkpoint: the host answers with `compare/verdictTasks`. */
export interface QueryVerdictTasksMessage {
  type: 'compare/queryVerdictTasks';
  seq: number;
  iteration: number;
}

export interface CopyLinkMessage {
  type: 'compare/copyLink';
}

/** A behaviour line's tag clicked: the host asks which run and opens its trajectories with the tag. */
export interface OpenTagMessage {
  type: 'compare/openTag';
  tag: TagName;
}

export type CompareWebviewMessage =
  | ReadyMessage
  | QueryChartsMessage
  | QueryTasksMessage
  | OpenTaskMessage
  | OpenEvalTaskMessage
  | QueryVerdictTasksMessage
  | CopyLinkMessage
  | OpenTagMessage;

export const MAX_TASK_PAGE = 1000;
const MAX_TEXT = 500;
/** a task key as long as a log may hold one; longer is refused */
const MAX_TASK = 64 * 1024;

export function isTaskSort(v: unknown): v is TaskSortView {
  return (
    isObj(v) &&
    typeof v['key'] === 'string' &&
    (TASK_SORT_KEYS as readonly string[]).includes(v['key']) &&
    typeof v['descending'] === 'boolean'
  );
}

const isTag = (s: string): s is TagName => (TAG_NAMES as readonly string[]).includes(s);

function parse(m: RawMessage): CompareWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'compare/queryCharts':
      return { type: 'compare/queryCharts' };
    case 'compare/queryTasks': {
      const { seq, sort, text, offset, limit } = m;
      if (!isInt(seq) || !isTaskSort(sort) || typeof text !== 'string' || text.length > MAX_TEXT) return undefined;
      if (!isInt(offset) || offset < 0 || !isInt(limit) || limit < 0 || limit > MAX_TASK_PAGE) return undefined;
      return { type: 'compare/queryTasks', seq, sort: { key: sort.key, descending: sort.descending }, text, offset, limit };
    }
    case 'compare/openTask':
      return typeof m['task'] === 'string' && m['task'].length <= MAX_TASK ? { type: 'compare/openTask', task: m['task'] } : undefined;
    case 'compare/openEvalTask':
      return typeof m['task'] === 'string' && m['task'].length <= MAX_TASK && isInt(m['iteration']) && m['iteration'] >= 0
        ? { type: 'compare/openEvalTask', task: m['task'], iteration: m['iteration'] }
        : undefined;
    case 'compare/queryVerdictTasks': {
      const { seq, iteration } = m;
      return isInt(seq) && isInt(iteration) && iteration >= 0 ? { type: 'compare/queryVerdictTasks', seq, iteration } : undefined;
    }
    case 'compare/copyLink':
      return { type: 'compare/copyLink' };
    case 'compare/openTag': {
      const tag = m['tag'];
      return typeof tag === 'string' && isTag(tag) ? { type: 'compare/openTag', tag } : undefined;
    }
    default:
      return undefined;
  }
}

/** A message from the comparison page, checked; anything else is dropped. */
export function parseCompareMessage(v: unknown): CompareWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parse(m);
}

/** A saved comparison state (from the webview or the host's memory), checked. */
export function parseCompareState(v: unknown): CompareState | undefined {
  if (!isObj(v) || typeof v['rootA'] !== 'string' || typeof v['rootB'] !== 'string' || v['rootA'] === '' || v['rootB'] === '')
    return undefined;
  const out: CompareState = { kind: 'compare', rootA: v['rootA'], rootB: v['rootB'], root: v['rootA'] };
  if (isTaskSort(v['sort'])) out.sort = { key: v['sort'].key, descending: v['sort'].descending };
  if (typeof v['text'] === 'string' && v['text'].length <= MAX_TEXT) out.text = v['text'];
  if (typeof v['scrollTop'] === 'number' && Number.isFinite(v['scrollTop']) && v['scrollTop'] >= 0) out.scrollTop = v['scrollTop'];
  return out;
}
