/**
 * What the editor shows of a followed run (docs/format.md section 10): the status-bar item, the
 * notification each event gets and where its Open goes, from the core's events; no `vscode` here.
 */
import { ALERT_CHECKS } from '../../core/live/liveEvent';
import type { AlertCheck, AlertEvent, LiveEvent, StaleEvent } from '../../core/live/liveEvent';
import { eventLine } from '../../core/live/eventText';
import { Flag } from '../../shared/shapes';
import { escapeNotification as esc } from '../text';

export const DEFAULT_FOLLOW_INTERVAL_S = 60;
export const MIN_FOLLOW_INTERVAL_S = 15;

/** What the status bar says of one followed run. */
export interface FollowState {
  name: string;
  /** the latest iteration whose trajectories are all in; null before one is */
  latest: number | null;
  /** the alerts of the latest iteration checked (muted checks left out): open until an iteration passes */
  openAlerts: AlertEvent[];
  stale: StaleEvent | undefined;
  /** why the last poll failed, when it did */
  error: string | undefined;
}

export const initialFollowState = (name: string): FollowState => ({
  name,
  latest: null,
  openAlerts: [],
  stale: undefined,
  error: undefined,
});

/** The state after a poll's events. */
export function applyEvents(s: FollowState, events: readonly LiveEvent[], muted: ReadonlySet<AlertCheck>): FollowState {
  let { latest, openAlerts, stale } = s;
  for (const e of events) {
    if (e.type === 'iteration' && (latest === null || e.iteration >= latest)) {
      latest = e.iteration;
      openAlerts = [];
      stale = undefined;
    } else if (e.type === 'alert' && !muted.has(e.check) && e.iteration === latest) openAlerts = [...openAlerts, e];
    else if (e.type === 'stale') stale = e;
  }
  return { ...s, latest, openAlerts, stale, error: undefined };
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** shown in the warning colour */
  warning: boolean;
}

export function statusView(s: FollowState): StatusView {
  const name = esc(s.name);
  const it = s.latest === null ? 'waiting for its first iteration' : `iteration ${s.latest}`;
  const lines = [`Following ${name}: ${it}`];
  for (const a of s.openAlerts) lines.push(esc(eventLine(a)));
  if (s.stale) lines.push(esc(eventLine(s.stale)));
  if (s.error !== undefined) lines.push(`The last poll failed: ${esc(s.error)}`);
  const warning = s.openAlerts.length > 0 || s.stale !== undefined;
  const icon = warning ? '$(warning)' : '$(pulse)';
  const shown = s.latest === null ? '…' : `it ${s.latest}`;
  return { text: `${icon} ${name.replace(/\$\(/g, '$ (')} ${shown}`, tooltip: lines.join('\n'), warning };
}

/** Where a notification's Open goes. */
export type OpenTarget =
  | { kind: 'trajectories'; iteration: number; flags?: number; label: string }
  | { kind: 'chart'; metric: string }
  | { kind: 'evaluation'; iteration: number };

export interface NotificationView {
  severity: 'info' | 'warning';
  message: string;
  open: OpenTarget | undefined;
}

/** The chart of the metrics log that shows a check's figure. */
const CHART_OF: Partial<Record<AlertCheck, string>> = { argmax: 'ws/executed_is_argmax', meanC: 'ws/c_mean' };

function alertTarget(a: AlertEvent): OpenTarget {
  if (a.check === 'signFlip')
    return { kind: 'trajectories', iteration: a.iteration, flags: Flag.SignFlip, label: `sign flips, iteration ${a.iteration}` };
  if (a.check === 'fallback')
    return { kind: 'trajectories', iteration: a.iteration, flags: Flag.Fallback, label: `fallback, iteration ${a.iteration}` };
  if (a.check === 'loggedDisagrees' && a.field !== undefined) return { kind: 'chart', metric: a.field };
  const metric = CHART_OF[a.check];
  return metric ? { kind: 'chart', metric } : { kind: 'trajectories', iteration: a.iteration, label: `iteration ${a.iteration}` };
}

/** The notification of one event (none for a new iteration: the status bar shows it; none for a muted check). */
export function notificationOf(e: LiveEvent, name: string, muted: ReadonlySet<AlertCheck>): NotificationView | undefined {
  const message = esc(`${name}: ${eventLine(e)}`);
  switch (e.type) {
    case 'iteration':
      return undefined;
    case 'checkpoint':
      return { severity: 'info', message, open: { kind: 'trajectories', iteration: e.iteration, label: `iteration ${e.iteration}` } };
    case 'evaluation':
      return { severity: 'info', message, open: { kind: 'evaluation', iteration: e.iteration } };
    case 'alert':
      return muted.has(e.check) ? undefined : { severity: 'warning', message, open: alertTarget(e) };
    case 'stale':
      return { severity: 'warning', message, open: undefined };
  }
}

/** `rlRunBrowser.followIntervalSeconds`: at least 15, 60 when unset or not a number. */
export function followInterval(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(MIN_FOLLOW_INTERVAL_S, v) : DEFAULT_FOLLOW_INTERVAL_S;
}

/** `rlRunBrowser.mutedChecks`: the checks named (untrusted: anything else is a one-line problem, skipped). */
export function mutedChecks(v: unknown): { muted: Set<AlertCheck>; problems: string[] } {
  const muted = new Set<AlertCheck>();
  const problems: string[] = [];
  if (v === undefined) return { muted, problems };
  if (!Array.isArray(v)) return { muted, problems: ['rlRunBrowser.mutedChecks: not a list; ignored'] };
  v.forEach((x, i) => {
    if (typeof x === 'string' && (ALERT_CHECKS as readonly string[]).includes(x)) muted.add(x as AlertCheck);
    else problems.push(`rlRunBrowser.mutedChecks[${i}]: not one of ${ALERT_CHECKS.join(', ')}; skipped`);
  });
  return { muted, problems };
}

/** One row of a followed run's open alerts (the status-bar item's quick pick). */
export interface AlertRow {
  label: string;
  /** where choosing it goes */
  description: string;
  target: OpenTarget | undefined;
}

function targetWords(t: OpenTarget): string {
  if (t.kind === 'chart') return `opens the chart of ${t.metric}`;
  if (t.kind === 'evaluation') return `opens the evaluation of iteration ${t.iteration}`;
  return `opens the trajectories: ${t.label}`;
}

/** The open alerts (muted ones are never open), then the stale note; empty when nothing is open. */
export function alertRows(s: FollowState): AlertRow[] {
  const rows: AlertRow[] = s.openAlerts.map((a) => {
    const target = alertTarget(a);
    return { label: `$(warning) ${esc(eventLine(a))}`, description: esc(targetWords(target)), target };
  });
  if (s.stale) rows.push({ label: `$(clock) ${esc(eventLine(s.stale))}`, description: 'opens the run report', target: undefined });
  return rows;
}
