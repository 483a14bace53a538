import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTrajectoriesMessage } from '../../src/shared/protocol/trajectories';

test('the group view asks for two siblings side by side; a malformed ask is dropped', () => {
  const a = { iteration: 7, group: 1, rollout: 1 };
  const b = { iteration: 7, group: 1, rollout: 3 };
  assert.deepEqual(parseTrajectoriesMessage({ type: 'trajectories/compare', a, b }), { type: 'trajectories/compare', a, b });
  assert.deepEqual(
    parseTrajectoriesMessage({ type: 'trajectories/compare', a: { ...a, run: '/elsewhere' }, b }),
    { type: 'trajectories/compare', a, b },
    'the run is the panel’s own, never the page’s',
  );
  for (const bad of [
    { type: 'trajectories/compare', a },
    { type: 'trajectories/compare', a, b: { ...b, rollout: -1 } },
    { type: 'trajectories/compare', a, b: { ...b, group: 1.5 } },
    { type: 'trajectories/compare', a: 'x', b },
    { type: 'trajectories/compare', a: null, b },
  ])
    assert.equal(parseTrajectoriesMessage(bad), undefined, JSON.stringify(bad));
});
