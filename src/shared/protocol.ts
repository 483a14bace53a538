/**
 * Messages between the extension host and the webviews: one union per direction,
 * imported by both bundles. Each host message is a complete snapshot (a hidden
 * webview keeps only the newest), never a delta.
 */

export type PanelKind = 'metrics' | 'trajectories' | 'report';

// ---- shared view models (plain data)

export interface SeriesView {
  name: string;
  group: string;
  /** decimated on the host; NaN (sent as null) marks a gap */
  x: number[];
  y: (number | null)[];
  target?: { value: number; label: string; kind: 'eq' | 'lt' | 'abs' | 'gt' };
}

/** Filters of the trajectory table; every one set must hold. */
export interface FilterView {
  iterationMin?: number;
  iterationMax?: number;
  group?: number;
  rollout?: number;
  reward?: 'success' | 'failure' | 'format';
  labeledOnly?: boolean;
  flags?: number;
  gate?: boolean;
  text?: string;
}

export interface SortView {
  key: string;
  descending?: boolean;
}

export interface QueryView {
  filter: FilterView;
  sort: SortView[];
}

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
  cRecomputed: number | null;
  At: number | null;
  extras: string | null;
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
  turns: TurnDetailView[];
  extras: string | null;
  group5: RowView[];
}

export interface ReportLineView {
  key: string;
  label: string;
  value: number | null;
  card: string;
  target: string;
  mark: 'pass' | 'near' | 'fail' | 'info' | 'none';
}

export interface ReportView {
  runName: string;
  figures: Record<string, unknown>;
  lines: ReportLineView[];
  curve: { name: string; first: number | null; last: number | null; source: string }[];
  gatePerIteration: { iteration: number; meanDiff: number | null; groups: number }[];
  schema: { field: string; level: string; required: boolean; foundAs: string; missing: number }[];
  notFound: string[];
  unknownKeys: string[];
  skipped: { line: number; message: string }[];
  skippedCount: number;
  mismatches: { row: number; iteration: number; group: number; rollout: number; c: number; aT: number }[];
  warnings: string[];
  beta: number;
  tau: number;
}

// ---- host -> webview

export interface MetricsDataMessage {
  type: 'metrics/data';
  runName: string;
  series: SeriesView[];
  iterations: number;
  /** pinned metric names, remembered per workspace */ pinned: string[];
}
export interface PageMessage {
  type: 'trajectories/page';
  runName: string;
  query: QueryView;
  total: number;
  offset: number;
  rows: RowView[];
  label: string | null;
  searching: boolean;
}
export interface DetailMessage {
  type: 'trajectories/detail';
  detail: TrajectoryDetailView;
}
export interface SelectMessage {
  type: 'trajectories/select';
  row: number;
  index: number;
}
export interface ReportDataMessage {
  type: 'report/data';
  report: ReportView;
}
export interface ErrorMessage {
  type: 'error';
  message: string;
}

export type HostMessage = MetricsDataMessage | PageMessage | DetailMessage | SelectMessage | ReportDataMessage | ErrorMessage;

// ---- webview -> host

export interface ReadyMessage {
  type: 'ready';
}
export interface ChartWidthMessage {
  type: 'metrics/width';
  width: number;
}
export interface PinMessage {
  type: 'metrics/pin';
  pinned: string[];
}
export interface OpenPointMessage {
  type: 'metrics/openPoint';
  metric: string;
  iteration: number;
}
export interface QueryMessage {
  type: 'trajectories/query';
  query: QueryView;
  offset: number;
  limit: number;
}
export interface OpenRowMessage {
  type: 'trajectories/open';
  row: number;
}
export interface RevealMessage {
  type: 'trajectories/reveal';
  row: number;
}
export interface OpenIterationMessage {
  type: 'report/openIteration';
  iteration: number;
  gate: boolean;
}
export interface OpenTrajectoryMessage {
  type: 'openTrajectory';
  iteration: number;
  group: number;
  rollout: number;
}
export interface OpenMetricsMessage {
  type: 'openMetrics';
}

export type WebviewMessage =
  | ReadyMessage
  | ChartWidthMessage
  | PinMessage
  | OpenPointMessage
  | QueryMessage
  | OpenRowMessage
  | RevealMessage
  | OpenIterationMessage
  | OpenTrajectoryMessage
  | OpenMetricsMessage;

/** State a panel keeps across reloads (`setState`, and the serializer). */
export interface PanelState {
  kind: PanelKind;
  root: string;
  query?: QueryView;
  selectedRow?: number;
  selected?: { iteration: number; group: number; rollout: number };
  scrollTop?: number;
  label?: string | null;
  search?: string;
  pinned?: string[];
  smoothing?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function isQuery(v: unknown): v is QueryView {
  if (!isObj(v) || !isObj(v['filter']) || !Array.isArray(v['sort'])) return false;
  const f = v['filter'];
  for (const k of ['iterationMin', 'iterationMax', 'group', 'rollout', 'flags'] as const)
    if (f[k] !== undefined && !isInt(f[k])) return false;
  if (f['reward'] !== undefined && !['success', 'failure', 'format'].includes(f['reward'] as string)) return false;
  for (const k of ['labeledOnly', 'gate'] as const) if (f[k] !== undefined && typeof f[k] !== 'boolean') return false;
  if (f['text'] !== undefined && (typeof f['text'] !== 'string' || f['text'].length > 500)) return false;
  return v['sort'].every(
    (s) => isObj(s) && typeof s['key'] === 'string' && (s['descending'] === undefined || typeof s['descending'] === 'boolean'),
  );
}

/** Checks a message from a webview; anything else is dropped (webviews show untrusted text). */
export function parseWebviewMessage(v: unknown): WebviewMessage | undefined {
  if (!isObj(v) || typeof v['type'] !== 'string') return undefined;
  switch (v['type']) {
    case 'ready':
      return { type: 'ready' };
    case 'openMetrics':
      return { type: 'openMetrics' };
    case 'metrics/width':
      return isNum(v['width']) && v['width'] > 0 ? { type: 'metrics/width', width: Math.min(10_000, Math.round(v['width'])) } : undefined;
    case 'metrics/pin':
      return Array.isArray(v['pinned']) && v['pinned'].length <= 1000 && v['pinned'].every((x) => typeof x === 'string' && x.length <= 500)
        ? { type: 'metrics/pin', pinned: v['pinned'] as string[] }
        : undefined;
    case 'metrics/openPoint':
      return typeof v['metric'] === 'string' && isInt(v['iteration'])
        ? { type: 'metrics/openPoint', metric: v['metric'], iteration: v['iteration'] }
        : undefined;
    case 'trajectories/query':
      return isQuery(v['query']) && isInt(v['offset']) && v['offset'] >= 0 && isInt(v['limit']) && v['limit'] > 0 && v['limit'] <= 1000
        ? { type: 'trajectories/query', query: v['query'], offset: v['offset'], limit: v['limit'] }
        : undefined;
    case 'trajectories/open':
      return isInt(v['row']) && v['row'] >= 0 ? { type: 'trajectories/open', row: v['row'] } : undefined;
    case 'trajectories/reveal':
      return isInt(v['row']) && v['row'] >= 0 ? { type: 'trajectories/reveal', row: v['row'] } : undefined;
    case 'report/openIteration':
      return isInt(v['iteration']) && typeof v['gate'] === 'boolean'
        ? { type: 'report/openIteration', iteration: v['iteration'], gate: v['gate'] }
        : undefined;
    case 'openTrajectory':
      return isInt(v['iteration']) && isInt(v['group']) && isInt(v['rollout'])
        ? { type: 'openTrajectory', iteration: v['iteration'], group: v['group'], rollout: v['rollout'] }
        : undefined;
    default:
      return undefined;
  }
}
