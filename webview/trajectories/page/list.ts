/**
 * The browser's list: a virtualized table of the model's rows (training rollouts or eval
 * episodes), its sortable header, and the row heights it scrolls by. Drawn from the model.
 */
import { h } from '../../common';
import { watchScrollCue } from '../../scrollCueWatch';
import { scrollTopFor } from '../../scrollMath';
import type { TrajectoryQuery } from '../../../src/shared/shapes';
import type { TextMatchView } from '../../../src/shared/protocol/trajectories';
import { visibleText } from '../../../src/shared/visibleText';
import { logNodes } from '../text';
import { COLUMNS, colClass } from '../columns';
import type { Column } from '../columns';
import { EPISODE_COLUMNS } from '../episodes';
import type { EpisodeColumn } from '../episodes';
import type { BrowserModel } from './store';
import { evalSource } from './store';

export const ROW_H = 22;
/** where a text filter's "found" column goes: after the row's key (iteration, group or task, rollout or sample) */
const MATCH_AT = 3;

/** `lines` grey lines standing in for what is on its way. */
export const skeleton = (lines: number, cls: string): HTMLElement[] =>
  Array.from({ length: lines }, (_, i) => h('div', { class: `${cls}${i % 3 === 2 ? ' short' : ''}`, 'aria-hidden': 'true' }));

/** A row's "found" cell under a text filter: where the text is, and the text around it with the hit marked. */
function matchCell(mt: TextMatchView | null | undefined): HTMLElement {
  if (!mt)
    return h(
      'span',
      { class: 'match-cell muted', role: 'gridcell', title: 'the text is in a field the browser does not show' },
      'other fields',
    );
  return h(
    'span',
    { class: 'match-cell', role: 'gridcell', title: `${mt.where}: ${visibleText(mt.before + mt.hit + mt.after)}` },
    h('span', { class: 'match-where' }, mt.where),
    ' ',
    ...logNodes(mt.before),
    h('mark', { class: 'hit' }, ...logNodes(mt.hit)),
    ...logNodes(mt.after),
  );
}

/** What the list asks of the page. */
export interface ListActions {
  /** asks for the page holding row index `i` (not here yet) */
  request: (i: number) => void;
  /** a click on row `i` */
  select: (i: number, open: boolean) => void;
  /** the sort changed (a header click) */
  sorted: () => void;
  /** the zero-matches line's "Clear all filters" */
  setQuery: (q: TrajectoryQuery) => void;
  /** the table scrolled */
  scrolled: () => void;
}

export interface List {
  /** the table: its header and its rows' viewport */
  el: HTMLElement;
  /** the rows' scroller, which takes the keys */
  viewport: HTMLElement;
  /** "more columns →" above a table narrower than its columns */
  cue: HTMLElement;
  renderHead: () => void;
  renderRows: () => void;
  /** scrolls the table so that row `i` is in view */
  scrollToRow: (i: number) => void;
  /** scrolls the table so that row `i` is in its middle */
  centre: (i: number) => void;
}

export function createList(m: BrowserModel, a: ListActions): List {
  const columns = (): readonly (Column | EpisodeColumn)[] => (evalSource(m) ? EPISODE_COLUMNS : COLUMNS);
  const searching = (): boolean => !!m.query.filter.text?.trim();
  const thead = h('div', { class: 'thead', role: 'row' });
  /** The header scrolls sideways with the rows (the table scrolls rather than clip a column). */
  const theadWrap = h('div', { class: 'thead-wrap', role: 'rowgroup' }, thead);
  /** one grid for screen readers: the header's row group and the rows' (the viewport) */
  const el = h('div', { class: 'table-wrap', role: 'grid', 'aria-label': 'Trajectories' }, theadWrap);
  const viewport = h('div', { class: 'viewport', tabindex: 0, role: 'rowgroup', 'aria-label': 'Trajectories, rows', id: 'table' });
  const spacer = h('div', { class: 'spacer' });
  viewport.append(spacer);
  el.append(viewport);
  /** The rows' scrollbar width, so that the header (padded by it) lines up with them to the last column. */
  const fitHeader = (): void => {
    el.style.setProperty('--sbw', `${viewport.offsetWidth - viewport.clientWidth}px`);
    theadWrap.scrollLeft = viewport.scrollLeft;
  };
  new ResizeObserver(fitHeader).observe(viewport);
  // a narrow panel hides the right-hand columns behind the sideways scroll: say so above the table
  const cue = h('div', { class: 'scroll-cue muted', id: 'table-scroll-cue', 'aria-hidden': 'true' });
  watchScrollCue(viewport, cue);

  /** Click: sort by that column (again: the other way). Shift+click: add it as the next key. */
  function renderHead(): void {
    const q = m.query;
    el.classList.toggle('searching', searching());
    thead.replaceChildren(
      ...columns().map((c) => {
        const at = q.sort.findIndex((x) => x.key === c.key);
        const s = at >= 0 ? q.sort[at] : undefined;
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
          s && q.sort.length > 1 ? h('sup', { 'aria-label': `sort key ${at + 1}` }, at + 1) : null,
        );
        b.addEventListener('click', (e) => {
          const flipped = { key: c.key, ...(s && !s.descending ? { descending: true } : {}) };
          if (e.shiftKey && q.sort.length > 0)
            q.sort = at >= 0 ? q.sort.map((x, i) => (i === at ? flipped : x)) : [...q.sort, { key: c.key }];
          else q.sort = [at === 0 ? flipped : { key: c.key }];
          a.sorted();
        });
        return b;
      }),
    );
    // the text filter's column, after the row's key (always in view): where each row holds the text
    if (searching())
      thead.children[MATCH_AT - 1]?.after(
        h('span', { role: 'columnheader', class: 'match-head', title: 'where the searched text is' }, 'found'),
      );
  }

  /** No rows yet (the skeleton) or none matching (the zero line): what the table says instead; null when it has rows. */
  function emptyState(): HTMLElement | null {
    if (!m.loaded)
      return h(
        'div',
        { class: 'skeleton', id: 'table-skeleton', 'aria-busy': 'true', 'aria-label': 'loading trajectories' },
        ...skeleton(12, 'skeleton-row'),
      );
    if (m.total > 0) return null;
    const clear = h('button', { class: 'link', id: 'zero-clear' }, 'Clear all filters');
    clear.addEventListener('click', () => a.setQuery({ filter: {}, sort: m.query.sort }));
    return h(
      'div',
      { class: 'zero-matches', id: 'zero-matches', role: 'status' },
      `No ${evalSource(m) ? 'evaluation episode' : 'trajectory'} of ${m.size} matches these filters. `,
      clear,
    );
  }

  /** Row `i` of the table, or undefined (then asked for) when its page is not here yet. */
  function rowEl(i: number): HTMLElement | undefined {
    const sel = { class: `trow${i === m.selIndex ? ' sel' : ''}`, role: 'row', 'aria-selected': String(i === m.selIndex), 'data-index': i };
    const cells = <R>(cols: readonly { cell: (r: R) => string | HTMLElement; num?: boolean; sticky?: boolean }[], r: R): HTMLElement[] =>
      cols.map((c) => h('span', { class: colClass(c), role: 'gridcell' }, c.cell(r)));
    let row: HTMLElement;
    if (evalSource(m)) {
      const r = m.episodeRows.get(i);
      if (!r) return void a.request(i);
      row = h('div', { ...sel, 'data-episode': r.episode }, ...cells(EPISODE_COLUMNS, r));
      if (searching()) row.children[MATCH_AT - 1]?.after(matchCell(r.match));
    } else {
      const r = m.rows.get(i);
      if (!r) return void a.request(i);
      row = h('div', { ...sel, 'data-row': r.row, 'data-key': `${r.iteration}/${r.group}/${r.rollout}` }, ...cells(COLUMNS, r));
      if (searching()) row.children[MATCH_AT - 1]?.after(matchCell(r.match));
    }
    row.style.top = `${i * ROW_H}px`;
    return row;
  }

  function renderRows(): void {
    const empty = emptyState();
    if (empty) {
      spacer.style.height = '';
      spacer.replaceChildren(empty);
      return;
    }
    spacer.style.height = `${m.total * ROW_H}px`;
    const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_H) - 5);
    const last = Math.min(m.total, first + Math.ceil(viewport.clientHeight / ROW_H) + 10);
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const r = rowEl(i);
      if (r) rows.push(r);
    }
    spacer.replaceChildren(...rows);
  }

  function scrollToRow(i: number): void {
    const view = { scrollTop: viewport.scrollTop, height: viewport.clientHeight };
    const top = scrollTopFor({ top: i * ROW_H, height: ROW_H }, view, 'nearest');
    if (top !== view.scrollTop) viewport.scrollTop = top;
  }

  viewport.addEventListener('scroll', () => {
    fitHeader();
    a.scrolled();
  });
  // one listener for every row, present and future
  spacer.addEventListener('click', (e) => {
    const row = (e.target as Element | null)?.closest<HTMLElement>('.trow');
    if (row) a.select(Number(row.dataset['index']), true);
  });
  const centre = (i: number): void => {
    viewport.scrollTop = Math.max(0, i * ROW_H - viewport.clientHeight / 2);
  };
  return { el, viewport, cue, renderHead, renderRows, scrollToRow, centre };
}
