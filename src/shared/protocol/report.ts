/** The run report's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, OpenTrajectoryMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, parseOpenTrajectory, rawMessage } from '../protocol';
import type { ReportFigures } from '../shapes';

export interface ReportLineView {
  key: string;
  label: string;
  value: number | null;
  card: string;
  target: string;
  mark: 'pass' | 'near' | 'fail' | 'info' | 'none';
  /** the rule behind the mark, in words ('' when there is none) */
  tolerance: string;
  quantity: 'rate' | 'count' | 'p' | 'signed' | 'plain';
}

export interface ReportView {
  runName: string;
  /** every figure of section 4: core's `RunReport`, the keys of `rlrb report --json` (one shape, src/shared/shapes.ts) */
  figures: ReportFigures;
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
  /** the gate's groups (run-format.md section 4), at most 2000 */
  gateGroups: GateGroupView[];
  /** how many groups entered the gate in all */
  gateGroupCount: number;
}

export interface GateGroupView {
  iteration: number;
  group: number;
  succeededMeanC: number;
  failedMeanC: number;
  diff: number;
  succeeded: number;
  failed: number;
}

// ---- host -> webview

export interface ReportDataMessage {
  type: 'report/data';
  report: ReportView;
}

export type ReportHostMessage = ReportDataMessage | ErrorMessage;

// ---- webview -> host

/** A bar of the gate chart: open that iteration's trajectories (its gate pairs when `gate`). */
export interface OpenIterationMessage {
  type: 'report/openIteration';
  iteration: number;
  gate: boolean;
}

/** A row of the report: open the turns behind it (see reportJumps.ts). */
export interface OpenFigureMessage {
  type: 'report/openFigure';
  key: string;
}

/** One side of a gate group's pair. */
export interface OpenGateSideMessage {
  type: 'report/openGateSide';
  iteration: number;
  group: number;
  side: 'succeeded' | 'failed';
}

export type ReportWebviewMessage = ReadyMessage | OpenIterationMessage | OpenTrajectoryMessage | OpenFigureMessage | OpenGateSideMessage;

function parse(m: RawMessage): ReportWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'report/openIteration':
      return isInt(m['iteration']) && typeof m['gate'] === 'boolean'
        ? { type: 'report/openIteration', iteration: m['iteration'], gate: m['gate'] }
        : undefined;
    case 'report/openFigure':
      return typeof m['key'] === 'string' && m['key'].length <= 100 ? { type: 'report/openFigure', key: m['key'] } : undefined;
    case 'report/openGateSide':
      return isInt(m['iteration']) && isInt(m['group']) && (m['side'] === 'succeeded' || m['side'] === 'failed')
        ? { type: 'report/openGateSide', iteration: m['iteration'], group: m['group'], side: m['side'] }
        : undefined;
    case 'openTrajectory':
      return parseOpenTrajectory(m);
    default:
      return undefined;
  }
}

/** A message from the report, checked; anything else is dropped. */
export function parseReportMessage(v: unknown): ReportWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parse(m);
}
