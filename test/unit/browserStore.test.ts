import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PageMessage, RowView } from '../../src/shared/protocol/trajectories';
import {
  createModel,
  detailArrived,
  detailOutside,
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

const page = (offset: number, rows: RowView[], total: number): PageMessage => ({
  type: 'trajectories/page',
  runName: 'r',
  query: { filter: {}, sort: [] },
  total,
  size: 10,
  offset,
  rows,
  label: null,
  searching: false,
});

test("the browser's store: a new query's first page waits for the host's selection; a page scrolled to does not move the table", () => {
  const m = createModel({});
  assert.equal(pageToAsk(m, 0, 200), 0);
  assert.equal(pageToAsk(m, 5, 200), undefined, 'a page already asked for is not asked again');
  pageArrived(m, page(0, [row(4), row(7)], 2));
  assert.equal(m.loaded, true);
  assert.equal(m.rows.get(1)?.row, 7);
  assert.equal(hostSelection(m, 7, 1), true);
  assert.equal(m.selIndex, 1);
  assert.equal(m.outsideTable, false);
  pageArrived(m, page(200, [], 2));
  assert.equal(hostSelection(m, 4, 0), false, 'the selection after a page scrolled to is ignored');
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
  assert.equal(hostSelection(m, 3, -1), true);
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
  hostSelection(m, 3, -1);
  assert.equal(detailOutside(m), 'filtered', 'a query with no match');
  navigated(m, { filter: { evalIteration: 10 }, sort: [] }, 'eval episodes from the comparison');
  assert.equal(detailOutside(m), 'otherSource', 'a training trajectory while the list holds eval episodes');
  episodeArrived(m, { episode: 5 } as Parameters<typeof episodeArrived>[1]);
  assert.equal(detailOutside(m), null, 'an episode opened from the list');
  queryChanged(m);
  pageArrived(m, page(0, [], 0));
  hostSelection(m, 5, -1);
  assert.equal(detailOutside(m), 'filtered');
  navigated(m, { filter: {}, sort: [] }, null);
  assert.equal(detailOutside(m), 'otherSource', 'an eval episode while the list holds training trajectories');
});
