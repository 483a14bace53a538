/**
 * The trajectory browser: a virtualized table paged from the host, a detail pane turn
 * by turn, and the group view. Every log string is set as text, never as markup.
 * The page's state is one object (page/store.ts) the parts draw from: the list
 * (page/list.ts), the detail (page/detailPane.ts), the query (page/search.ts), the keys
 * (page/keyboard.ts). The last page and detail are kept in the webview's state, so a
 * reloaded (hidden, then shown) panel draws them at once, before the host answers.
 */
import { h, initialState, useControls, saveState, channel } from '../common';
import { visibleText } from '../../src/shared/visibleText';
import type { PanelState } from '../../src/shared/protocol';
import type {
  PageMessage,
  SelectMessage,
  ShareAction,
  TrajectoriesHostMessage,
  TrajectoriesWebviewMessage,
  TrajectoryDetailView,
} from '../../src/shared/protocol/trajectories';
import { parseNavigate } from '../../src/shared/protocol/trajectories';
import { queryHeader, withTag } from '../../src/shared/queryChips';
import { isTagList } from '../../src/shared/protocol';
import { flagLegend } from './columns';
import { tagLegend } from './tags';
import { splitter } from './split';
import {
  createModel,
  detailArrived,
  dueToOpen,
  episodeArrived,
  evalSource,
  hostSelection,
  indexOfRow,
  navigated,
  pageArrived,
  selectIndex,
  takePage,
} from './page/store';
import { createList } from './page/list';
import { createDetailPane } from './page/detailPane';
import { createSearch } from './page/search';
import { bindKeys } from './page/keyboard';

const { post, onMessage } = channel<TrajectoriesWebviewMessage, TrajectoriesHostMessage>();

/** The panel's state, plus what the page draws from before the host answers. */
interface BrowserState extends PanelState {
  page?: PageMessage;
  detail?: TrajectoryDetailView;
  split?: number;
}

const state: BrowserState = initialState();
const startLabel = state.label;
const m = createModel(state);

const list = createList(m, {
  request: (i) => search.request(i),
  select: (i, open) => select(i, open),
  sorted: () => search.refetch(),
  setQuery: (q) => search.setQuery(q),
  scrolled: () => {
    list.renderRows();
    persist();
  },
});
const search = createSearch(m, {
  ask: (offset, limit, changed) => post({ type: 'trajectories/query', query: m.query, offset, limit, changed }),
  renderHead,
  toTop: () => (list.viewport.scrollTop = 0),
  keepFocus: () => {
    const a = document.activeElement;
    if (!a || a === document.body || !a.isConnected) list.viewport.focus({ preventScroll: true });
  },
  persist,
});
const detail = createDetailPane(m, {
  openSibling: (iteration, group, rollout) => post({ type: 'openTrajectory', iteration, group, rollout }),
  compare: (a, b) => post({ type: 'trajectories/compare', a, b }),
  setQuery: (q) => search.setQuery(q),
  share,
});
const doAction = bindKeys(m, { viewport: list.viewport, detail, select, share });

const app = document.getElementById('app')!;
const header = h('div', { class: 'muted', id: 'jump-label' });
const count = h('span', { class: 'muted', id: 'row-count' });
const browser = h('div', { class: 'browser' });
const back = h('button', { class: 'link', id: 'back-to-metrics' }, 'metrics');
back.addEventListener('click', () => post({ type: 'openMetrics' }));
const reveal = h('button', { class: 'link', id: 'reveal-in-tree' }, 'reveal in tree');
reveal.addEventListener('click', () => {
  if (m.selRow >= 0 && !evalSource(m)) post({ type: 'trajectories/reveal', row: m.selRow });
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
  h('div', { class: 'toolbar' }, ...search.fields, count),
  search.chips,
  ...legends,
  h('div', { class: 'toolbar' }, header, back, reveal, exportBtn, notebookBtn, list.cue),
  browser,
);
browser.append(
  list.el,
  splitter(browser, state.split ?? 52, (pct) => {
    state.split = pct;
    persist();
  }),
  detail.el,
);
search.sync();
// a tag anywhere (a row's flag, the legend, the detail header) filters the table by it: one click, its chip shows
app.addEventListener(
  'click',
  (e) => {
    const b = (e.target as Element | null)?.closest<HTMLElement>('[data-tag-filter]');
    const t = [b?.dataset['tagFilter']];
    if (!b || !isTagList(t)) return;
    e.stopPropagation();
    search.setQuery(withTag(m.query, t[0]!));
  },
  true,
);

/** The table's header, and the toolbar's links of training rollouts (on eval episodes: no flags' legend, tree row, export, notebook). */
function renderHead(): void {
  for (const el of [legends[0]!, reveal, exportBtn, notebookBtn]) el.style.display = evalSource(m) ? 'none' : '';
  list.renderHead();
}

function persist(): void {
  state.query = m.query;
  state.selectedRow = m.selRow;
  state.scrollTop = list.viewport.scrollTop;
  state.label = m.label;
  saveState(state);
}

/** Highlights row `i`, scrolled into view, and with `open` asks for its detail (once its page is here). */
function select(i: number, open: boolean): void {
  if (i < 0 || i >= m.total) return;
  const r = selectIndex(m, i, open);
  list.scrollToRow(i);
  list.renderRows();
  persist();
  if (evalSource(m)) {
    if (!open || !r || !('episode' in r)) return;
    m.outsideTable = false;
    if (r.episode !== m.episode?.episode) detail.loading();
    post({ type: 'trajectories/openEpisode', episode: r.episode });
    return;
  }
  if (!open || !r || !('row' in r)) return;
  // a row of the table: the detail it opens is in the table
  m.outsideTable = false;
  if (r.row !== m.detail?.row) detail.loading();
  post({ type: 'trajectories/open', row: r.row });
}

/** Asks the host to share: the shown trajectory (and `turn`), and the table's query. */
function share(action: ShareAction, turn: number | null): void {
  // links, raw records, exports and notebooks are of training rollouts; an eval episode has none of them yet
  if (evalSource(m)) return;
  const d = m.detail;
  const key = d ? { iteration: d.iteration, group: d.group, rollout: d.rollout } : null;
  post({ type: 'trajectories/share', action, key, turn, query: m.query });
}

function showPage(p: PageMessage): void {
  const said = (m.label ? `${m.label} — ` : '') + queryHeader(m.query, p.total, p.size);
  header.textContent = p.searching ? 'searching…' : visibleText(said);
  count.textContent = p.searching ? 'searching…' : `${p.total} of ${p.size} ${p.episodes ? 'evaluation episodes' : 'trajectories'}`;
  document.title = `Trajectories: ${visibleText(p.runName)}`;
  list.renderRows();
  const w = dueToOpen(m);
  if (w >= 0) select(w, true);
}

/** The host's selection for a new query: highlighted and scrolled to (a page scrolled to keeps the table where it is). */
function showHostSelection(s: SelectMessage): void {
  const how = hostSelection(m, s);
  if (how === 'stale') return;
  // the detail never shows a trajectory the table no longer holds without saying so
  detail.sayWhetherListed();
  const index = s.index;
  if (how === 'move' && index >= 0) {
    list.centre(index);
    list.renderRows();
  }
  persist();
}

onMessage((msg) => {
  switch (msg.type) {
    case 'trajectories/navigate': {
      // the host moved the browser (a jump from a chart): take its query, label and selection
      const n = parseNavigate(msg);
      if (!n) break;
      navigated(m, n.query, n.label);
      if (n.select) state.selected = n.select;
      search.sync();
      persist();
      // a jump from a chart (Enter on a point) lands in the rows: the arrows and Enter work at once
      list.viewport.focus({ preventScroll: true });
      break;
    }
    case 'trajectories/page':
      // a page of a query replaced since is another list's
      if (!pageArrived(m, msg)) break;
      showPage(msg);
      // a list of the other source (eval episodes, training rollouts) never holds the detail's: said at once;
      // the search's marks follow the query's text
      detail.followQuery();
      if (msg.offset === 0 && !msg.searching) state.page = msg;
      persist();
      break;
    case 'trajectories/select':
      showHostSelection(msg);
      break;
    case 'trajectories/detail': {
      const fresh = detailArrived(m, msg.detail);
      state.selected = { iteration: msg.detail.iteration, group: msg.detail.group, rollout: msg.detail.rollout };
      state.detail = msg.detail;
      detail.show(fresh);
      // a new detail's trajectory, when the table holds it, is the table's highlighted row, in view
      const at = fresh ? indexOfRow(m, msg.detail.row) : -1;
      if (at >= 0 && at !== m.selIndex) select(at, false);
      detail.applyPendingFocus();
      persist();
      break;
    }
    case 'trajectories/episode':
      // an eval episode: its own detail (no candidates, no group); the training detail is gone
      episodeArrived(m, msg.episode);
      state.detail = undefined;
      detail.showEpisode();
      persist();
      break;
    case 'trajectories/focusTurn':
      m.pendingFocus = { row: msg.row, turn: msg.turn };
      detail.applyPendingFocus();
      break;
    case 'trajectories/do':
      doAction(msg.action);
      break;
    case 'error':
      m.loaded = true;
      detail.error(msg.message);
      break;
    default:
      break;
  }
});

// draw the last page and detail from the saved state at once; the host's answer replaces them
if (state.page && JSON.stringify(state.page.query) === JSON.stringify(m.query)) {
  takePage(m, state.page);
  showPage(state.page);
} else list.renderRows();
if (state.detail) {
  m.detail = state.detail;
  detail.show(false);
} else if (state.selected) detail.loading();
else detail.hint();
if (state.scrollTop)
  requestAnimationFrame(() => {
    list.viewport.scrollTop = state.scrollTop ?? 0;
  });
persist();
// a browser opened by a jump (its label says from where) starts with the rows focused, as the hint says
if (startLabel) list.viewport.focus({ preventScroll: true });
post({ type: 'ready' });
useControls();
