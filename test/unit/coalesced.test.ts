import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Coalesced } from '../../src/core/run/coalesced';

/** A job whose runs end when the test says so; `seen` is what each run read of `state`. */
function gated(): { job: () => Promise<void>; release: () => void; runs: () => number; seen: number[]; state: { v: number } } {
  const waiting: (() => void)[] = [];
  const seen: number[] = [];
  const state = { v: 0 };
  let runs = 0;
  return {
    job: () => {
      runs++;
      return new Promise<void>((res) => waiting.push(() => (seen.push(state.v), res())));
    },
    release: () => waiting.shift()?.(),
    runs: () => runs,
    seen,
    state,
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a run asked while one runs starts one more after it, which sees the change made meanwhile', async () => {
  const g = gated();
  const c = new Coalesced(g.job);
  const first = c.run();
  g.state.v = 1;
  const second = c.run();
  const third = c.run();
  assert.equal(second, third, 'callers who asked meanwhile share the follow-up');
  g.release();
  await first;
  await tick();
  assert.equal(g.runs(), 2, 'the follow-up started after the first');
  g.release();
  await second;
  assert.deepEqual(g.seen, [1, 1]);
});

test('settled() waits for the running job and starts none; after it ended, it starts none either', async () => {
  const g = gated();
  const c = new Coalesced(g.job);
  const first = c.run();
  const s = c.settled();
  g.release();
  await Promise.all([first, s]);
  await c.settled();
  assert.equal(g.runs(), 1);
});

test('settled() starts a first run when none ever ran; a failed run does not make settled() reject later', async () => {
  let n = 0;
  const c = new Coalesced(() => (++n === 1 ? Promise.reject(new Error('boom')) : Promise.resolve()));
  await assert.rejects(c.settled(), /boom/);
  await c.settled();
  assert.equal(n, 1);
  await c.run();
  assert.equal(n, 2);
});
