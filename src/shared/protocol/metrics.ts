/** The metrics dashboard's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, isNum, rawMessage } from '../protocol';

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
}

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
}

export type MetricsHostMessage = MetricsDataMessage | ErrorMessage;

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
/** A click on a chart: open the trajectories behind that point. */
export interface OpenPointMessage {
  type: 'metrics/openPoint';
  metric: string;
  iteration: number;
}

export type MetricsWebviewMessage = ReadyMessage | ChartWidthMessage | PinMessage | OpenPointMessage;

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
      return typeof m['metric'] === 'string' && isInt(m['iteration'])
        ? { type: 'metrics/openPoint', metric: m['metric'], iteration: m['iteration'] }
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
