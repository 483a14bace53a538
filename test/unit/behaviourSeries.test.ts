import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexRecords } from '../fixtures';
import { behaviourJump, behaviourTable, seriesTag, tagSeriesName } from '../../src/extension/metrics/behaviourSeries';

const click = { action: 'click(x=1, y=1)' };
const done = { action: 'done()' };

test("the Behaviour group: a tag's rate per iteration; a plain run has no collapse charts; a point's jump filters by the tag", async () => {
  // iteration 0: one repeat of two; iteration 1: none of two
  const idx = await indexRecords([
    { iteration: 0, group: 0, rollout: 0, reward: 1, A: 0, turns: [click, click, click, done] },
    { iteration: 0, group: 0, rollout: 1, reward: 1, A: 0, turns: [click, done] },
    { iteration: 1, group: 0, rollout: 0, reward: 1, A: 0, turns: [click, done] },
    { iteration: 1, group: 0, rollout: 1, reward: 0, A: 0, turns: [click, done] },
  ]);
  const t = behaviourTable(idx);
  assert.deepEqual(t.iterations, [0, 1]);
  assert.deepEqual([...t.values(tagSeriesName('repeat'))!], [0.5, 0]);
  assert.deepEqual([...t.values(tagSeriesName('falseDone'))!], [0, 0.5]);
  assert.equal(t.values(tagSeriesName('collapsed')), undefined, 'no labeled turns: no collapsed chart');
  assert.ok(!t.names.includes('Behaviour/collapsed turn rate'));
  assert.equal(seriesTag('Behaviour/collapsed turn rate'), 'collapsed');
  assert.equal(seriesTag('ws/reward_mean'), undefined);
  assert.deepEqual(behaviourJump(tagSeriesName('repeat'), 0)?.spec, {
    filter: { iterationMin: 0, iterationMax: 0, tags: ['repeat'] },
    sort: [],
  });
  assert.equal(behaviourJump('ws/reward_mean', 0), undefined);
});
