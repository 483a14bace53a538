import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexRecords } from '../fixtures';
import { compareBehaviourView, tagQuery } from '../../src/extension/compare/behaviourViews';
import { parseCompareMessage } from '../../src/shared/protocol/compare';
import { behaviourWords, pPhrase } from '../../src/shared/tagWords';
import { reportBehaviourView } from '../../src/extension/report/behaviourViews';
import { figureJump } from '../../src/extension/report/reportJumps';
import { compareEpisodeTallies } from '../../src/core/compare/evalBehaviour';
import { behaviourComparison } from '../../src/core/compare/behaviour';

test('a comparison line in words: the rates, and p below 0.001 said so', () => {
  assert.equal(
    behaviourWords('loops', { rateA: 0.041, rateB: 0.079, p: 0.0004 }, 'trajectories'),
    'A loops on 4.1% of trajectories, B on 7.9%, p < 0.001.',
  );
  assert.equal(pPhrase(0.0123), 'p = 0.0123');
  assert.match(behaviourWords('loops', { rateA: 0, rateB: 0, p: null }, 'trajectories'), /no p value/);
  assert.match(behaviourWords('collapses', { rateA: null, rateB: null, p: null }, 'x'), /^Empty: it needs labeled turns/);
  assert.equal(
    behaviourWords('collapses', { rateA: null, rateB: 0.25, p: null }, 'trajectories'),
    'B collapses on 25.0% of trajectories; A has no labeled turns, so no rate and no test.',
  );
});

/** Hand-worked eval tallies: A 10 episodes, 2 repeats; B 10 episodes, 0 repeats; q = 0.1, z = 0.2 / sqrt(0.09 * 0.2) = 1.4907. */
test('eval episodes: the two-proportion test per tag, the label tags empty, and the lines say "eval episodes"', () => {
  const tagged = (repeat: number): number[] => [repeat, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const b = compareEpisodeTallies({ episodes: 10, tagged: tagged(2) }, { episodes: 10, tagged: tagged(0) });
  assert.equal(b.repeat.rateA, 0.2);
  assert.equal(b.repeat.rateB, 0);
  assert.ok(Math.abs(b.repeat.p! - 0.136) < 0.001, `p ${b.repeat.p}`);
  assert.deepEqual(b.collapsed, { rateA: null, rateB: null, diff: null, p: null });
  const v = compareBehaviourView(b, b);
  assert.equal(v.evals![0]!.words, `A loops on 20.0% of eval episodes, B on 0.0%, p = ${b.repeat.p!.toFixed(4)}.`);
  assert.equal(compareBehaviourView(b, null).evals, null);
});

test("the report's behaviour rows are core's figures; a row's jump filters by its tag", async () => {
  const click = { action: 'click(x=1, y=1)' };
  const idx = await indexRecords([
    { iteration: 0, group: 0, rollout: 0, reward: 1, A: 0, turns: [click, click, click, { action: 'done()' }] },
    { iteration: 0, group: 0, rollout: 1, reward: 0, A: 0, turns: [click] },
  ]);
  const v = reportBehaviourView(idx);
  const repeat = v.rows.find((r) => r.tag === 'repeat')!;
  assert.deepEqual(
    [repeat.count, repeat.rate, repeat.successTagged, repeat.successUntagged, repeat.first, repeat.last, repeat.change],
    [1, 0.5, 1, 0, 0.5, 0.5, 0],
  );
  assert.equal(v.rows.find((r) => r.tag === 'noDone')!.count, 1);
  assert.equal(v.rows.find((r) => r.tag === 'collapsed')!.count, null, 'a plain run: null, not 0');
  assert.deepEqual(figureJump('tag.repeat')?.spec, { filter: { tags: ['repeat'] }, sort: [] });
  assert.equal(figureJump('tag.loops'), undefined);
  // and the training comparison of a run with itself: equal rates, no difference
  const c = compareBehaviourView(behaviourComparison(idx, idx, [0]), null);
  assert.equal(c.training[0]!.words, 'A loops on 50.0% of trajectories, B on 50.0%, p = 1.0000.');
});

test("a comparison's tag row: the message checked on arrival, and the query of the run's trajectories over the window", () => {
  assert.deepEqual(parseCompareMessage({ type: 'compare/openTag', tag: 'repeat' }), { type: 'compare/openTag', tag: 'repeat' });
  assert.equal(parseCompareMessage({ type: 'compare/openTag', tag: 'loops' }), undefined);
  assert.equal(parseCompareMessage({ type: 'compare/openTag', tag: 3 }), undefined);
  assert.deepEqual(tagQuery('cycle', [2, 3, 7]), { filter: { iterationMin: 2, iterationMax: 7, tags: ['cycle'] }, sort: [] });
  assert.deepEqual(tagQuery('cycle', []), { filter: { tags: ['cycle'] }, sort: [] });
});
