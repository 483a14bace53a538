/**
 * The trajectory browser: a virtualized table paged from the host, a detail pane turn
 * by turn, and the group view. Every log string is set as text, never as markup.
 * The last page and detail are kept in the webview's state, so a reloaded (hidden, then
 * shown) panel draws them at once, before the host answers.
 */
import type { TrajectoryQuery } from '../../src/shared/shapes';
import { watchScrollCue } from '../scrollCueWatch';
import { h, initialState, useControls, saveState, channel } from '../common';
import { visibleText } from '../../src/shared/visibleText';
import type { PanelState } from '../../src/shared/protocol';
import type {
  BrowserAction,
  PageMessage,
  RowView,
  ShareAction,
  TrajectoriesHostMessage,
  TrajectoriesWebviewMessage,
  TrajectoryDetailView,
  EpisodeRowView,
  EpisodeDetailView,
} from '../../src/shared/protocol/trajectories';
import { EPISODE_COLUMNS, renderEpisode } from './episodes';
import { nextEpisodeMark } from './turnWalk';
import type { EpisodeColumn } from './episodes';
import type { Column } from './columns';
import { parseNavigate } from '../../src/shared/protocol/trajectories';
import { queryHeader } from '../../src/shared/queryChips';
import { filterControls } from './filters';
import { renderChips } from './chips';
import { COLUMNS, colClass, flagLegend } from './columns';
import { tagLegend } from './tags';
import { withTag } from '../../src/shared/queryChips';
import { isTagList } from '../../src/shared/protocol';
import { renderDetail } from './detail';
import { nextMarked, wantedMarks } from './marks';
import { splitter } from './split';
import { isWorkbenchScrollKey } from './keys';
import { scrollTopFor } from '../scrollMath';
import type { Block } from '../scrollMath';
import { scrollWithin } from '../scroll';

const { post, onMessage } = channel<TrajectoriesWebviewMessage, TrajectoriesHostMessage>();

const ROW_H = 22;
const PAGE = 200;

/** The panel's state, plus what the page draws from before the host answers. */
interface BrowserState extends PanelState {
  page?: PageMessage;
  detail?: TrajectoryDetailView;
  split?: number;
}

const state: BrowserState = initialState();
let query: TrajectoryQuery = state.query ?? { filter: {}, sort: [] };
let total = 0;
const rows = new Map<number, RowView>();
/** the rows when the source is a checkpoint's eval episodes (`filter.evalIteration`) */
const episodeRows = new Map<number, EpisodeRowView>();
const evalSource = (): boolean => query.filter.evalIteration !== undefined;
/** the table's columns for its source */
const columns = (): readonly (Column | EpisodeColumn)[] => (evalSource() ? EPISODE_COLUMNS : COLUMNS);
let selIndex = -1;
let selRow = state.selectedRow ?? -1;
let detail: TrajectoryDetailView | undefined;
/** the eval episode the detail shows (the eval source) */
let episode: EpisodeDetailView | undefined;
/** the detail's trajectory is not among the table's rows for the current query */
let outsideTable = false;
let size = 0;
let label: string | null = state.label ?? null;
let loaded = false;
let focusTurn = 0;
let groupView = false;
const pendingOffsets = new Set<number>();
/**
 * The selection shown after a new query: the host answers a query's first page with the index of
 * the detail's trajectory in it ('trajectories/select'), which the table then highlights and
 * scrolls to. 'page': waiting for that page; 'select': the next message may be its selection;
 * 'none': a page the user scrolled to, whose selection must not move the table.
 */
let awaitSelection: 'page' | 'select' | 'none' = 'page';
/** a row selected to open before its page arrived: opened when it does */
let openWhenLoaded = -1;

const app = document.getElementById('app')!;
const header = h('div', { class: 'muted', id: 'jump-label' });
const count = h('span', { class: 'muted', id: 'row-count' });
const filters = filterControls(
  () => query,
  () => refetch(),
);
const thead = h('div', { class: 'thead', role: 'row' });
/** The header scrolls sideways with the rows (the table scrolls rather than clip a column). */
const theadWrap = h('div', { class: 'thead-wrap', role: 'rowgroup' }, thead);
/** one grid for screen readers: the header's row group and the rows' (the viewport) */
const tableWrap = h('div', { class: 'table-wrap', role: 'grid', 'aria-label': 'Trajectories' }, theadWrap);
/** Click: sort by that column (again: the other way). Shift+click: add it as the next key. */
function renderHead(): void {
  // on eval episodes: no flags' legend, and no tree row, export or notebook (they are of training rollouts)
  for (const el of [legends[0]!, reveal, exportBtn, notebookBtn]) el.style.display = evalSource() ? 'none' : '';
  filters.fit(evalSource(), query);
  thead.replaceChildren(
    ...columns().map((c) => {
      const at = query.sort.findIndex((x) => x.key === c.key);
      const s = at >= 0 ? query.sort[at] : undefined;
      const arrow = s ? (s.descending ? '▼' : '▲') : '';
      const b = h(
        'button',
        {
          role: 'columnheader',
          'aria-sort': s ? (s.descending ? 'descending' : 'ascending') : 'none',
          title: `${c.tip}. Click: sort by ${c.label}; Shift+click: then by ${c.label}`,
          'data-key': c.key,
          class: colClass(c),
        },
        c.label + (arrow ? ` ${arrow}` : ''),
        s && query.sort.length > 1 ? h('sup', { 'aria-label': `sort key ${at + 1}` }, at + 1) : null,
      );
      b.addEventListener('click', (e) => {
        const flipped = { key: c.key, ...(s && !s.descending ? { descending: true } : {}) };
        if (e.shiftKey && query.sort.length > 0)
          query.sort = at >= 0 ? query.sort.map((x, i) => (i === at ? flipped : x)) : [...query.sort, { key: c.key }];
        else query.sort = [at === 0 ? flipped : { key: c.key }];
        renderHead();
        refetch();
      });
      return b;
    }),
  );
}
const viewport = h('div', { class: 'viewport', tabindex: 0, role: 'rowgroup', 'aria-label': 'Trajectories, rows', id: 'table' });
const spacer = h('div', { class: 'spacer' });
viewport.append(spacer);
tableWrap.append(viewport);
/** The rows' scrollbar width, so that the header (padded by it) lines up with them to the last column. */
function fitHeader(): void {
  tableWrap.style.setProperty('--sbw', `${viewport.offsetWidth - viewport.clientWidth}px`);
  theadWrap.scrollLeft = viewport.scrollLeft;
}
new ResizeObserver(fitHeader).observe(viewport);
// a narrow panel hides the right-hand columns behind the sideways scroll: say so above the table
const tableCue = h('div', { class: 'scroll-cue muted', id: 'table-scroll-cue', 'aria-hidden': 'true' });
watchScrollCue(viewport, tableCue);
const detailPane = h('div', { class: 'detail', id: 'detail', tabindex: 0, 'aria-label': 'Selected trajectory' });
const detailHint = (): HTMLElement => h('p', { class: 'muted' }, 'Select a trajectory (arrows, Enter). g toggles the group view.');
const skeleton = (lines: number, cls: string): HTMLElement[] =>
  Array.from({ length: lines }, (_, i) => h('div', { class: `${cls}${i % 3 === 2 ? ' short' : ''}`, 'aria-hidden': 'true' }));
/** While the detail is on its way: grey lines where it will be. */
function detailSkeleton(): void {
  detailPane.replaceChildren(
    h(
      'div',
      { class: 'skeleton', id: 'detail-skeleton', 'aria-busy': 'true', 'aria-label': 'loading the trajectory' },
      ...skeleton(3, 'skeleton-line'),
      h('div', { class: 'skeleton-line block' }),
      ...skeleton(4, 'skeleton-line'),
    ),
  );
}
const chipBox = h('div', { class: 'chips', id: 'chips', role: 'toolbar', 'aria-label': 'Active filters and sort' });
const browser = h('div', { class: 'browser' });
const back = h('button', { class: 'link', id: 'back-to-metrics' }, 'metrics');
back.addEventListener('click', () => post({ type: 'openMetrics' }));
const reveal = h('button', { class: 'link', id: 'reveal-in-tree' }, 'reveal in tree');
reveal.addEventListener('click', () => {
  if (selRow >= 0 && !evalSource()) post({ type: 'trajectories/reveal', row: selRow });
});
const exportBtn = h(
  'button',
  { class: 'link', id: 'export-trajectories', title: 'Export the trajectories of this filter (JSONL or CSV)' },
  'export…',
);
exportBtn.addEventListener('click', () => share('export', null));
const notebookBtn = h(
  'button',
  { class: 'link', id: 'open-notebook', title: 'Open the trajectories of this filter in a Jupyter notebook' },
  'notebook',
);
notebookBtn.addEventListener('click', () => share('notebook', null));
/** the flags' legend is of training rollouts (hidden on eval episodes, which have no candidates); the tags' of both */
const legends = [flagLegend(), tagLegend()];
app.append(
  h('div', { class: 'toolbar' }, ...filters.fields, count),
  chipBox,
  ...legends,
  h('div', { class: 'toolbar' }, header, back, reveal, exportBtn, notebookBtn, tableCue),
  browser,
);
browser.append(
  tableWrap,
  splitter(browser, state.split ?? 52, (pct) => {
    state.split = pct;
    persist();
  }),
  detailPane,
);
renderHead();
renderChips(chipBox, query, setQuery);
// a tag anywhere (a row's flag, the legend, the detail header) filters the table by it: one click, its chip shows
app.addEventListener(
  'click',
  (e) => {
    const b = (e.target as Element | null)?.closest<HTMLElement>('[data-tag-filter]');
    const t = [b?.dataset['tagFilter']];
    if (!b || !isTagList(t)) return;
    e.stopPropagation();
    setQuery(withTag(query, t[0]!));
  },
  true,
);

function persist(): void {
  state.query = query;
  state.selectedRow = selRow;
  state.scrollTop = viewport.scrollTop;
  saveState(state);
}

/** Replaces the whole query (a chip removed, Clear all) and fetches its first page. */
function setQuery(q: TrajectoryQuery): void {
  query = q;
  syncControls();
  refetch();
  keepFocusInTable();
}

/** A control that took itself away (a chip's ×, Clear all) hands focus to the table, never the page body. */
function keepFocusInTable(): void {
  const a = document.activeElement;
  if (!a || a === document.body || !a.isConnected) viewport.focus({ preventScroll: true });
}

function refetch(): void {
  renderChips(chipBox, query, setQuery);
  renderHead();
  rows.clear();
  episodeRows.clear();
  pendingOffsets.clear();
  selIndex = -1;
  openWhenLoaded = -1;
  awaitSelection = 'page';
  viewport.scrollTop = 0;
  label = null;
  state.label = null;
  persist();
  request(0, true);
}

/** Asks for the page at `offset`; `changed`: the query is a new one of this page's (the host drops a jump's label). */
function request(offset: number, changed = false): void {
  const o = Math.max(0, Math.floor(offset / PAGE) * PAGE);
  if (pendingOffsets.has(o)) return;
  pendingOffsets.add(o);
  post({ type: 'trajectories/query', query, offset: o, limit: PAGE, changed });
}

function renderRows(): void {
  if (!loaded) {
    spacer.style.height = '';
    spacer.replaceChildren(
      h(
        'div',
        { class: 'skeleton', id: 'table-skeleton', 'aria-busy': 'true', 'aria-label': 'loading trajectories' },
        ...skeleton(12, 'skeleton-row'),
      ),
    );
    return;
  }
  if (total === 0) {
    const clear = h('button', { class: 'link', id: 'zero-clear' }, 'Clear all filters');
    clear.addEventListener('click', () => setQuery({ filter: {}, sort: query.sort }));
    spacer.style.height = '';
    spacer.replaceChildren(
      h(
        'div',
        { class: 'zero-matches', id: 'zero-matches', role: 'status' },
        `No ${evalSource() ? 'evaluation episode' : 'trajectory'} of ${size} matches these filters. `,
        clear,
      ),
    );
    return;
  }
  spacer.style.height = `${total * ROW_H}px`;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_H) - 5);
  const last = Math.min(total, first + Math.ceil(viewport.clientHeight / ROW_H) + 10);
  const frag: HTMLElement[] = [];
  for (let i = first; i < last; i++) {
    if (evalSource()) {
      const el = episodeRowEl(i);
      if (el) frag.push(el);
      continue;
    }
    const r = rows.get(i);
    if (!r) {
      request(i);
      continue;
    }
    const el = h(
      'div',
      {
        class: `trow${i === selIndex ? ' sel' : ''}`,
        role: 'row',
        'aria-selected': String(i === selIndex),
        'data-index': i,
        'data-row': r.row,
        'data-key': `${r.iteration}/${r.group}/${r.rollout}`,
      },
      ...COLUMNS.map((c) => h('span', { class: colClass(c), role: 'gridcell' }, c.cell(r))),
    );
    el.style.top = `${i * ROW_H}px`;
    frag.push(el);
  }
  spacer.replaceChildren(...frag);
}

/** Row `i` of the eval episodes' table (asked for when it is not here yet). */
function episodeRowEl(i: number): HTMLElement | undefined {
  const r = episodeRows.get(i);
  if (!r) {
    request(i);
    return undefined;
  }
  const el = h(
    'div',
    {
      class: `trow${i === selIndex ? ' sel' : ''}`,
      role: 'row',
      'aria-selected': String(i === selIndex),
      'data-index': i,
      'data-episode': r.episode,
    },
    ...EPISODE_COLUMNS.map((c) => h('span', { class: colClass(c), role: 'gridcell' }, c.cell(r))),
  );
  el.style.top = `${i * ROW_H}px`;
  return el;
}

/** Selects eval episode row `i` and, with `open`, asks for its detail. */
function selectEpisode(i: number, open: boolean): void {
  const r = episodeRows.get(i);
  if (r) selRow = r.episode;
  renderRows();
  persist();
  if (open && r) {
    if (r.episode !== episode?.episode) detailSkeleton();
    post({ type: 'trajectories/openEpisode', episode: r.episode });
  }
}

function select(i: number, open: boolean): void {
  if (i < 0 || i >= total) return;
  selIndex = i;
  if (evalSource()) {
    scrollToRow(i);
    selectEpisode(i, open);
    return;
  }
  const r = rows.get(i);
  if (r) selRow = r.row;
  scrollToRow(i);
  renderRows();
  persist();
  openWhenLoaded = open && !r ? i : -1;
  if (open && r) {
    // a row of the table: the detail it opens is in the table
    outsideTable = false;
    if (r.row !== detail?.row) detailSkeleton();
    post({ type: 'trajectories/open', row: r.row });
  }
}

/** Scrolls the table so that row `i` is in view. */
function scrollToRow(i: number): void {
  const view = { scrollTop: viewport.scrollTop, height: viewport.clientHeight };
  const top = scrollTopFor({ top: i * ROW_H, height: ROW_H }, view, 'nearest');
  if (top !== view.scrollTop) viewport.scrollTop = top;
}

viewport.addEventListener('scroll', () => {
  fitHeader();
  renderRows();
  persist();
});
// one listener for every row, present and future
spacer.addEventListener('click', (e) => {
  const row = (e.target as Element | null)?.closest<HTMLElement>('.trow');
  if (row) select(Number(row.dataset['index']), true);
});
viewport.addEventListener('keydown', (e) => {
  // with a modifier it is a workbench shortcut (contributes.keybindings), done through the host
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'ArrowDown') {
    select(selIndex + 1, false);
    e.preventDefault();
  } else if (e.key === 'ArrowUp') {
    select(Math.max(0, selIndex - 1), false);
    e.preventDefault();
  } else if (e.key === 'PageDown') {
    select(Math.min(total - 1, selIndex + Math.floor(viewport.clientHeight / ROW_H)), false);
    e.preventDefault();
  } else if (e.key === 'PageUp') {
    select(Math.max(0, selIndex - Math.floor(viewport.clientHeight / ROW_H)), false);
    e.preventDefault();
  } else if (e.key === 'Enter') {
    select(selIndex < 0 ? 0 : selIndex, true);
    e.preventDefault();
  } else if (e.key === 'g') {
    toggleGroup();
  }
});
/** How many turns the detail shows: a training trajectory's, or an eval episode's. */
const shownTurns = (): number => detail?.turns.length ?? episode?.turnList.length ?? 0;
detailPane.addEventListener('keydown', (e) => {
  const n = shownTurns();
  if (n === 0 || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    focusTurn = Math.max(0, Math.min(n - 1, focusTurn + (e.key === 'ArrowDown' ? 1 : -1)));
    const el = detailPane.querySelector(`[data-turn="${focusTurn}"]`);
    detailPane.querySelectorAll('.turn.focus').forEach((x) => x.classList.remove('focus'));
    el?.classList.add('focus');
    if (el) scrollWithin(el, 'nearest', detailPane);
    e.preventDefault();
  } else if (e.key === 'g') toggleGroup();
  else if (e.key === 'n') {
    nextMark();
    e.preventDefault();
  }
});
document.addEventListener('keydown', (e) => {
  // the workbench's previous/next trajectory: the host selects and scrolls, the page must not scroll a page too
  if (isWorkbenchScrollKey(e, e.target instanceof HTMLElement ? e.target : null)) e.preventDefault();
  if (e.key === 'g' && !e.altKey && !e.ctrlKey && !e.metaKey && e.target === document.body) toggleGroup();
});

function toggleGroup(): void {
  groupView = !groupView;
  if (detail) showDetail(detail, false);
}

function showDetail(d: TrajectoryDetailView, fresh: boolean): void {
  detailPane.replaceChildren(
    ...renderDetail(d, {
      showGroup: groupView,
      outsideTable,
      onToggleGroup: toggleGroup,
      onOpenSibling: (iteration, group, rollout) => {
        detailSkeleton();
        post({ type: 'openTrajectory', iteration, group, rollout });
      },
      onCompare: (a, b) => post({ type: 'trajectories/compare', a, b }),
      onClearFilters: () => setQuery({ filter: {}, sort: query.sort }),
      onJumpTurn: (i) => focusOn(i),
      onNextMark: nextMark,
      onShare: share,
    }),
  );
  if (!fresh) return;
  // a new trajectory starts at its top, or at its first turn with the mark the table is filtered for
  detailPane.scrollTop = 0;
  focusTurn = 0;
  const want = wantedMarks(query.filter.flags, query.filter.tags);
  const first = want.length ? d.turns.find((t) => want.some((k) => t[k])) : undefined;
  if (first) focusOn(first.index, 'start');
}

/** Next mark: the next turn after the focused one with a mark (a repeat, a cycle, a collapsed turn, an anomaly), round to the first. */
function nextMark(): void {
  // nothing focused yet (a fresh trajectory): the first marked turn, turn 0 included
  const from = detailPane.querySelector('.turn.target') ? focusTurn : -1;
  const i = detail ? nextMarked(detail.turns, from) : episode ? nextEpisodeMark(episode.turnList, from) : undefined;
  if (i !== undefined) focusOn(i, 'start');
}

function focusOn(i: number, block: Block = 'nearest'): void {
  focusTurn = i;
  detailPane.querySelectorAll('.turn.focus, .turn.target').forEach((x) => x.classList.remove('focus', 'target'));
  const el = detailPane.querySelector(`.turn[data-turn="${i}"]`);
  el?.classList.add('focus', 'target');
  if (el) scrollWithin(el, block, detailPane);
}

/** Asks the host to share: the shown trajectory (and `turn`), and the table's query. */
function share(action: ShareAction, turn: number | null): void {
  // links, raw records, exports and notebooks are of training rollouts; an eval episode has none of them yet
  if (evalSource()) return;
  const key = detail ? { iteration: detail.iteration, group: detail.group, rollout: detail.rollout } : null;
  post({ type: 'trajectories/share', action, key, turn, query });
}

/** A link's turn, waiting for its trajectory's detail. */
let pendingFocus: { row: number; turn: number } | undefined;

function applyPendingFocus(): void {
  if (!pendingFocus || detail?.row !== pendingFocus.row) return;
  focusOn(Math.min(pendingFocus.turn, Math.max(0, detail.turns.length - 1)), 'start');
  pendingFocus = undefined;
}

/** A host shortcut (contributes.keybindings): move through the table or the turns, or share. */
function doAction(a: BrowserAction): void {
  const focused = detailPane.querySelector('.turn.focus') ? focusTurn : null;
  switch (a) {
    case 'nextTrajectory':
      select(selIndex < 0 ? 0 : Math.min(total - 1, selIndex + 1), true);
      break;
    case 'previousTrajectory':
      select(Math.max(0, selIndex - 1), true);
      break;
    case 'nextTurn':
    case 'previousTurn':
      if (detail && detail.turns.length > 0)
        focusOn(Math.max(0, Math.min(detail.turns.length - 1, (focused ?? -1) + (a === 'nextTurn' ? 1 : -1))), 'start');
      break;
    case 'toggleGroup':
      toggleGroup();
      break;
    case 'copyLink':
    case 'openRaw':
      share(a, focused);
      break;
    default:
      share(a, null);
  }
}

function showPage(p: PageMessage): void {
  loaded = true;
  total = p.total;
  size = p.size;
  p.rows.forEach((r, i) => rows.set(p.offset + i, r));
  p.episodes?.forEach((r, i) => episodeRows.set(p.offset + i, r));
  label = p.label;
  header.textContent = p.searching ? 'searching…' : visibleText((label ? `${label} — ` : '') + queryHeader(query, p.total, p.size));
  count.textContent = p.searching ? 'searching…' : `${p.total} of ${p.size} ${p.episodes ? 'evaluation episodes' : 'trajectories'}`;
  document.title = `Trajectories: ${visibleText(p.runName)}`;
  renderRows();
  if (openWhenLoaded >= 0 && openWhenLoaded === selIndex && rows.has(openWhenLoaded)) select(openWhenLoaded, true);
}

/** The host's selection for a new query: highlighted and scrolled to (a page scrolled to keeps the table where it is). */
function showHostSelection(row: number, index: number): void {
  if (awaitSelection !== 'select') return;
  awaitSelection = 'none';
  selRow = row;
  outsideTable = index < 0;
  // the detail never shows a trajectory the table no longer holds without saying so
  if (detail && detail.row === row) showDetail(detail, false);
  if (index >= 0) {
    selIndex = index;
    viewport.scrollTop = Math.max(0, index * ROW_H - viewport.clientHeight / 2);
    renderRows();
  }
  persist();
}

/** A new detail's trajectory, when the table holds it, is the table's highlighted row, in view. */
function selectDetailRow(row: number): void {
  if (rows.get(selIndex)?.row === row) return;
  for (const [i, r] of rows)
    if (r.row === row) {
      select(i, false);
      return;
    }
}

onMessage((m) => {
  switch (m.type) {
    case 'trajectories/navigate': {
      // the host moved the browser (a jump from a chart): take its query, label and selection
      const n = parseNavigate(m);
      if (!n) break;
      query = n.query;
      label = n.label;
      state.label = n.label;
      if (n.select) state.selected = n.select;
      syncControls();
      rows.clear();
      episodeRows.clear();
      pendingOffsets.clear();
      awaitSelection = 'page';
      persist();
      // a jump from a chart (Enter on a point) lands in the rows: the arrows and Enter work at once
      viewport.focus({ preventScroll: true });
      break;
    }
    case 'trajectories/page': {
      const p = m;
      pendingOffsets.delete(p.offset);
      if (!p.searching) awaitSelection = awaitSelection === 'page' ? 'select' : 'none';
      showPage(p);
      state.label = p.label;
      if (p.offset === 0 && !p.searching) state.page = p;
      persist();
      break;
    }
    case 'trajectories/select':
      showHostSelection(m.row, m.index);
      break;
    case 'trajectories/detail':
      {
        const fresh = detail?.row !== m.detail.row;
        detail = m.detail;
        episode = undefined;
        selRow = m.detail.row;
        state.selected = { iteration: m.detail.iteration, group: m.detail.group, rollout: m.detail.rollout };
        state.detail = m.detail;
        showDetail(m.detail, fresh);
        if (fresh) selectDetailRow(m.detail.row);
        applyPendingFocus();
        persist();
      }
      break;
    case 'trajectories/episode':
      // an eval episode: its own detail (no candidates, no group); the training detail is gone
      episode = m.episode;
      detail = undefined;
      state.detail = undefined;
      selRow = m.episode.episode;
      detailPane.replaceChildren(...renderEpisode(m.episode, nextMark));
      detailPane.scrollTop = 0;
      focusTurn = 0;
      persist();
      break;
    case 'trajectories/focusTurn':
      pendingFocus = { row: m.row, turn: m.turn };
      applyPendingFocus();
      break;
    case 'trajectories/do':
      doAction(m.action);
      break;
    case 'error':
      loaded = true;
      detailPane.replaceChildren(h('p', { class: 'error' }, visibleText(m.message)));
      break;
    default:
      break;
  }
});

function syncControls(): void {
  filters.sync(query);
  renderHead();
  renderChips(chipBox, query, setQuery);
}

// draw the last page and detail from the saved state at once; the host's answer replaces them
if (state.page && JSON.stringify(state.page.query) === JSON.stringify(query)) showPage(state.page);
else renderRows();
if (state.detail) {
  detail = state.detail;
  showDetail(state.detail, false);
} else if (state.selected) detailSkeleton();
else detailPane.replaceChildren(detailHint());
if (state.scrollTop)
  requestAnimationFrame(() => {
    viewport.scrollTop = state.scrollTop ?? 0;
  });
persist();
// a browser opened by a jump (its label says from where) starts with the rows focused, as the hint says
if (state.label) viewport.focus({ preventScroll: true });
post({ type: 'ready' });
useControls();
