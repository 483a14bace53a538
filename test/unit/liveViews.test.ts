import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  alertRows,
  applyEvents,
  followInterval,
  initialFollowState,
  mutedChecks,
  notificationOf,
  statusView,
} from '../../src/extension/live/liveViews';
import type { AlertEvent, LiveEvent } from '../../src/core/live/liveEvent';
import { Flag } from '../../src/shared/shapes';

const none = new Set<never>();
const flip: AlertEvent = { type: 'alert', iteration: 31, check: 'signFlip', value: 0.002, limit: 0 };
const argmax: AlertEvent = { type: 'alert', iteration: 31, check: 'argmax', value: 0.41, limit: 0.05 };

test('the status bar: the latest iteration, the warning colour while its alerts are open, cleared by an iteration that passes', () => {
  const s0 = initialFollowState('card-run');
  assert.deepEqual(statusView(s0), {
    text: '$(pulse) card-run …',
    tooltip: 'Following card-run: waiting for its first iteration',
    warning: false,
  });
  const s1 = applyEvents(s0, [{ type: 'iteration', iteration: 31, trajectories: 240, reward: 0.5 }, flip], none);
  const v1 = statusView(s1);
  assert.equal(v1.text, '$(warning) card-run it 31');
  assert.equal(v1.warning, true);
  assert.match(v1.tooltip, /ALERT iteration 31: sign flips/);
  const s2 = applyEvents(s1, [{ type: 'iteration', iteration: 32, trajectories: 240, reward: 0.5 }], none);
  assert.deepEqual(statusView(s2), { text: '$(pulse) card-run it 32', tooltip: 'Following card-run: iteration 32', warning: false });
});

test('a muted check neither colours the status bar nor notifies', () => {
  const muted = new Set(['signFlip'] as const);
  const s = applyEvents(initialFollowState('r'), [{ type: 'iteration', iteration: 31, trajectories: 1, reward: 1 }, flip], muted);
  assert.equal(statusView(s).warning, false);
  assert.equal(notificationOf(flip, 'r', muted), undefined);
  assert.equal(notificationOf(argmax, 'r', muted)?.severity, 'warning');
});

test('stale colours the status bar until a new iteration', () => {
  const stale: LiveEvent = { type: 'stale', since: 0, quietMs: 3 * 3600_000, limitMs: 2 * 3600_000 };
  const s = applyEvents(initialFollowState('r'), [stale], none);
  assert.equal(statusView(s).warning, true);
  assert.equal(statusView(applyEvents(s, [{ type: 'iteration', iteration: 1, trajectories: 1, reward: 0 }], none)).warning, false);
});

test('notifications: each alert opens the trajectories, or the chart, behind it; checkpoints and evaluations open their iteration', () => {
  assert.deepEqual(notificationOf(flip, 'r', none), {
    severity: 'warning',
    message: 'r: ALERT iteration 31: sign flips (should be exactly 0): 0.0020',
    open: { kind: 'trajectories', iteration: 31, flags: Flag.SignFlip, label: 'sign flips, iteration 31' },
  });
  assert.deepEqual(notificationOf(argmax, 'r', none)?.open, { kind: 'chart', metric: 'ws/executed_is_argmax' });
  const fb: AlertEvent = { type: 'alert', iteration: 4, check: 'fallback', value: 0.1, limit: 0.05 };
  assert.deepEqual(notificationOf(fb, 'r', none)?.open, {
    kind: 'trajectories',
    iteration: 4,
    flags: Flag.Fallback,
    label: 'fallback, iteration 4',
  });
  const logged: AlertEvent = { type: 'alert', iteration: 4, check: 'loggedDisagrees', value: 1, limit: 0, field: 'ws/c_mean' };
  assert.deepEqual(notificationOf(logged, 'r', none)?.open, { kind: 'chart', metric: 'ws/c_mean' });
  assert.deepEqual(notificationOf({ type: 'evaluation', iteration: 19, tasks: 274, success: 0.5 }, 'r', none), {
    severity: 'info',
    message: 'r: evaluation of iteration 19: 274 tasks, success 50.0%',
    open: { kind: 'evaluation', iteration: 19 },
  });
  assert.deepEqual(notificationOf({ type: 'checkpoint', iteration: 19, kind: 'resume' }, 'r', none), {
    severity: 'info',
    message: 'r: checkpoint resume/iter_0000019 is complete',
    open: { kind: 'trajectories', iteration: 19, label: 'iteration 19' },
  });
  assert.equal(notificationOf({ type: 'iteration', iteration: 1, trajectories: 1, reward: 1 }, 'r', none), undefined);
});

test('a run name cannot put a link or an icon into a notification or the status bar', () => {
  const name = 'x](command:evil) $(alert)';
  const n = notificationOf({ type: 'checkpoint', iteration: 1, kind: 'hf' }, name, none)!;
  assert.doesNotMatch(n.message, /\]\(|\$\(/);
  const v = statusView(initialFollowState(name));
  assert.doesNotMatch(v.text.slice('$(pulse) '.length), /\]\(|\$\(/);
});

test('the settings: the interval at least 15 s (60 unset), muted checks checked one by one', () => {
  assert.equal(followInterval(undefined), 60);
  assert.equal(followInterval(5), 15);
  assert.equal(followInterval(90), 90);
  assert.equal(followInterval('fast'), 60);
  const m = mutedChecks(['meanC', 'nonsense', 3]);
  assert.deepEqual([...m.muted], ['meanC']);
  assert.equal(m.problems.length, 2);
  assert.deepEqual(mutedChecks('meanC').problems, ['rlRunBrowser.mutedChecks: not a list; ignored']);
});

test("the status-bar item's click: a row per open alert going where its notification's Open goes; none once an iteration passes", () => {
  const disagrees: AlertEvent = {
    type: 'alert',
    iteration: 31,
    check: 'loggedDisagrees',
    value: 0,
    limit: 0.002,
    field: 'ws/$(x)[a](command:y)',
  };
  const s = applyEvents(
    initialFollowState('r'),
    [{ type: 'iteration', iteration: 31, trajectories: 240, reward: 0.5 }, flip, disagrees],
    none,
  );
  const rows = alertRows(s);
  assert.deepEqual(
    rows.map((r) => r.target),
    [
      { kind: 'trajectories', iteration: 31, flags: Flag.SignFlip, label: 'sign flips, iteration 31' },
      { kind: 'chart', metric: 'ws/$(x)[a](command:y)' },
    ],
  );
  assert.match(rows[0]!.label, /^\$\(warning\) ALERT iteration 31: sign flips/);
  assert.equal(rows[0]!.description, 'opens the trajectories: sign flips, iteration 31');
  // a metric's name from the log shows as its characters: no icon, no link
  assert.ok(!rows[1]!.label.slice('$(warning)'.length).includes('$('), rows[1]!.label);
  assert.ok(!rows[1]!.description.includes(']('), rows[1]!.description);
  const stale = applyEvents(s, [{ type: 'stale', quietMs: 9e6, limitMs: 7.2e6, since: 0 }], none);
  assert.equal(alertRows(stale).at(-1)?.target, undefined);
  assert.match(alertRows(stale).at(-1)!.label, /^\$\(clock\) STALE/);
  assert.deepEqual(alertRows(applyEvents(s, [{ type: 'iteration', iteration: 32, trajectories: 240, reward: 0.5 }], none)), []);
});
