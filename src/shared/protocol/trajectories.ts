/** The trajectory browser's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, OpenTrajectoryMessage, RawMessage, ReadyMessage, TrajectoryKey } from '../protocol';
import type { TagName, TrajectoryQuery } from '../shapes';
import { isInt, isObj, isQuery, isRow, parseOpenTrajectory, rawMessage } from '../protocol';

/** Where the query's text was found in a row's trajectory: the field in words and the text around the hit. */
export interface TextMatchView {
  where: string;
  before: string;
  hit: string;
  after: string;
}

/** A row of the browser's table on the wire: core's `TrajectoryRow` as the presenter `rowView` maps it. */
export interface RowView {
  row: number;
  iteration: number;
  group: number;
  rollout: number;
  reward: number | null;
  A: number | null;
  labeled: boolean;
  turns: number;
  labeledTurns: number;
  meanC: number | null;
  signFlips: number;
  argmaxTurns: number;
  fallbackTurns: number;
  flags: number;
  /** its behaviour tags (docs/format.md section 7, with the run's horizon and theta), in `TAG_NAMES` order */
  tags: TagName[];
  /** with a text filter: where the text is (null: only in a field the browser does not show) */
  match?: TextMatchView | null;
}

export interface CandidateView {
  k: number;
  text: string | null;
  score: number | null;
  same: boolean;
  done: boolean;
  /** d_k as recomputed; null when dropped */
  d: number | null;
  dropped: 'done' | 'no-score' | null;
  isArgmax: boolean;
}

export interface TurnDetailView {
  index: number;
  action: string | null;
  labeled: boolean;
  masked: boolean;
  fallback: boolean;
  candidates: CandidateView[];
  /** logged c; null when absent */
  c: number | null;
  /** c as recomputed from the scores; null where no credit is given (unlabeled, masked, fallback) */
  cRecomputed: number | null;
  /** logged A_t; null when absent */
  At: number | null;
  /** A + beta*c (A without a logged c); null without a finite A */
  expectedAt: number | null;
  /** the logged c disagrees with the recomputation (the report's rule and tolerance) */
  cMismatch: boolean;
  /** the logged A_t disagrees with A + beta*c (the report's rule and tolerance) */
  aTMismatch: boolean;
  /** the marks of core's `turnMarks` (the same booleans as `rlrb show --json`) */
  signFlip: boolean;
  clipped: boolean;
  executedIsArgmax: boolean;
  /** section 7's turn marks: a turn of a repeat window, of a cycle window, a collapsed turn */
  repeat: boolean;
  cycle: boolean;
  collapsed: boolean;
  /** the tool name of the action ('' when it is not a call) */
  kind: string;
  extras: string | null;
}

/** One turn of a sibling, for the group view's columns. */
export interface SiblingTurnView {
  index: number;
  action: string | null;
  kind: string;
  c: number | null;
  At: number | null;
  masked: boolean;
  fallback: boolean;
  signFlip: boolean;
  cMismatch: boolean;
  aTMismatch: boolean;
  repeat: boolean;
  cycle: boolean;
  collapsed: boolean;
}

/** A rollout of the selected trajectory's group, with its turns. */
export interface SiblingView extends RowView {
  turnList: SiblingTurnView[];
}

/** The group's place in the gate (docs/format.md: succeeded minus failed labeled mean c). */
export interface GroupGateView {
  /** the group enters the gate (mixed rewards, a labeled succeeded and a labeled failed rollout) */
  counts: boolean;
  /** succeeded minus failed labeled mean c; null when the group does not count */
  diff: number | null;
  /** why it does not count, in words; null when it counts */
  reason: string | null;
}

export interface TrajectoryDetailView {
  row: number;
  line: number;
  iteration: number;
  group: number;
  rollout: number;
  taskId: string | null;
  instruction: string | null;
  reward: number | null;
  A: number | null;
  labeled: boolean;
  meanC: number | null;
  beta: number;
  /** its behaviour tags, as in its row */
  tags: TagName[];
  turns: TurnDetailView[];
  extras: string | null;
  group5: RowView[];
  /** the group's rollouts with their turns (empty when they were not read) */
  siblings: SiblingView[];
  /** the first turn index where the siblings' actions differ; null when they never do */
  divergeAt: number | null;
  gate: GroupGateView | null;
}

/** One eval episode in the table (the source `evalIteration`: docs/format.md section 8). */
export interface EpisodeRowView {
  /** its index among the evaluation log's counted episodes */
  episode: number;
  iteration: number;
  task: string;
  sample: number;
  reward: number;
  turns: number;
  /** its behaviour tags (section 7 from its actions and reward; never `collapsed` or `creditDisagrees`) */
  tags: TagName[];
  /** with a text filter: where the text is */
  match?: TextMatchView | null;
}

/** One turn of an eval episode: its action and section 7's marks; an eval episode has no candidates, c or A_t. */
export interface EpisodeTurnView {
  index: number;
  /** null when the turn logs none */
  action: string | null;
  kind: string;
  repeat: boolean;
  cycle: boolean;
}

/** An eval episode read back from its line, for the detail. */
export interface EpisodeDetailView extends EpisodeRowView {
  line: number;
  instruction: string | null;
  turnList: EpisodeTurnView[];
}

// ---- host -> webview

/** One page of the table, for the query it answers. */
export interface PageMessage {
  type: 'trajectories/page';
  runName: string;
  query: TrajectoryQuery;
  total: number;
  /** every trajectory of the run, filtered or not */
  size: number;
  offset: number;
  rows: RowView[];
  /** the source is a checkpoint's eval episodes (`filter.evalIteration`): its rows are these, `rows` is empty, `size` counts the source */
  episodes?: EpisodeRowView[];
  label: string | null;
  searching: boolean;
}
export interface DetailMessage {
  type: 'trajectories/detail';
  detail: TrajectoryDetailView;
}
export interface EpisodeMessage {
  type: 'trajectories/episode';
  episode: EpisodeDetailView;
}
/**
 * The remembered trajectory: its row (on eval episodes: the shown episode's index), and its place in
 * the table of `query` (-1: not in it). The query says which list it answers: the page may have set
 * another since.
 */
export interface SelectMessage {
  type: 'trajectories/select';
  query: TrajectoryQuery;
  row: number;
  index: number;
}

/** What the browser's share buttons and keys ask the host to do with a trajectory, a turn or the filter. */
export type ShareAction = 'copyLink' | 'openRaw' | 'export' | 'notebook';
export const SHARE_ACTIONS: readonly ShareAction[] = ['copyLink', 'openRaw', 'export', 'notebook'];
/** What a keyboard shortcut (a host command) asks the page to do. */
export type BrowserAction = ShareAction | 'nextTrajectory' | 'previousTrajectory' | 'nextTurn' | 'previousTurn' | 'toggleGroup';

/** A shortcut was pressed: the page acts on its selection (and answers a share action with a ShareMessage). */
export interface DoMessage {
  type: 'trajectories/do';
  action: BrowserAction;
}
/** Scroll the detail of `row` to turn `turn` (now, or once that detail arrives). */
export interface FocusTurnMessage {
  type: 'trajectories/focusTurn';
  row: number;
  turn: number;
}

/**
 * The host moved the browser (a jump from a chart or the report, a link, a tree item): the
 * page takes this query and label, and selects `select` when there is one. Pages follow.
 */
export interface NavigateMessage {
  type: 'trajectories/navigate';
  query: TrajectoryQuery;
  label: string | null;
  select: TrajectoryKey | null;
}

export type TrajectoriesHostMessage =
  NavigateMessage | PageMessage | DetailMessage | EpisodeMessage | SelectMessage | ErrorMessage | DoMessage | FocusTurnMessage;

// ---- webview -> host

export interface QueryMessage {
  type: 'trajectories/query';
  query: TrajectoryQuery;
  offset: number;
  limit: number;
  /** the page's own new query (a filter, a sort, a chip), not one more page of the same: a jump's label no longer names it */
  changed: boolean;
}
export interface OpenRowMessage {
  type: 'trajectories/open';
  row: number;
}
/** Open eval episode `episode` (an index of the evaluation log's episodes) in the detail. */
export interface OpenEpisodeMessage {
  type: 'trajectories/openEpisode';
  episode: number;
}
export interface RevealMessage {
  type: 'trajectories/reveal';
  row: number;
}
export interface OpenMetricsMessage {
  type: 'openMetrics';
}

/** Two siblings of the group view, to open side by side. */
export interface CompareMessage {
  type: 'trajectories/compare';
  a: TrajectoryKey;
  b: TrajectoryKey;
}

/** A share button or shortcut: the action, the shown trajectory and turn (if any), and the table's query. */
export interface ShareMessage {
  type: 'trajectories/share';
  action: ShareAction;
  key: TrajectoryKey | null;
  turn: number | null;
  query: TrajectoryQuery;
}

export type TrajectoriesWebviewMessage =
  | ReadyMessage
  | QueryMessage
  | OpenRowMessage
  | OpenEpisodeMessage
  | RevealMessage
  | OpenTrajectoryMessage
  | OpenMetricsMessage
  | ShareMessage
  | CompareMessage;

function parseKey(v: unknown): TrajectoryKey | null | undefined {
  if (v === null) return null;
  return isObj(v) && isRow(v['iteration']) && isRow(v['group']) && isRow(v['rollout'])
    ? { iteration: v['iteration'], group: v['group'], rollout: v['rollout'] }
    : undefined;
}

function parseShare(m: RawMessage): ShareMessage | undefined {
  const action = SHARE_ACTIONS.find((a) => a === m['action']);
  const key = parseKey(m['key']);
  const turn = m['turn'] === null || isRow(m['turn']) ? m['turn'] : undefined;
  if (!action || key === undefined || turn === undefined || !isQuery(m['query'])) return undefined;
  return { type: 'trajectories/share', action, key, turn, query: m['query'] };
}

function parse(m: RawMessage): TrajectoriesWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'openMetrics':
      return { type: 'openMetrics' };
    case 'trajectories/query':
      return isQuery(m['query']) &&
        isRow(m['offset']) &&
        isInt(m['limit']) &&
        m['limit'] > 0 &&
        m['limit'] <= 1000 &&
        typeof m['changed'] === 'boolean'
        ? { type: 'trajectories/query', query: m['query'], offset: m['offset'], limit: m['limit'], changed: m['changed'] }
        : undefined;
    case 'trajectories/open':
      return isRow(m['row']) ? { type: 'trajectories/open', row: m['row'] } : undefined;
    case 'trajectories/openEpisode':
      return isRow(m['episode']) ? { type: 'trajectories/openEpisode', episode: m['episode'] } : undefined;
    case 'trajectories/reveal':
      return isRow(m['row']) ? { type: 'trajectories/reveal', row: m['row'] } : undefined;
    case 'openTrajectory':
      return parseOpenTrajectory(m);
    case 'trajectories/share':
      return parseShare(m);
    case 'trajectories/compare': {
      const a = parseKey(m['a']);
      const b = parseKey(m['b']);
      return a && b ? { type: 'trajectories/compare', a, b } : undefined;
    }
    default:
      return undefined;
  }
}

/** The page's check of the host's navigate message (the label is shown as text, bounded), or undefined. */
export function parseNavigate(v: unknown): NavigateMessage | undefined {
  const m = rawMessage(v);
  if (!m || m.type !== 'trajectories/navigate' || !isQuery(m['query'])) return undefined;
  const label = m['label'];
  const select = parseKey(m['select']);
  if (!(label === null || (typeof label === 'string' && label.length <= 500)) || select === undefined) return undefined;
  return { type: 'trajectories/navigate', query: m['query'], label, select };
}

/** A message from the browser, checked; anything else is dropped. */
export function parseTrajectoriesMessage(v: unknown): TrajectoriesWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parse(m);
}
