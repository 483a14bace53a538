/**
 * The trajectory browser's state: one typed object, changed only through the named updates
 * below (a new query, a page, the host's selection, a detail, an eval episode). No DOM here:
 * the page's parts render from this object, and the updates are unit-tested on their own.
 */
import type { TrajectoryQuery } from '../../../src/shared/shapes';
import type {
  EpisodeDetailView,
  EpisodeRowView,
  PageMessage,
  RowView,
  SelectMessage,
  TrajectoryDetailView,
} from '../../../src/shared/protocol/trajectories';

/**
 * The selection shown after a new query: the host answers a query's first page with the index of
 * the detail's trajectory in it ('trajectories/select'), which the table then highlights and
 * scrolls to. 'page': waiting for that page; 'select': the next message may be its selection;
 * 'none': a page the user scrolled to, whose selection must not move the table.
 */
export type AwaitSelection = 'page' | 'select' | 'none';

export interface BrowserModel {
  query: TrajectoryQuery;
  /** the rows matching the query */
  total: number;
  /** every row of the source, filtered or not */
  size: number;
  /** a page (or an error) arrived: the table's skeleton is gone */
  loaded: boolean;
  /** the pages of training rows that arrived, by their index in the table */
  rows: Map<number, RowView>;
  /** the rows when the source is a checkpoint's eval episodes (`filter.evalIteration`) */
  episodeRows: Map<number, EpisodeRowView>;
  /** the pages asked for and not answered yet, by their first index */
  pendingOffsets: Set<number>;
  /** the highlighted row's index in the table (-1: none) */
  selIndex: number;
  /** the highlighted trajectory's row (an eval episode's index on eval episodes) */
  selRow: number;
  detail: TrajectoryDetailView | undefined;
  /** the eval episode the detail shows (the eval source) */
  episode: EpisodeDetailView | undefined;
  /** the host said the detail's trajectory (or eval episode) is not among the table's rows for the current query */
  outsideTable: boolean;
  /** the jump that opened the browser, in words (null once the page sets its own query) */
  label: string | null;
  /** the detail's focused turn */
  focusTurn: number;
  groupView: boolean;
  awaitSelection: AwaitSelection;
  /** a row selected to open before its page arrived: opened when it does */
  openWhenLoaded: number;
  /** a link's turn, waiting for its trajectory's detail */
  pendingFocus: { row: number; turn: number } | undefined;
  /** the query the table lists now, as text (`queryText`) */
  current: string;
  /** the queries the table listed before and replaced (oldest first, at most `REPLACED_KEPT`): answers to them are stale */
  replaced: Set<string>;
}

/** What the page starts from: the panel's saved state. */
export interface SavedStart {
  query?: TrajectoryQuery;
  selectedRow?: number;
  label?: string | null;
}

export function createModel(s: SavedStart): BrowserModel {
  const query = s.query ?? { filter: {}, sort: [] };
  return {
    query,
    total: 0,
    size: 0,
    loaded: false,
    rows: new Map(),
    episodeRows: new Map(),
    pendingOffsets: new Set(),
    selIndex: -1,
    selRow: s.selectedRow ?? -1,
    detail: undefined,
    episode: undefined,
    outsideTable: false,
    label: s.label ?? null,
    focusTurn: 0,
    groupView: false,
    awaitSelection: 'page',
    openWhenLoaded: -1,
    pendingFocus: undefined,
    current: queryText(query),
    replaced: new Set(),
  };
}

/** The table lists a checkpoint's eval episodes rather than training rollouts. */
export const evalSource = (m: BrowserModel): boolean => m.query.filter.evalIteration !== undefined;

/** Forgets the rows of the last query: its pages and the pages asked for. */
function dropRows(m: BrowserModel): void {
  m.rows.clear();
  m.episodeRows.clear();
  m.pendingOffsets.clear();
  m.awaitSelection = 'page';
}

/** The page set its own query (a filter, a sort, a chip): no row of the old one stays, nor the jump's label. */
export function queryChanged(m: BrowserModel): void {
  replaceQuery(m);
  dropRows(m);
  m.selIndex = -1;
  m.openWhenLoaded = -1;
  m.label = null;
}

/** The host moved the browser (a jump): its query and label; the rows come again. */
export function navigated(m: BrowserModel, query: TrajectoryQuery, label: string | null): void {
  m.query = query;
  replaceQuery(m);
  m.label = label;
  dropRows(m);
}

/** The offset of the page holding index `i`, or undefined when that page is already asked for (then marked as asked). */
export function pageToAsk(m: BrowserModel, i: number, pageSize: number): number | undefined {
  const o = Math.max(0, Math.floor(i / pageSize) * pageSize);
  if (m.pendingOffsets.has(o)) return undefined;
  m.pendingOffsets.add(o);
  return o;
}

/** A page's rows and counts, whether it just arrived or is the saved one drawn before the host answers. */
export function takePage(m: BrowserModel, p: PageMessage): void {
  m.loaded = true;
  m.total = p.total;
  m.size = p.size;
  p.rows.forEach((r, i) => m.rows.set(p.offset + i, r));
  p.episodes?.forEach((r, i) => m.episodeRows.set(p.offset + i, r));
  m.label = p.label;
}

/** A query's content, its keys in one order: the same query whatever order its object was built in. */
function queryText(q: TrajectoryQuery): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== undefined)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return JSON.stringify(sorted(q));
}

/** How many replaced queries are remembered: an answer to one replaced longer ago does not come. */
const REPLACED_KEPT = 50;

/** `m.query` (edited in place, or set) is the table's query now: the one before it is replaced. */
function replaceQuery(m: BrowserModel): void {
  const now = queryText(m.query);
  if (now === m.current) return;
  m.replaced.add(m.current);
  m.replaced.delete(now);
  for (const old of m.replaced) {
    if (m.replaced.size <= REPLACED_KEPT) break;
    m.replaced.delete(old);
  }
  m.current = now;
}

/**
 * Whether a message of the host answers a query the table has replaced since (two filters set in
 * a row: the host answers each in its own time). A query the page never listed (the host's own, as
 * it restores a panel) is not stale: its page is shown, as the host sent it.
 */
const answersReplaced = (m: BrowserModel, q: TrajectoryQuery): boolean => m.replaced.has(queryText(q));

/**
 * A page the host answered: the first of a new query waits for its selection. A page of a query
 * the page has replaced since is dropped (false): the host answers in its own time, and its rows
 * are another list's.
 */
export function pageArrived(m: BrowserModel, p: PageMessage): boolean {
  if (answersReplaced(m, p.query)) return false;
  m.pendingOffsets.delete(p.offset);
  if (!p.searching) m.awaitSelection = m.awaitSelection === 'page' ? 'select' : 'none';
  takePage(m, p);
  return true;
}

/**
 * The host's selection: whether the detail's trajectory is in the table now, and its index there.
 * 'stale': it answers a replaced query, and changes nothing; 'move': the answer to a new query,
 * highlighted and scrolled to; 'note': after a page scrolled to, it says only whether the detail is
 * listed, and must not move the table.
 */
export function hostSelection(m: BrowserModel, s: SelectMessage): 'stale' | 'note' | 'move' {
  if (answersReplaced(m, s.query)) return 'stale';
  m.outsideTable = s.index < 0;
  if (m.awaitSelection !== 'select') return 'note';
  m.awaitSelection = 'none';
  m.selRow = s.row;
  if (s.index >= 0) m.selIndex = s.index;
  return 'move';
}

/**
 * Highlights index `i`; returns its row (or eval episode) when its page is here. Asked to `open` a
 * row whose page is not here (the table's query just changed under the pointer), it opens when that
 * page arrives (`dueToOpen`), on either source.
 */
export function selectIndex(m: BrowserModel, i: number, open = false): RowView | EpisodeRowView | undefined {
  m.selIndex = i;
  const r = evalSource(m) ? m.episodeRows.get(i) : m.rows.get(i);
  if (r) m.selRow = 'episode' in r ? r.episode : r.row;
  m.openWhenLoaded = open && !r ? i : -1;
  return r;
}

/** The index a page just arrived for that was asked to open before it came (still highlighted), or -1. */
export function dueToOpen(m: BrowserModel): number {
  const w = m.openWhenLoaded;
  if (w < 0 || w !== m.selIndex) return -1;
  return (evalSource(m) ? m.episodeRows.has(w) : m.rows.has(w)) ? w : -1;
}

/** A trajectory's detail arrived; true when it is another trajectory than the one shown. */
export function detailArrived(m: BrowserModel, d: TrajectoryDetailView): boolean {
  const fresh = m.detail?.row !== d.row;
  m.detail = d;
  m.episode = undefined;
  m.selRow = d.row;
  return fresh;
}

/** An eval episode's detail arrived (a row of the table opened it): the training detail is gone. */
export function episodeArrived(m: BrowserModel, e: EpisodeDetailView): void {
  m.episode = e;
  m.detail = undefined;
  m.selRow = e.episode;
  m.focusTurn = 0;
  m.outsideTable = false;
}

/**
 * Whether the detail shows something the table's list does not hold: 'filtered' (the query leaves it
 * out), 'otherSource' (a training trajectory while the table lists eval episodes, or the other way
 * round); null when it is in the list, or nothing is shown.
 */
export type Outside = 'filtered' | 'otherSource' | null;

export function detailOutside(m: BrowserModel): Outside {
  const shown = m.episode ? 'episode' : m.detail ? 'trajectory' : null;
  if (shown === null) return null;
  if ((shown === 'episode') !== evalSource(m)) return 'otherSource';
  return m.outsideTable ? 'filtered' : null;
}

/** The index of the training row `row` among the rows here, or -1. */
export function indexOfRow(m: BrowserModel, row: number): number {
  if (m.rows.get(m.selIndex)?.row === row) return m.selIndex;
  for (const [i, r] of m.rows) if (r.row === row) return i;
  return -1;
}
