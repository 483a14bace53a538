import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EpisodeRowView, PageMessage, RowView, SelectMessage } from '../../src/shared/protocol/trajectories';
import type { TrajectoryQuery } from '../../src/shared/shapes';
import {
  createModel,
  detailArrived,
  detailOutside,
  dueToOpen,
  episodeArrived,
  hostSelection,
  indexOfRow,
  navigated,
  pageArrived,
  pageToAsk,
  queryChanged,
  selectIndex,
} from '../../webview/trajectories/page/store';

const row = (r: number): RowView => ({
  row: r,
  iteration: 1,
  group: 0,
  rollout: r,
  reward: 1,
  A: 0.5,
  labeled: true,
  turns: 3,
  labeledTurns: 3,
  meanC: 0,
  signFlips: 0,
  argmaxTurns: 0,
  fallbackTurns: 0,
  flags: 0,
  tags: [],
});

const ALL: TrajectoryQuery = { filter: {}, sort: [] };

const page = (offset: number, rows: RowView[], total: number, query: TrajectoryQuery = ALL): PageMessage => ({
  type: 'trajectories/page',
  runName: 'r',
  query,
  total,
  size: 10,
  offset,
  rows,
  label: null,
  searching: false,
});

const sel = (row: number, index: number, query: TrajectoryQuery = ALL): SelectMessage => ({
  type: 'trajectories/select',
  query,
  row,
  index,
});

test("the browser's store: a new query's first page waits for the host's selection; a page scrolled to does not move the table", () => {
  const m = createModel({});
  assert.equal(pageToAsk(m, 0, 200), 0);
  assert.equal(pageToAsk(m, 5, 200), undefined, 'a page already asked for is not asked again');
  pageArrived(m, page(0, [row(4), row(7)], 2));
  assert.equal(m.loaded, true);
  assert.equal(m.rows.get(1)?.row, 7);
  assert.equal(hostSelection(m, sel(7, 1)), 'move');
  assert.equal(m.selIndex, 1);
  assert.equal(m.outsideTable, false);
  pageArrived(m, page(200, [], 2));
  assert.equal(hostSelection(m, sel(4, 0)), 'note', 'the selection after a page scrolled to does not move the table');
  assert.equal(m.selIndex, 1);
});

test("the browser's store: a query that no longer holds the trajectory says so; a new query forgets rows and selection", () => {
  const m = createModel({ label: 'from a chart' });
  pageArrived(m, page(0, [row(1)], 1));
  queryChanged(m);
  assert.equal(m.rows.size, 0);
  assert.equal(m.selIndex, -1);
  assert.equal(m.label, null, "the jump's label no longer names the query");
  pageArrived(m, page(0, [], 0));
  assert.equal(hostSelection(m, sel(3, -1)), 'move');
  assert.equal(m.outsideTable, true);
  navigated(m, { filter: { iterationMin: 2 }, sort: [] }, 'a jump');
  assert.equal(m.awaitSelection, 'page');
  assert.equal(m.label, 'a jump');
});

test("the browser's store: a detail is fresh only for another trajectory; its row is found among the rows here", () => {
  const m = createModel({});
  pageArrived(m, page(0, [row(4), row(7)], 2));
  const d = { row: 7 } as Parameters<typeof detailArrived>[1];
  assert.equal(detailArrived(m, d), true);
  assert.equal(detailArrived(m, d), false);
  assert.equal(indexOfRow(m, 7), 1);
  assert.equal(indexOfRow(m, 9), -1);
  assert.equal((selectIndex(m, 0) as RowView | undefined)?.rollout, 4);
  assert.equal(m.selRow, 4);
});

test("the browser's store: the detail says when the list does not hold it (filtered out, or of the other source)", () => {
  const m = createModel({});
  assert.equal(detailOutside(m), null, 'nothing shown');
  detailArrived(m, { row: 3 } as Parameters<typeof detailArrived>[1]);
  assert.equal(detailOutside(m), null);
  pageArrived(m, page(0, [], 0));
  hostSelection(m, sel(3, -1));
  assert.equal(detailOutside(m), 'filtered', 'a query with no match');
  navigated(m, { filter: { evalIteration: 10 }, sort: [] }, 'eval episodes from the comparison');
  assert.equal(detailOutside(m), 'otherSource', 'a training trajectory while the list holds eval episodes');
  episodeArrived(m, { episode: 5 } as Parameters<typeof episodeArrived>[1]);
  assert.equal(detailOutside(m), null, 'an episode opened from the list');
  const evals = m.query;
  queryChanged(m);
  pageArrived(m, page(0, [], 0, evals));
  hostSelection(m, sel(5, -1, evals));
  assert.equal(detailOutside(m), 'filtered');
  navigated(m, { filter: {}, sort: [] }, null);
  assert.equal(detailOutside(m), 'otherSource', 'an eval episode while the list holds training trajectories');
});

test("the browser's store: a page and a selection of a query replaced since are dropped; the query's own are taken in any key order", () => {
  // the page sets a query, then another before the host answers the first (two filters typed in a row)
  const m = createModel({});
  pageArrived(m, page(0, [row(1), row(2), row(3)], 3));
  hostSelection(m, sel(3, 2));
  const from40: TrajectoryQuery = { filter: { iterationMin: 40 }, sort: [] };
  const none: TrajectoryQuery = { filter: { iterationMin: 40, iterationMax: 30 }, sort: [] };
  m.query = from40;
  queryChanged(m);
  m.query = none;
  queryChanged(m);
  // the first query's answer arrives late: its rows are another list's, its selection not this table's
  assert.equal(pageArrived(m, page(0, [row(2), row(3)], 2, from40)), false);
  assert.equal(m.rows.size, 0, "the replaced query's rows are not taken");
  assert.equal(hostSelection(m, sel(3, 1, from40)), 'stale');
  assert.equal(m.selIndex, -1);
  // the query's own answer, its keys in another order: the detail is in no row of it
  const same: TrajectoryQuery = { sort: [], filter: { iterationMax: 30, iterationMin: 40 } };
  assert.equal(pageArrived(m, page(0, [], 0, same)), true);
  assert.equal(hostSelection(m, sel(3, -1, same)), 'move');
  assert.equal(m.outsideTable, true, 'the detail says it is not in the table');
  // a later selection of the same query (a page scrolled to, a refresh) still says whether it is listed
  m.outsideTable = false;
  assert.equal(hostSelection(m, sel(3, -1, none)), 'note');
  assert.equal(m.outsideTable, true);
  // set again, an earlier query is the table's again: its answers count
  m.query = { filter: { iterationMin: 40 }, sort: [] };
  queryChanged(m);
  assert.equal(pageArrived(m, page(0, [row(2)], 1, from40)), true);
});

test("the browser's store: a page of a query the page never listed (the host's, as it restores the panel) is shown", () => {
  const m = createModel({ query: { filter: { group: 3 }, sort: [] } });
  const hosts: TrajectoryQuery = { filter: { group: 4 }, sort: [] };
  assert.equal(pageArrived(m, page(0, [row(1)], 1, hosts)), true);
  assert.equal(m.rows.get(0)?.row, 1);
  assert.equal(hostSelection(m, sel(1, 0, hosts)), 'move');
});

test("the browser's store: a row clicked while the table's query changes opens when its page arrives, training or eval", () => {
  const m = createModel({});
  pageArrived(m, page(0, [row(4), row(7)], 2));
  queryChanged(m); // a sort: the drawn rows are the old list's until the new page comes
  assert.equal(selectIndex(m, 0, true), undefined);
  assert.equal(dueToOpen(m), -1, 'not before its page');
  pageArrived(m, page(0, [row(7), row(4)], 2));
  assert.equal(dueToOpen(m), 0);
  assert.equal((selectIndex(m, 0, true) as RowView | undefined)?.row, 7);
  assert.equal(dueToOpen(m), -1, 'opened once');

  // the same on a checkpoint's eval episodes
  const e = createModel({ query: { filter: { evalIteration: 39 }, sort: [] } });
  const episode = (n: number): EpisodeRowView => ({ episode: n }) as EpisodeRowView;
  const evalPage = (rows: EpisodeRowView[]): PageMessage => ({ ...page(0, [], rows.length, e.query), episodes: rows });
  pageArrived(e, evalPage([episode(1), episode(2)]));
  e.query = { filter: { evalIteration: 39 }, sort: [{ key: 'reward', descending: true }] };
  queryChanged(e);
  assert.equal(selectIndex(e, 0, true), undefined);
  pageArrived(e, evalPage([episode(2), episode(1)]));
  assert.equal(dueToOpen(e), 0, 'the eval row clicked opens once its page is here');
  assert.equal((selectIndex(e, 0, true) as EpisodeRowView | undefined)?.episode, 2);
  assert.equal(e.selRow, 2);
  // a row highlighted without asking to open it does not open
  queryChanged(e);
  selectIndex(e, 1);
  pageArrived(e, evalPage([episode(2), episode(1)]));
  assert.equal(dueToOpen(e), -1);
});
