import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argmaxHalfWidth, iterationAlerts } from '../../src/core/live/alerts';
import type { AlertInput } from '../../src/core/live/alerts';
import { nextEvents, staleLimitMs, STALE_MIN_MS } from '../../src/core/live/liveEvents';
import type { LiveIteration, LiveSnapshot } from '../../src/core/live/liveEvents';
import { addToRanges, cursorFromText, cursorText, emptyCursor, parseCursor } from '../../src/core/live/liveCursor';

const quiet: AlertInput = {
  iteration: 7,
  signFlipRate: 0,
  fallbackRate: 0,
  executedIsArgmaxRate: 0.2,
  creditedTurns: 100,
  windowMeanC: 0,
  disagreements: [],
};
const checks = (x: Partial<AlertInput>): string[] => iterationAlerts({ ...quiet, ...x }).map((a) => a.check);

test('signFlip: any flip alerts, none does not', () => {
  assert.deepEqual(checks({ signFlipRate: 0 }), []);
  assert.deepEqual(iterationAlerts({ ...quiet, signFlipRate: 0.001 }), [
    { type: 'alert', iteration: 7, check: 'signFlip', value: 0.001, limit: 0 },
  ]);
  assert.deepEqual(checks({ signFlipRate: null }), []);
});

test('fallback: 0.05 alerts, just under does not', () => {
  assert.deepEqual(checks({ fallbackRate: 0.0499999 }), []);
  assert.deepEqual(iterationAlerts({ ...quiet, fallbackRate: 0.05 }), [
    { type: 'alert', iteration: 7, check: 'fallback', value: 0.05, limit: 0.05 },
  ]);
});

test('argmax: outside 3 sqrt(0.16 / n) of chance on either side alerts, inside does not', () => {
  const n = 100;
  const half = argmaxHalfWidth(n);
  assert.ok(Math.abs(half - 0.12) < 1e-12);
  for (const inside of [0.2 + half - 1e-9, 0.2 - half + 1e-9, 0.2 + half])
    assert.deepEqual(checks({ executedIsArgmaxRate: inside }), [], `${inside}`);
  for (const outside of [0.2 + half + 1e-9, 0.2 - half - 1e-9]) {
    const a = iterationAlerts({ ...quiet, executedIsArgmaxRate: outside });
    assert.deepEqual(a, [{ type: 'alert', iteration: 7, check: 'argmax', value: outside, limit: half }]);
  }
  // the band narrows with more turns: the same rate alerts at 400 turns and not at 100
  assert.deepEqual(checks({ executedIsArgmaxRate: 0.29, creditedTurns: 100 }), []);
  assert.deepEqual(checks({ executedIsArgmaxRate: 0.29, creditedTurns: 400 }), ['argmax']);
  assert.deepEqual(checks({ executedIsArgmaxRate: 0.9, creditedTurns: 0 }), []);
});

test('meanC: |mean| of 0.03 alerts on either sign, just under does not', () => {
  assert.deepEqual(checks({ windowMeanC: 0.0299999 }), []);
  assert.deepEqual(checks({ windowMeanC: -0.0299999 }), []);
  assert.deepEqual(iterationAlerts({ ...quiet, windowMeanC: 0.03 }), [
    { type: 'alert', iteration: 7, check: 'meanC', value: 0.03, limit: 0.03 },
  ]);
  assert.deepEqual(checks({ windowMeanC: -0.031 }), ['meanC']);
});

test('loggedDisagrees: one alert per disagreeing field, with the logged value and the twin as limit', () => {
  const a = iterationAlerts({ ...quiet, disagreements: [{ metric: 'ws/c_mean', logged: 0.5, recomputed: 0.1 }] });
  assert.deepEqual(a, [{ type: 'alert', iteration: 7, check: 'loggedDisagrees', value: 0.5, limit: 0.1, field: 'ws/c_mean' }]);
});

test('the alerts come in the order of the checks', () => {
  const all = checks({
    signFlipRate: 0.1,
    fallbackRate: 0.1,
    executedIsArgmaxRate: 0.9,
    windowMeanC: 0.5,
    disagreements: [{ metric: 'ws/fallback_rate', logged: 1, recomputed: 0.1 }],
  });
  assert.deepEqual(all, ['signFlip', 'fallback', 'argmax', 'meanC', 'loggedDisagrees']);
});

function iteration(i: number, o: Partial<LiveIteration> = {}): LiveIteration {
  return {
    iteration: i,
    trajectories: 10,
    reward: 0.5,
    complete: true,
    signFlipRate: 0,
    fallbackRate: 0,
    executedIsArgmaxRate: 0.2,
    creditedTurns: 100,
    sumC: 0,
    cCount: 10,
    disagreements: [],
    ...o,
  };
}
const snap = (its: LiveIteration[], o: Partial<LiveSnapshot> = {}): LiveSnapshot => ({
  iterations: its,
  checkpoints: [],
  evaluations: [],
  ...o,
});
const T0 = 1_800_000_000_000;

test('iteration: each complete iteration once, an incomplete one when it completes', () => {
  const s1 = snap([iteration(0), iteration(1, { complete: false })]);
  const a = nextEvents(s1, emptyCursor(), T0);
  assert.deepEqual(a.events, [{ type: 'iteration', iteration: 0, trajectories: 10, reward: 0.5 }]);
  assert.deepEqual(nextEvents(s1, a.cursor, T0 + 1).events, []);
  const s2 = snap([iteration(0), iteration(1), iteration(2, { complete: false })]);
  const b = nextEvents(s2, a.cursor, T0 + 2);
  assert.deepEqual(
    b.events.map((e) => [e.type, 'iteration' in e ? e.iteration : null]),
    [['iteration', 1]],
  );
  assert.deepEqual(b.cursor.iterations, [[0, 1]]);
});

test('meanC is taken over the credited turns of the last 5 iterations', () => {
  // iterations 0..3 have c summing to 0; iteration 4 pushes the 5-iteration mean to 0.03 exactly
  const its = [0, 1, 2, 3].map((i) => iteration(i, { sumC: 0, cCount: 10 }));
  const five = [...its, iteration(4, { sumC: 1.5, cCount: 10 })];
  const e = nextEvents(snap(five), emptyCursor(), T0).events.filter((x) => x.type === 'alert');
  assert.deepEqual(e, [{ type: 'alert', iteration: 4, check: 'meanC', value: 1.5 / 50, limit: 0.03 }]);
  // a sixth iteration: iteration 0 leaves the window; its c no longer counts
  const six = [iteration(0, { sumC: 100, cCount: 10 }), ...five.slice(1), iteration(5, { sumC: 0, cCount: 10 })];
  const cursor = { ...emptyCursor(), iterations: [[0, 4]] as [number, number][] };
  const f = nextEvents(snap(six), cursor, T0).events.filter((x) => x.type === 'alert');
  assert.deepEqual(f, [{ type: 'alert', iteration: 5, check: 'meanC', value: 1.5 / 50, limit: 0.03 }]);
});

test('checkpoint: once when it becomes complete; an incomplete or unknown one is not told', () => {
  const s = (complete: boolean | null): LiveSnapshot =>
    snap([], {
      checkpoints: [
        { kind: 'resume', iteration: 19, complete },
        { kind: 'hf', iteration: 19, complete: true },
      ],
    });
  const a = nextEvents(s(false), emptyCursor(), T0);
  assert.deepEqual(a.events, [{ type: 'checkpoint', iteration: 19, kind: 'hf' }]);
  assert.deepEqual(nextEvents(s(null), a.cursor, T0).events, []);
  const b = nextEvents(s(true), a.cursor, T0);
  assert.deepEqual(b.events, [{ type: 'checkpoint', iteration: 19, kind: 'resume' }]);
  assert.deepEqual(nextEvents(s(true), b.cursor, T0).events, []);
});

test('evaluation: new lines of a checkpoint give its figures again; no new line, no event', () => {
  const s = (samples: number, success: number): LiveSnapshot => snap([], { evaluations: [{ iteration: 19, tasks: 3, samples, success }] });
  const a = nextEvents(s(4, 0.5), emptyCursor(), T0);
  assert.deepEqual(a.events, [{ type: 'evaluation', iteration: 19, tasks: 3, success: 0.5 }]);
  assert.deepEqual(nextEvents(s(4, 0.5), a.cursor, T0).events, []);
  assert.deepEqual(nextEvents(s(6, 0.25), a.cursor, T0).events, [{ type: 'evaluation', iteration: 19, tasks: 3, success: 0.25 }]);
});

test('events are ordered by iteration: iteration, alerts, checkpoints, evaluation', () => {
  const s = snap([iteration(18), iteration(19, { signFlipRate: 0.5 })], {
    checkpoints: [
      { kind: 'hf', iteration: 19, complete: true },
      { kind: 'resume', iteration: 19, complete: true },
    ],
    evaluations: [{ iteration: 18, tasks: 1, samples: 1, success: 1 }],
  });
  const got = nextEvents(s, emptyCursor(), T0).events.map(
    (e) => `${e.type}${'iteration' in e ? e.iteration : ''}${'kind' in e ? e.kind : ''}`,
  );
  assert.deepEqual(got, ['iteration18', 'evaluation18', 'iteration19', 'alert19', 'checkpoint19resume', 'checkpoint19hf']);
});

test('stale: after max(2 h, 3 x the median gap of the last 10 new iterations), once per quiet spell', () => {
  assert.equal(staleLimitMs([]), STALE_MIN_MS);
  const hour = 3600_000;
  // gaps of one hour: the limit is 3 hours
  const seen = Array.from({ length: 10 }, (_, i) => T0 + i * hour);
  assert.equal(staleLimitMs(seen), 3 * hour);
  const last = seen[9]!;
  const cursor = { ...emptyCursor(), iterations: [[0, 9]] as [number, number][], seen, lastNewAt: last };
  const s = snap([]);
  assert.deepEqual(nextEvents(s, cursor, last + 3 * hour).events, []);
  const a = nextEvents(s, cursor, last + 3 * hour + 1);
  assert.deepEqual(a.events, [{ type: 'stale', since: last, quietMs: 3 * hour + 1, limitMs: 3 * hour }]);
  assert.deepEqual(nextEvents(s, a.cursor, last + 5 * hour).events, []);
  // short gaps: the 2-hour floor
  const quick = { ...emptyCursor(), seen: [T0, T0 + 1000], lastNewAt: T0 + 1000 };
  assert.deepEqual(nextEvents(s, quick, T0 + 1000 + 2 * hour).events, []);
  assert.equal(nextEvents(s, quick, T0 + 1001 + 2 * hour).events[0]?.type, 'stale');
  // a new iteration ends the quiet spell
  const b = nextEvents(snap([iteration(10)]), a.cursor, last + 6 * hour);
  assert.deepEqual(
    b.events.map((e) => e.type),
    ['iteration'],
  );
  assert.equal(b.cursor.lastNewAt, last + 6 * hour);
});

test('a first watch starts the quiet clock; a cursor survives its text and a bad one is refused', () => {
  const a = nextEvents(snap([]), emptyCursor(), T0);
  assert.equal(a.cursor.lastNewAt, T0);
  assert.deepEqual(cursorFromText(cursorText(a.cursor)), a.cursor);
  assert.equal(cursorFromText('not a cursor'), undefined);
  assert.equal(parseCursor({ ...a.cursor, seen: ['x'] }), undefined);
  assert.deepEqual(addToRanges([[0, 2]], [3, 5, 7, 6]), [
    [0, 3],
    [5, 7],
  ]);
});
