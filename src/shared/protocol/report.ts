/** The run report's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, OpenTrajectoryMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, parseOpenTrajectory, rawMessage } from '../protocol';

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

export type ReportWebviewMessage = ReadyMessage | OpenIterationMessage | OpenTrajectoryMessage;

function parse(m: RawMessage): ReportWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'report/openIteration':
      return isInt(m['iteration']) && typeof m['gate'] === 'boolean'
        ? { type: 'report/openIteration', iteration: m['iteration'], gate: m['gate'] }
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
