/**
 * The part of the host <-> webview protocol every panel shares: the panel kinds, the
 * state a panel keeps across reloads, the trajectory query (the commands, the jumps and
 * the browser all speak it), the few messages every panel sends or gets, and the checks
 * that messages from a webview go through. Each panel's own messages live in
 * `protocol/<panel>.ts`: one union per direction, checked on arrival. Each host message
 * is a complete snapshot (a hidden webview keeps only the newest), never a delta.
 */

import type { SortKey, TagName, TrajectoryQuery } from './shapes';
import { REWARD_FILTERS, SORT_KEYS, TAG_NAMES } from './shapes';

export type PanelKind = 'metrics' | 'trajectories' | 'report';

// ---- the trajectory query: its one shape is in shapes.ts (the engine, the presenters and the pages all speak it)

/** Where a trajectory is, in words a person (and a link) can use. */
export interface TrajectoryKey {
  iteration: number;
  group: number;
  rollout: number;
}

/** State a panel keeps across reloads (`setState`, and the serializer). */
export interface PanelState {
  kind: PanelKind;
  root: string;
  query?: TrajectoryQuery;
  selectedRow?: number;
  selected?: TrajectoryKey;
  scrollTop?: number;
  label?: string | null;
  search?: string;
  pinned?: string[];
  smoothing?: number;
}

// ---- messages every panel knows

/** host -> webview: the panel cannot show its data. */
export interface ErrorMessage {
  type: 'error';
  message: string;
}

/** webview -> host: the page listens; send it everything. */
export interface ReadyMessage {
  type: 'ready';
}

/** webview -> host: open this trajectory in the browser. */
export interface OpenTrajectoryMessage extends TrajectoryKey {
  type: 'openTrajectory';
}

/**
 * host -> webview: the run's logs have data problems (the panel shows a banner at its
 * top); `total` 0 takes the banner away. Sent to every panel of the run.
 */
export interface DataProblemsMessage {
  type: 'dataProblems';
  total: number;
  /** "2 skipped lines, 1 duplicate metric row" */
  breakdown: string;
}

/** webview -> host: open VS Code's Problems panel (the banner's link). */
export interface ShowProblemsMessage {
  type: 'showProblems';
}

// ---- checks for what a webview sends (webviews show untrusted text)

/** A message object with a string `type`, or undefined. */
export type RawMessage = Record<string, unknown> & { type: string };

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isRow = (v: unknown): v is number => isInt(v) && v >= 0;

export function rawMessage(v: unknown): RawMessage | undefined {
  return isObj(v) && typeof v['type'] === 'string' ? (v as RawMessage) : undefined;
}

export function isSortKey(v: unknown): v is SortKey {
  return typeof v === 'string' && (SORT_KEYS as readonly string[]).includes(v);
}

/** A `tag:` filter: known tag names, each once. */
export function isTagList(v: unknown): v is TagName[] {
  return (
    Array.isArray(v) &&
    v.every((t) => typeof t === 'string' && (TAG_NAMES as readonly string[]).includes(t)) &&
    new Set(v).size === v.length
  );
}

export function isQuery(v: unknown): v is TrajectoryQuery {
  if (!isObj(v) || !isObj(v['filter']) || !Array.isArray(v['sort'])) return false;
  const f = v['filter'];
  for (const k of ['iterationMin', 'iterationMax', 'group', 'rollout', 'flags'] as const)
    if (f[k] !== undefined && !isInt(f[k])) return false;
  if (f['reward'] !== undefined && !(REWARD_FILTERS as readonly unknown[]).includes(f['reward'])) return false;
  for (const k of ['labeledOnly', 'gate'] as const) if (f[k] !== undefined && typeof f[k] !== 'boolean') return false;
  if (f['text'] !== undefined && (typeof f['text'] !== 'string' || f['text'].length > 500)) return false;
  if (f['tags'] !== undefined && !isTagList(f['tags'])) return false;
  if (f['evalIteration'] !== undefined && !isInt(f['evalIteration'])) return false;
  if (f['evalTask'] !== undefined && (typeof f['evalTask'] !== 'string' || f['evalTask'].length > 64 * 1024)) return false;
  return v['sort'].every((s) => isObj(s) && isSortKey(s['key']) && (s['descending'] === undefined || typeof s['descending'] === 'boolean'));
}

export function parseOpenTrajectory(m: RawMessage): OpenTrajectoryMessage | undefined {
  return isInt(m['iteration']) && isInt(m['group']) && isInt(m['rollout'])
    ? { type: 'openTrajectory', iteration: m['iteration'], group: m['group'], rollout: m['rollout'] }
    : undefined;
}

export function parseShowProblems(m: RawMessage): ShowProblemsMessage | undefined {
  return m.type === 'showProblems' && Object.keys(m).length === 1 ? { type: 'showProblems' } : undefined;
}

/** The page's check of the banner message (text only, bounded). */
export function isDataProblemsMessage(v: unknown): v is DataProblemsMessage {
  return (
    isObj(v) &&
    v['type'] === 'dataProblems' &&
    isInt(v['total']) &&
    v['total'] >= 0 &&
    typeof v['breakdown'] === 'string' &&
    v['breakdown'].length <= 2000
  );
}
