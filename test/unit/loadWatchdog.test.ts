/** A webview whose page never says `ready` while visible is given its html again, a few times, then the user is told. */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { LoadWatchdog } from '../../src/extension/panels/loadWatchdog';

function watched(visible: { now: boolean }): { dog: LoadWatchdog; reloads: number[]; gaveUp: () => number } {
  const reloads: number[] = [];
  let gaveUp = 0;
  const dog = new LoadWatchdog({
    afterMs: 1000,
    tries: 2,
    visible: () => visible.now,
    reload: (n) => void reloads.push(n),
    giveUp: () => void gaveUp++,
  });
  return { dog, reloads, gaveUp: () => gaveUp };
}

test('a visible page that never says ready is reloaded after the wait, twice, then the user is told once', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { reloads, gaveUp } = watched({ now: true });
    mock.timers.tick(999);
    assert.deepEqual(reloads, []);
    mock.timers.tick(1);
    assert.deepEqual(reloads, [1]);
    mock.timers.tick(1000);
    assert.deepEqual(reloads, [1, 2]);
    assert.equal(gaveUp(), 0);
    mock.timers.tick(1000);
    assert.equal(gaveUp(), 1);
    mock.timers.tick(10_000);
    assert.deepEqual(reloads, [1, 2]);
    assert.equal(gaveUp(), 1);
  } finally {
    mock.timers.reset();
  }
});

test('a page that says ready in time is never reloaded; one ready after a reload stops the watch', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const a = watched({ now: true });
    mock.timers.tick(500);
    a.dog.ready();
    mock.timers.tick(10_000);
    assert.deepEqual(a.reloads, []);
    const b = watched({ now: true });
    mock.timers.tick(1000);
    b.dog.ready();
    mock.timers.tick(10_000);
    assert.deepEqual(b.reloads, [1]);
    assert.equal(b.gaveUp(), 0);
  } finally {
    mock.timers.reset();
  }
});

test('a hidden panel is not timed (a webview does not load while hidden); shown, it is timed from then', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const visible = { now: false };
    const { dog, reloads } = watched(visible);
    mock.timers.tick(5000);
    assert.deepEqual(reloads, []);
    visible.now = true;
    dog.visibilityChanged();
    mock.timers.tick(999);
    assert.deepEqual(reloads, []);
    mock.timers.tick(1);
    assert.deepEqual(reloads, [1]);
    // hidden when its time comes: not reloaded, and timed again when shown
    visible.now = false;
    mock.timers.tick(1000);
    assert.deepEqual(reloads, [1]);
    visible.now = true;
    dog.visibilityChanged();
    mock.timers.tick(1000);
    assert.deepEqual(reloads, [1, 2]);
    dog.dispose();
    mock.timers.tick(10_000);
    assert.deepEqual(reloads, [1, 2]);
  } finally {
    mock.timers.reset();
  }
});
