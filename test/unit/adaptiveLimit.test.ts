import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { AdaptiveLimit } from '../../src/core/hub/download/adaptive';

const WINDOW = 100;

/** Sixteen ranges waiting for a slot: the pool always has work for one more connection. */
function queued(limit: AdaptiveLimit): AbortController {
  const ac = new AbortController();
  for (let i = 0; i < 16; i++) void limit.acquire(ac.signal);
  return ac;
}

/** Half a window of the clock, with half of `perWindow(limit)` bytes moved in it (at the limit of that half). */
async function halfOf(limit: AdaptiveLimit, perWindow: (connections: number) => number): Promise<void> {
  limit.moved(perWindow(limit.limit) / 2);
  mock.timers.tick(WINDOW / 2);
  await new Promise<void>((r) => setImmediate(r));
}

/** The half window of the first bytes (the request's start): it is judged by nothing, so the limit stays. */
async function started(limit: AdaptiveLimit): Promise<void> {
  const before = limit.limit;
  await halfOf(limit, () => 2);
  assert.equal(limit.limit, before, 'the first bytes half window judged nothing');
}

/** One window of the clock, in its two halves. */
async function windowOf(limit: AdaptiveLimit, perWindow: (connections: number) => number): Promise<void> {
  await halfOf(limit, perWindow);
  await halfOf(limit, perWindow);
}

test('a cap per connection: the slow start doubles the connections each half window while the rate doubles', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  await started(limit);
  const seen: number[] = [];
  // 25 bytes a window a connection: the rate is the limit times 25
  for (let h = 0; h < 4; h++) {
    await halfOf(limit, (n) => n * 25);
    seen.push(limit.limit);
  }
  // 1 -> 2 -> 4 -> 8 -> 16 in two windows: each doubling doubled the rate
  assert.deepEqual(seen, [2, 4, 8, 16]);
  ac.abort();
  limit.stop();
});

test('a link one connection fills: the first doubling that buys nothing is given back within the first window, and no more is added', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  await started(limit);
  const seen: number[] = [];
  // the same bytes a window whatever the connections (the CPU is the limit)
  await halfOf(limit, () => 1000);
  seen.push(limit.limit);
  for (let w = 0; w < 4; w++) {
    await halfOf(limit, () => 1000);
    seen.push(limit.limit);
  }
  // the first half sets the base and tries 2; 2 bought nothing in the second half: back to 1, and it stays
  assert.deepEqual(seen, [2, 1, 1, 1, 1]);
  ac.abort();
  limit.stop();
});

test('after the slow start, growth is judged a whole window at a time, and a 429 halves the limit', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 4, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  await started(limit);
  // a cap of 6 connections' worth: 4 -> 8 buys only 1.5x of 4's rate (not over 1.5x): back to 4
  const capped = (n: number): number => Math.min(n, 6) * 25;
  await halfOf(limit, capped);
  assert.equal(limit.limit, 8);
  await halfOf(limit, capped);
  assert.equal(limit.limit, 4);
  // from now on a half window judges nothing; the plateau waits for whole windows
  await halfOf(limit, capped);
  assert.equal(limit.limit, 4);
  await windowOf(limit, capped);
  assert.equal(limit.limit, 4);
  limit.throttled();
  assert.equal(limit.limit, 2);
  ac.abort();
  limit.stop();
});

test('a slow first answer: the rate is judged from the half window after the first bytes, not from the wait for them', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  // two half windows with no byte (the resolve, the redirect), then the first bytes
  await halfOf(limit, () => 0);
  await halfOf(limit, () => 0);
  await started(limit);
  // one connection fills the link: 2 is tried and given back, as on any link the CPU limits
  await halfOf(limit, () => 1000);
  assert.equal(limit.limit, 2);
  await halfOf(limit, () => 1000);
  assert.equal(limit.limit, 1);
  ac.abort();
  limit.stop();
});

test('one connection that keeps the thread busy: no second one is tried; a thread with room still doubles', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  // 90% busy: the most the rate could still grow is 1.11x, a doubling must bring 1.5x
  const busy = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW, busy: () => 0.9 });
  const ac = queued(busy);
  await started(busy);
  const seen: number[] = [];
  for (let h = 0; h < 6; h++) {
    await halfOf(busy, (n) => n * 25);
    seen.push(busy.limit);
  }
  assert.deepEqual(seen, [1, 1, 1, 1, 1, 1]);
  ac.abort();
  busy.stop();
  // 20% busy: room for 5x, so the slow start doubles as without the option
  const idle = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW, busy: () => 0.2 });
  const ac2 = queued(idle);
  await started(idle);
  await halfOf(idle, (n) => n * 25);
  await halfOf(idle, (n) => n * 25);
  assert.equal(idle.limit, 4);
  ac2.abort();
  idle.stop();
});

test('a thread busy with other work: one connection whose reads waited for their bytes nearly all the time still doubles', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  /** half a window at 25 bytes a connection, the reads waiting `share` of it */
  const half = async (limit: AdaptiveLimit, share: number): Promise<void> => {
    limit.waited((share * WINDOW) / 2);
    await halfOf(limit, (n) => n * 25);
  };
  // 90% busy (a profiler, an extension host's other work), but a cap holds the link back
  const capped = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW, busy: () => 0.9 });
  const ac = queued(capped);
  await started(capped);
  await half(capped, 0.99);
  assert.equal(capped.limit, 2);
  ac.abort();
  capped.stop();
  // the reads waited 70%: the fetch's own parsing is in the wait; the thread's load still judges
  const full = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW, busy: () => 0.9 });
  const ac2 = queued(full);
  await started(full);
  await half(full, 0.7);
  await half(full, 0.7);
  assert.equal(full.limit, 1);
  ac2.abort();
  full.stop();
});

test('a busy thread stops only the doubling from one connection: with more, the rate alone judges', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 4, max: 16, windowMs: WINDOW, busy: () => 0.9 });
  const ac = queued(limit);
  await started(limit);
  await halfOf(limit, (n) => n * 25);
  assert.equal(limit.limit, 8);
  ac.abort();
  limit.stop();
});

/**
 * Half a window in which `receiving` connections received `perConnection` bytes a ms each,
 * and `late` more received for `lateShare` of the half only (on their way to their first byte before).
 */
async function flowedHalf(limit: AdaptiveLimit, receiving: number, perConnection: number, late = 0, lateShare = 0): Promise<void> {
  const ms = (receiving + late * lateShare) * (WINDOW / 2);
  limit.flowed(ms, ms * perConnection);
  limit.moved(ms * perConnection);
  mock.timers.tick(WINDOW / 2);
  await new Promise<void>((r) => setImmediate(r));
}

test('a cap per connection: a growth that kept each connection rate makes the next step four times', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  await started(limit);
  const seen: number[] = [];
  for (let h = 0; h < 3; h++) {
    await flowedHalf(limit, limit.limit, 25);
    seen.push(limit.limit);
  }
  // 1 -> 2 (a doubling: nothing is known yet) -> 8 -> 16, where the rate alone went 1 -> 2 -> 4 -> 8
  assert.deepEqual(seen, [2, 8, 16]);
  ac.abort();
  limit.stop();
  // each connection's rate rose with the second one (a connection warming up): a doubling again
  const warming = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac2 = queued(warming);
  await started(warming);
  await flowedHalf(warming, 1, 25);
  await flowedHalf(warming, 2, 50);
  assert.equal(warming.limit, 4);
  ac2.abort();
  warming.stop();
});

test('the connections a growth added, not yet receiving: it is judged when they are, by what they then bring', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  // a cap per connection: the second connection brings its share once it receives
  const capped = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac = queued(capped);
  await started(capped);
  await flowedHalf(capped, 1, 25);
  assert.equal(capped.limit, 2);
  // the second connection received for a tenth of the half: the rate alone would give it back
  await flowedHalf(capped, 1, 25, 1, 0.1);
  assert.equal(capped.limit, 2, 'not judged yet');
  await flowedHalf(capped, 2, 25);
  assert.equal(capped.limit, 8);
  ac.abort();
  capped.stop();
  // the thread is the limit: once both receive, each receives half as fast, and the second is given back
  const full = new AdaptiveLimit({ initial: 1, max: 16, windowMs: WINDOW });
  const ac2 = queued(full);
  await started(full);
  await flowedHalf(full, 1, 100);
  assert.equal(full.limit, 2);
  // while the second waits for its first byte, the first keeps its rate: no growth is seen in that
  await flowedHalf(full, 1, 100, 1, 0.2);
  assert.equal(full.limit, 2);
  await flowedHalf(full, 2, 50);
  assert.equal(full.limit, 1);
  ac2.abort();
  full.stop();
});

test('a growth that bought part of its share keeps the connections it was worth', async (t) => {
  mock.timers.enable({ apis: ['setInterval'] });
  t.after(() => mock.timers.reset());
  const limit = new AdaptiveLimit({ initial: 4, max: 16, windowMs: WINDOW });
  const ac = queued(limit);
  await started(limit);
  await flowedHalf(limit, 4, 25);
  assert.equal(limit.limit, 8);
  // 8 connections at 18.75 bytes a ms each: 6 connections' worth of 4's rate, 1.5x where 2x was asked
  await flowedHalf(limit, 8, 18.75);
  assert.equal(limit.limit, 6);
  ac.abort();
  limit.stop();
});
