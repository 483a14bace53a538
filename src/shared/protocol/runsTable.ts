/**
 * The runs table's messages and state: one row a run, its cells already in words (the host's
 * presenter formats them), each with the number it sorts by and whether a click opens a view.
 * One union per direction, checked on arrival (anything else is dropped).
 */
import type { ErrorMessage, RawMessage, ReadyMessage } from '../protocol';
import { isObj, rawMessage } from '../protocol';
import { TAG_NAMES } from '../shapes';
import type { TagName } from '../shapes';

/** The columns, in order; `tag:<name>` is a behaviour tag's rate. */
export const RUNS_COLUMNS = [
  'run',
  'beta',
  'tau',
  'iterations',
  'trajectories',
  'rewardFirst',
  'rewardLast',
  'gateDiff',
  'gateP',
  'signFlip',
  'fallback',
  'argmax',
  'evalSuccess',
  'verdict',
  ...TAG_NAMES.map((t) => `tag:${t}` as const),
] as const;

export type RunsColumn = (typeof RUNS_COLUMNS)[number];

export const isRunsColumn = (v: unknown): v is RunsColumn => typeof v === 'string' && (RUNS_COLUMNS as readonly string[]).includes(v);

/** The tag of a `tag:` column. */
export function columnTag(c: RunsColumn): TagName | undefined {
  return c.startsWith('tag:') ? (c.slice(4) as TagName) : undefined;
}

export interface RunsSort {
  column: RunsColumn;
  descending: boolean;
}

/** What the runs table keeps across reloads (there is one table a window). */
export interface RunsTableState {
  kind: 'runsTable';
  /** no run of its own: '' */
  root: string;
  /** the root of the run each verdict is against; null: none */
  baseline?: string | null;
  /** run folders the user added to the table */
  added?: string[];
  sort?: RunsSort;
  filter?: string;
  /** the roots of the rows ticked (for compare and overlay) */
  selected?: string[];
}

/** One cell: its words, what it sorts by (null sorts last), and whether a click on it opens a view. */
export interface RunsCellView {
  text: string;
  sort: number | string | null;
  /** a longer explanation (the tooltip) */
  title?: string;
  opens: boolean;
  /** the verdict's colour */
  tone?: 'better' | 'worse' | 'inconclusive';
}

export interface RunsRowView {
  /** the run's root (a Hub run read in place: its hub: ref); a followed repo not read yet: `repo:<id>` */
  root: string;
  name: string;
  /** where it comes from: the workspace's runs, a Hub repo, a folder the user added */
  source: 'local' | 'hub' | 'added';
  /** null when its figures are shown; else why not yet (reading, not read, failed) */
  note: string | null;
  /** a followed Hub repo whose logs are not read: the page offers to read them in place */
  readable: boolean;
  baseline: boolean;
  /** the cells, by column (empty while `note` is set) */
  cells: Partial<Record<RunsColumn, RunsCellView>>;
}

export interface RunsTableView {
  rows: RunsRowView[];
  /** the baseline's root and name, when one is picked */
  baseline: { root: string; name: string } | null;
  /** one line each: an evaluation log that could not be read */
  warnings: string[];
  /** rows still being read */
  reading: number;
}

export interface RunsTableViewMessage {
  type: 'runsTable/view';
  view: RunsTableView;
}

export type RunsTableHostMessage = RunsTableViewMessage | ErrorMessage;

/** webview -> host: open the view behind a cell. */
export interface RunsOpenMessage {
  type: 'runsTable/open';
  root: string;
  column: RunsColumn;
}

/** webview -> host: the verdicts against this run (null: no baseline). */
export interface RunsBaselineMessage {
  type: 'runsTable/baseline';
  root: string | null;
}

/** webview -> host: compare two runs (the first against the second), or overlay several on the first's dashboard. */
export interface RunsCompareMessage {
  type: 'runsTable/compare' | 'runsTable/overlay';
  roots: string[];
}

/** webview -> host: ask for a run folder to add; read a followed repo's logs in place. */
export interface RunsAddMessage {
  type: 'runsTable/add';
}
export interface RunsReadMessage {
  type: 'runsTable/read';
  root: string;
}

/** webview -> host: the page's sort, filter and selection changed (the host keeps them for a reload). */
export interface RunsStateMessage {
  type: 'runsTable/state';
  sort: RunsSort | null;
  filter: string;
  selected: string[];
}

export type RunsTableWebviewMessage =
  ReadyMessage | RunsOpenMessage | RunsBaselineMessage | RunsCompareMessage | RunsAddMessage | RunsReadMessage | RunsStateMessage;

const MAX_TEXT = 500;
const MAX_ROOTS = 1000;
const isRoot = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 4096;
const isRoots = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_ROOTS && v.every(isRoot);

function parseSort(v: unknown): RunsSort | undefined {
  return isObj(v) && isRunsColumn(v['column']) && typeof v['descending'] === 'boolean'
    ? { column: v['column'], descending: v['descending'] }
    : undefined;
}

function parse(m: RawMessage): RunsTableWebviewMessage | undefined {
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'runsTable/open':
      return isRoot(m['root']) && isRunsColumn(m['column']) ? { type: m.type, root: m['root'], column: m['column'] } : undefined;
    case 'runsTable/baseline':
      return m['root'] === null || isRoot(m['root']) ? { type: m.type, root: m['root'] } : undefined;
    case 'runsTable/compare':
    case 'runsTable/overlay':
      return isRoots(m['roots']) && m['roots'].length >= 2 ? { type: m.type, roots: m['roots'] } : undefined;
    case 'runsTable/add':
      return { type: m.type };
    case 'runsTable/read':
      return isRoot(m['root']) ? { type: m.type, root: m['root'] } : undefined;
    case 'runsTable/state': {
      const sort = m['sort'] === null ? null : parseSort(m['sort']);
      const filter = m['filter'];
      if (sort === undefined || typeof filter !== 'string' || filter.length > MAX_TEXT || !isRoots(m['selected'])) return undefined;
      return { type: m.type, sort, filter, selected: m['selected'] };
    }
    default:
      return undefined;
  }
}

/** A message from the runs table's page, checked; anything else is dropped. */
export function parseRunsTableMessage(v: unknown): RunsTableWebviewMessage | undefined {
  const m = rawMessage(v);
  return m && parse(m);
}

/** A saved state (the page's or the remembered one), checked; undefined when it is not one. */
export function parseRunsTableState(v: unknown): RunsTableState | undefined {
  if (!isObj(v) || v['kind'] !== 'runsTable') return undefined;
  const out: RunsTableState = { kind: 'runsTable', root: '' };
  if (v['baseline'] === null || isRoot(v['baseline'])) out.baseline = v['baseline'];
  if (isRoots(v['added'])) out.added = v['added'];
  const sort = parseSort(v['sort']);
  if (sort) out.sort = sort;
  if (typeof v['filter'] === 'string' && v['filter'].length <= MAX_TEXT) out.filter = v['filter'];
  if (isRoots(v['selected'])) out.selected = v['selected'];
  return out;
}
