/** The metrics dashboard's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, PanelState, RawMessage, ReadyMessage } from '../protocol';
import { isInt, isNum, rawMessage } from '../protocol';
import type { JudgementView, TwinSeriesView } from './metricsVerdict';

export interface SeriesView {
  name: string;
  group: string;
  /** decimated on the host; NaN (sent as null) marks a gap */
  x: number[];
  y: (number | null)[];
  target?: { value: number; label: string; kind: 'eq' | 'lt' | 'abs' | 'gt'; tol?: number };
  /** iterations of the table, before decimation */
  total: number;
  /** of those, how many have no finite value (missing, null, NaN, Infinity): counted before decimation */
  gaps: number;
  /** the last finite value and its iteration */
  last: { x: number; y: number } | null;
  /** with a target: whether the last value meets it */
  lastMeets?: boolean;
  /** with a target: indexes into x / y of the points that miss it */
  off?: number[];
  /** the primary run has no such metric (x and y are empty): the chart holds only overlaid runs' lines */
  absent?: boolean;
  /** the overlaid runs' lines of this chart, in the order of `MetricsDataMessage.runs` (runs without the metric left out) */
  lines?: RunLine[];
  /** with overlaid runs: the runs (roots) that have this metric, when not all of them do */
  onlyIn?: string[];
  /** with a card target: the primary run's judgement over the whole run (as the report's) */
  judgement?: JudgementView;
  /** a mechanism figure: its recomputed twin (the primary run's) */
  twin?: TwinSeriesView;
  /**
   * the line is a card diagnostic's recomputed twin (report perIteration `twin`), charted because the metrics log does not
   * log it or logs no finite value of it
   */
  recomputed?: { twin: string; why: 'not logged' | 'no finite value logged' };
  /** the log has no finite value of this metric and nothing recomputes it: the card says so and judges nothing */
  noFiniteValue?: boolean;
  /** the Evaluation chart: per point its tasks and 95% interval (a point offers its checkpoint's download) */
  evalPoints?: EvalPointsView;
}

/** Per point of an eval-success line (index as x / y): the checkpoint's tasks, episodes, and 95% interval (null: under two tasks). */
export interface EvalPointsView {
  tasks: number[];
  samples: number[];
  lo: (number | null)[];
  hi: (number | null)[];
}

/** One overlaid run's line on a chart: its own metric name (it may be an equivalent one), decimated like the primary's. */
export interface RunLine {
  run: string;
  metric: string;
  x: number[];
  y: (number | null)[];
  total: number;
  gaps: number;
  last: { x: number; y: number } | null;
  lastMeets?: boolean;
  off?: number[];
  evalPoints?: EvalPointsView;
}

/** A run on the dashboard: the primary one first, then the overlaid ones. */
export interface RunView {
  root: string;
  name: string;
  /** index into the dashboard's palette; kept per run across reloads */
  color: number;
  primary: boolean;
  /** what the run cannot show (no metrics log, not found), else absent */
  problem?: string;
  /** how many metrics only this run has */
  onlyHere: number;
}

/** A run overlaid on the dashboard, as the panel's state keeps it. */
export interface OverlayEntry {
  root: string;
  color: number;
}

/** The dashboard's panel state: the common one plus its overlaid runs and the runs toggled off. */
export interface MetricsPanelState extends PanelState {
  overlay?: OverlayEntry[];
  /** when the host last changed `overlay` (ms): a restore takes the fresher of the page's and the host's copy */
  overlayAt?: number;
  hiddenRuns?: string[];
}

/** At most this many runs overlaid on the primary one (each needs its own colour). */
export const MAX_OVERLAY = 5;

// ---- host -> webview

export interface MetricsDataMessage {
  type: 'metrics/data';
  runName: string;
  series: SeriesView[];
  iterations: number;
  /** the first and last iteration of the table: the charts' x axis spans exactly these */
  xRange: { min: number; max: number } | null;
  /** pinned metric names, remembered per workspace */
  pinned: string[];
  /** with overlaid runs: every run, the primary first (absent: one run, as before) */
  runs?: RunView[];
  /** the overlaid runs as the host keeps them, for the page's saved state */
  overlay?: OverlayEntry[];
  overlayAt?: number;
  /** metrics the log has and the host did not chart (its cap, `MAX_CHARTS`): the page says so on one line */
  more: number;
}

/** A link named this metric: the page scrolls to its chart and highlights it briefly. */
export interface FocusMetricMessage {
  type: 'metrics/focus';
  metric: string;
}

export type MetricsHostMessage = MetricsDataMessage | FocusMetricMessage | ErrorMessage;

/** A `metrics/focus` message, checked on the page's side; anything else is undefined. */
export function parseFocusMetric(v: unknown): FocusMetricMessage | undefined {
  const m = rawMessage(v);
  return m?.type === 'metrics/focus' && isShortString(m['metric']) ? { type: 'metrics/focus', metric: m['metric'] } : undefined;
}

// ---- webview -> host

/** The width one chart has: the host decimates for it. */
export interface ChartWidthMessage {
  type: 'metrics/width';
  width: number;
}
export interface PinMessage {
  type: 'metrics/pin';
  pinned: string[];
}
/** A click on a chart: open the trajectories behind that point (of `run`, else of the primary run). */
export interface OpenPointMessage {
  type: 'metrics/openPoint';
  metric: string;
  iteration: number;
  run?: string;
}
/** "Add run...": the host asks which local runs to overlay. */
export interface AddRunMessage {
  type: 'metrics/addRun';
}
export interface RemoveRunMessage {
  type: 'metrics/removeRun';
  run: string;
}
/** "Copy Link" on a chart: the host puts a link to this metric of `run` on the clipboard. */
export interface CopyLinkMessage {
  type: 'metrics/copyLink';
  metric: string;
  run: string;
}

export type MetricsWebviewMessage =
  ReadyMessage | ChartWidthMessage | PinMessage | OpenPointMessage | AddRunMessage | RemoveRunMessage | CopyLinkMessage;

const isShortString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 4096;

const isPinList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'string' && x.length <= 500);

function parse(m: RawMessage): MetricsWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'metrics/width':
      return isNum(m['width']) && m['width'] > 0 ? { type: 'metrics/width', width: Math.min(10_000, Math.round(m['width'])) } : undefined;
    case 'metrics/pin':
      return isPinList(m['pinned']) ? { type: 'metrics/pin', pinned: m['pinned'] } : undefined;
    case 'metrics/openPoint':
      if (typeof m['metric'] !== 'string' || !isInt(m['iteration'])) return undefined;
      if (m['run'] !== undefined && !isShortString(m['run'])) return undefined;
      return {
        type: 'metrics/openPoint',
        metric: m['metric'],
        iteration: m['iteration'],
        ...(isShortString(m['run']) ? { run: m['run'] } : {}),
      };
    case 'metrics/addRun':
      return { type: 'metrics/addRun' };
    case 'metrics/removeRun':
      return isShortString(m['run']) ? { type: 'metrics/removeRun', run: m['run'] } : undefined;
    case 'metrics/copyLink':
      return isShortString(m['metric']) && isShortString(m['run'])
        ? { type: 'metrics/copyLink', metric: m['metric'], run: m['run'] }
        : undefined;
    default:
      return undefined;
  }
}

/** A message from the dashboard, checked; anything else is dropped. */
export function parseMetricsMessage(v: unknown): MetricsWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parse(m);
}
