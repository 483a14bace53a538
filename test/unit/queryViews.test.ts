import { test } from 'node:test';
import assert from 'node:assert/strict';
import { querySpec, queryView } from '../../src/extension/trajectories/queryViews';
import { iterationJump, jumpFor } from '../../src/extension/report/jumpTable';
import { SORT_KEYS } from '../../src/core/run/query';
import type { SortKeyView } from '../../src/shared/protocol';
import { SORT_KEY_VIEWS } from '../../src/shared/protocol';

test('the wire query and the engine query translate both ways, field by field', () => {
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
  assert.deepEqual(queryView(querySpec(wire)), wire);
  assert.deepEqual(querySpec({ filter: { group: undefined, text: 'a' }, sort: [{ key: 'A', descending: false }] }), {
    filter: { text: 'a' },
    sort: [{ key: 'A' }],
  });
});

test('sort keys the engine does not know are dropped (a command argument is checked less strictly than a message)', () => {
  const sort = ['bogus', 'constructor', 'toString', 'reward'].map((key) => ({ key: key as SortKeyView }));
  assert.deepEqual(querySpec({ filter: {}, sort }).sort, [{ key: 'reward' }]);
});

test('the wire and the engine sort by the same keys', () => {
  assert.deepEqual([...SORT_KEY_VIEWS].sort(), [...SORT_KEYS].sort());
  for (const key of SORT_KEYS) assert.deepEqual(queryView({ filter: {}, sort: [{ key }] }).sort, [{ key }]);
});

test('the jumps, on the wire', () => {
  assert.deepEqual(queryView(jumpFor('ws/sign_flip_rate', 7).spec).sort, [{ key: 'signFlips', descending: true }]);
  assert.deepEqual(iterationJump(4, false), {
    label: 'iteration 4',
    spec: { filter: { iterationMin: 4, iterationMax: 4 }, sort: [{ key: 'reward' }] },
  });
  assert.deepEqual(iterationJump(4, true), jumpFor('ws/gate_mean_diff', 4));
  assert.equal(iterationJump(4, true).spec.filter.gate, true);
});
