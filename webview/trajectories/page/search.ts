/**
 * The browser's query: the filter controls and the chips that show it, a new query's first
 * page asked for, and the pages the table scrolls to.
 */
import { h } from '../../common';
import type { TrajectoryQuery } from '../../../src/shared/shapes';
import { filterControls } from '../filters';
import { renderChips } from '../chips';
import type { BrowserModel } from './store';
import { pageToAsk, queryChanged } from './store';

const PAGE = 200;

/** What the query's part asks of the page. */
export interface SearchActions {
  /** posts the query for the page at `offset`; `changed`: a new query of the page's own (the host drops a jump's label) */
  ask: (offset: number, limit: number, changed: boolean) => void;
  /** the header and what depends on the source (its columns, the toolbar's links) */
  renderHead: () => void;
  /** a new query starts at the table's top */
  toTop: () => void;
  /** a control that took itself away (a chip's ×, Clear all) hands focus to the table, never the page body */
  keepFocus: () => void;
  persist: () => void;
}

export interface Search {
  /** the toolbar's fields */
  fields: HTMLElement[];
  chips: HTMLElement;
  /** replaces the whole query (a chip removed, Clear all) and fetches its first page */
  setQuery: (q: TrajectoryQuery) => void;
  /** the query changed in place (a filter, a sort): fetch its first page */
  refetch: () => void;
  /** asks for the page holding row index `i` (once) */
  request: (i: number) => void;
  /** the controls and chips show the model's query (a jump set it) */
  sync: () => void;
}

export function createSearch(m: BrowserModel, a: SearchActions): Search {
  const filters = filterControls(
    () => m.query,
    () => refetch(),
  );
  const chips = h('div', { class: 'chips', id: 'chips', role: 'toolbar', 'aria-label': 'Active filters and sort' });
  const fit = (): void => filters.fit(m.query.filter.evalIteration !== undefined, m.query);

  function request(i: number, changed = false): void {
    const o = pageToAsk(m, i, PAGE);
    if (o !== undefined) a.ask(o, PAGE, changed);
  }

  function refetch(): void {
    renderChips(chips, m.query, setQuery);
    fit();
    a.renderHead();
    queryChanged(m);
    a.toTop();
    a.persist();
    request(0, true);
  }

  function setQuery(q: TrajectoryQuery): void {
    m.query = q;
    sync();
    refetch();
    a.keepFocus();
  }

  function sync(): void {
    filters.sync(m.query);
    fit();
    a.renderHead();
    renderChips(chips, m.query, setQuery);
  }

  return { fields: filters.fields, chips, setQuery, refetch, request, sync };
}
