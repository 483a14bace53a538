import type { TrajectoryQuery } from '../../src/shared/shapes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { queryChips, queryHeader } from '../../src/shared/queryChips';
import { jumpFor } from '../../src/extension/report/jumpTable';
import { querySpec } from '../../src/extension/trajectories/queryViews';

const wire = (metric: string, it: number): TrajectoryQuery => JSON.parse(JSON.stringify(jumpFor(metric, it).spec)) as TrajectoryQuery;

test("every jump's filter and sort shows as a chip: the argmax and gate filters too", () => {
  const argmax = queryChips(wire('ws/executed_is_argmax_rate', 11)).map((c) => c.label);
  assert.deepEqual(argmax, ['iteration 11', 'has executed = argmax', 'sort argmax turns ↓']);
  const gate = queryChips(wire('ws/gate_mean_diff', 3)).map((c) => c.id);
  assert.deepEqual(gate, ['iteration', 'gate', 'sort-group', 'sort-reward']);
});

test('removing every chip one by one leaves the empty query (nothing hidden stays behind)', () => {
  for (const metric of [
    'ws/sign_flip_rate',
    'ws/executed_is_argmax_rate',
    'ws/gate_mean_diff',
    'ws/fallback_rate',
    'ws/c_mean',
    'reward',
  ]) {
    let q = wire(metric, 11);
    q.filter.text = 'click';
    q.filter.rollout = 2;
    q.filter.reward = 'failure';
    let guard = 0;
    for (let chips = queryChips(q); chips.length > 0; chips = queryChips(q)) {
      q = chips[0]!.without(q);
      assert.ok(guard++ < 20);
    }
    assert.deepEqual(querySpec(q), querySpec({ filter: {}, sort: [] }), metric);
  }
});

test('the header is built from the live query: no stale iteration once the range is cleared', () => {
  const q = wire('ws/c_mean', 11);
  assert.match(queryHeader(q, 40, 10800), /^40 of 10800 trajectories · iteration 11 · labeled only$/);
  const cleared = queryChips(q)[0]!.without(q);
  assert.equal(queryHeader(cleared, 7000, 10800), '7000 of 10800 trajectories · labeled only');
  assert.equal(queryHeader({ filter: {}, sort: [{ key: 'reward' }] }, 10800, 10800), 'all 10800 trajectories');
  assert.match(queryHeader({ filter: { iterationMin: 9, iterationMax: 3 }, sort: [] }, 0, 10), /empty range/);
});
