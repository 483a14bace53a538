import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexRecords, labeledRecord } from '../fixtures';
import { behaviourChange } from '../../src/core/behaviour/change';

const click = { action: 'click(x=100, y=100)' };
const done = { action: 'done()' };
/** a labeled turn whose other candidate differs (compared, not collapsed) */
const scored = { action: 'click(x=5, y=5)', candidates: ['click(x=5, y=5)', 'click(x=900, y=900)'], scores: [0.2, 0.1], c: 0.01, A_t: 0 };
/** Hand-worked: 22 iterations of two trajectories; a repeat (three same clicks, then done) at iterations 0, 1 and 20. */
function run(labeled: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let it = 0; it < 22; it++) {
    const loops = it === 0 || it === 1 || it === 20;
    const turns = loops ? [click, click, click, done] : [click, done];
    for (let r = 0; r < 2; r++) {
      const head = { iteration: it, group: 0, rollout: r, reward: 1, A: 0 };
      out.push(labeled ? labeledRecord(head, r === 0 ? turns : [scored, done]) : { ...head, turns: r === 0 ? turns : [click, done] });
    }
  }
  return out;
}

test('the change of a tag from the first 10 to the last 10 iterations, pooled over their trajectories', async () => {
  const c = behaviourChange(await indexRecords(run(false)));
  // first 10 iterations (0-9): 2 repeats of 20 trajectories; last 10 (12-21): 1 of 20
  assert.deepEqual(c.repeat, { first: 0.1, last: 0.05, change: 0.05 - 0.1 });
  assert.deepEqual(c.cycle, { first: 0, last: 0, change: 0 });
  // a plain run: the label tags are null, not 0
  assert.equal(c.collapsed, null);
  assert.equal(c.creditDisagrees, null);
});

test('with labeled turns the label tags have a change too', async () => {
  const c = behaviourChange(await indexRecords(run(true)));
  assert.deepEqual(c.collapsed, { first: 0, last: 0, change: 0 });
  assert.deepEqual(c.repeat, { first: 0.1, last: 0.05, change: 0.05 - 0.1 });
});
