/** The run report's messages: one union per direction, checked on arrival. */
import type { ErrorMessage, OpenTrajectoryMessage, RawMessage, ReadyMessage } from '../protocol';
import { isInt, parseOpenTrajectory, rawMessage } from '../protocol';
import type { ReportFigures, TagName } from '../shapes';
import type { ReportVerdictView } from './reportVerdict';
import type { CreditDiagnosticsView } from './credit';
import type { VerdictConclusion } from './compareVerdict';

/**
 * The run's checkpoint verdict (docs/format.md section 8) against the baseline the setting
 * `rlRunBrowser.baseline` names, in core's words (verdictWords); A is this run, B the baseline.
 */
export interface CheckpointVerdictView {
  /** the run has an evaluation log */
  hasEvals: boolean;
  /** the baseline's name; null when no baseline is set */
  baseline: string | null;
  /** why the baseline set gives no verdict (no run there, its log unreadable, this run itself); '' otherwise */
  problem: string;
  /** the final checkpoint's conclusion (the sentence's colour); null without one */
  conclusion: VerdictConclusion | null;
  pooledConclusion: VerdictConclusion | null;
  /** the final checkpoint's sentence, leading with its conclusion (or why there is no verdict) */
  final: string;
  /** the pooled sentence ('' without a common checkpoint) */
  pooled: string;
  /** final and pooled conclude differently: both are the verdict */
  disagree: boolean;
}

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
  /** the first page of the gate's groups (docs/format.md section 4): the others on request (`report/queryGateGroups`) */
  gateGroups: GateGroupView[];
  /** how many groups the table lists in all (at most MAX_GATE_GROUPS) */
  gateGroupsListed: number;
  /** how many groups entered the gate in all */
  gateGroupCount: number;
  /** the sign-flip groups and the twin disagreements */
  verdict: ReportVerdictView;
  /** the checkpoint evaluations against the baseline */
  checkpointVerdict: CheckpointVerdictView;
  behaviour: ReportBehaviourView;
  /** the gate per iteration with its interval, c by outcome, the dose over training */
  credit: CreditDiagnosticsView;
}

/** One behaviour tag in the report (docs/format.md section 7, with the change over training). */
export interface BehaviourRowView {
  tag: TagName;
  label: string;
  meaning: string;
  /** null figures: a tag that needs labeled turns, in a run without any */
  count: number | null;
  rate: number | null;
  successTagged: number | null;
  successUntagged: number | null;
  /** the rate over the first 10 and the last 10 iterations' trajectories, and last minus first */
  first: number | null;
  last: number | null;
  change: number | null;
}

export interface ReportBehaviourView {
  trajectories: number;
  horizon: number;
  theta: number;
  collapsedTurnRate: number | null;
  rows: BehaviourRowView[];
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

/** The answer to `report/queryGateGroups`: the gate's groups from `offset` on. */
export interface ReportGateGroupsMessage {
  type: 'report/gateGroups';
  /** echoes the request, so the page drops an answer to a report it no longer shows */
  seq: number;
  offset: number;
  rows: GateGroupView[];
}

export type ReportHostMessage = ReportDataMessage | ReportGateGroupsMessage | ErrorMessage;

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

/** The gate groups' table scrolled to its end: the next page. */
export interface QueryGateGroupsMessage {
  type: 'report/queryGateGroups';
  seq: number;
  offset: number;
  limit: number;
}

/** The verdict's "Choose Baseline…": pick the run the checkpoint verdict is against. */
export interface ChooseBaselineMessage {
  type: 'report/chooseBaseline';
}

export type ReportWebviewMessage =
  | ReadyMessage
  | OpenIterationMessage
  | OpenTrajectoryMessage
  | OpenFigureMessage
  | OpenGateSideMessage
  | QueryGateGroupsMessage
  | ChooseBaselineMessage;

/** The gate groups the table lists at most (the JSON report holds them all). */
export const MAX_GATE_GROUPS = 2000;
/** The groups the report's first message holds, and the most one page may ask for. */
export const GATE_GROUP_PAGE = 100;

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
    case 'report/queryGateGroups': {
      const { seq, offset, limit } = m;
      return isInt(seq) && isInt(offset) && offset >= 0 && isInt(limit) && limit > 0 && limit <= GATE_GROUP_PAGE
        ? { type: 'report/queryGateGroups', seq, offset, limit }
        : undefined;
    }
    case 'report/chooseBaseline':
      return { type: 'report/chooseBaseline' };
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
