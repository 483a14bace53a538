import type { SortKey } from '../../src/shared/shapes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFilter, querySpec } from '../../src/extension/trajectories/queryViews';
import { iterationJump, jumpFor, pointDirection } from '../../src/extension/report/jumpTable';
import { SORT_KEYS } from '../../src/shared/shapes';

test('a query from outside keeps its known fields, field by field', () => {
  const wire = {
    filter: {
      iterationMin: 2,
      iterationMax: 5,
      group: 1,
      rollout: 0,
      reward: 'failure' as const,
      labeledOnly: true,
      flags: 3,
      gate: true,
      text: 'x',
    },
    sort: [{ key: 'meanC' as const, descending: true }, { key: 'rollout' as const }],
  };
  assert.deepEqual(querySpec(wire), wire);
  assert.deepEqual(copyFilter({ ...wire.filter, other: 1 } as typeof wire.filter), wire.filter);
  assert.deepEqual(querySpec({ filter: { group: undefined, text: 'a' }, sort: [{ key: 'A', descending: false }] }), {
    filter: { text: 'a' },
    sort: [{ key: 'A' }],
  });
});

test('sort keys the engine does not know are dropped (a command argument is checked less strictly than a message)', () => {
  const sort = ['bogus', 'constructor', 'toString', 'reward'].map((key) => ({ key: key as SortKey }));
  assert.deepEqual(querySpec({ filter: {}, sort }).sort, [{ key: 'reward' }]);
});

test('every sort key of the shared shape passes to the engine', () => {
  assert.equal(SORT_KEYS.length, 12);
  for (const key of SORT_KEYS) assert.deepEqual(querySpec({ filter: {}, sort: [{ key }] }).sort, [{ key }]);
});

test('the jumps, on the wire', () => {
  assert.deepEqual(jumpFor('ws/sign_flip_rate', 7).spec.sort, [{ key: 'signFlips', descending: true }]);
  assert.deepEqual(iterationJump(4, false), {
    label: 'iteration 4',
    spec: { filter: { iterationMin: 4, iterationMax: 4 }, sort: [{ key: 'reward' }] },
  });
  assert.deepEqual(iterationJump(4, true), jumpFor('ws/gate_mean_diff', 4));
  assert.equal(iterationJump(4, true).spec.filter.gate, true);
});

test('a click on a reward spike up opens the successes first; a dip (or no direction) the failures first', () => {
  // 0.2, 0.9, 0.3: iteration 1 stands above its neighbours' mean 0.25; iteration 2 below 0.9
  const xs = [0, 1, 2];
  const ys = Float64Array.from([0.2, 0.9, 0.3]);
  assert.equal(pointDirection(xs, ys, 1), 'up');
  assert.equal(pointDirection(xs, ys, 2), 'down');
  assert.equal(pointDirection(xs, Float64Array.from([0.2, Number.NaN, 0.3]), 1), undefined, 'no value there');
  assert.equal(pointDirection([0], Float64Array.from([0.5]), 0), undefined, 'no neighbour');
  assert.equal(pointDirection(xs, Float64Array.from([Number.NaN, 0.9, 0.3]), 1), 'up', 'one finite neighbour is enough');
  const up = jumpFor('ws/reward_mean', 1, 'up');
  assert.equal(up.label, 'ws/reward_mean @ 1: succeeded first');
  assert.deepEqual(up.spec.sort, [{ key: 'reward', descending: true }]);
  assert.deepEqual(jumpFor('ws/reward_mean', 2, 'down').spec.sort, [{ key: 'reward' }]);
  assert.equal(jumpFor('ws/reward_mean', 2).label, 'ws/reward_mean @ 2: failed first');
  assert.equal(jumpFor('ws/all_fail_groups', 1, 'up').label, 'ws/all_fail_groups @ 1: failed first', 'more all-fail groups: failures');
});
