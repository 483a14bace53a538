import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recomputeCredit, executedIsArgmax, isSignFlip } from '../../src/core/credit/credit';

const P = { beta: 0.4, tau: 20 };
const F = [false, false, false, false, false];

test('d_k = scores[0] - scores[k], mean over k, divided by tau', () => {
  // d = 10, -10, 0 (same), 5 -> mean 1.25 -> c = 0.0625
  const r = recomputeCredit({ scores: [10, 0, 20, 10, 5], same: [true, false, false, true, false], done: F }, P);
  assert.equal(r.c, 0.0625);
  assert.deepEqual(
    r.terms.map((t) => t.d),
    [10, -10, 0, 5],
  );
  assert.equal(r.compared, 4);
});

test('a same-action candidate counts as d = 0 whatever its score', () => {
  const r = recomputeCredit({ scores: [0, 100, 100, 100, 100], same: [true, true, true, true, false], done: F }, P);
  // only k=4 differs: d = -100; mean over 4 = -25 -> -1.25 -> clipped to -1
  assert.equal(r.c, -1);
  const r2 = recomputeCredit({ scores: [0, 100, 100, 100, 100], same: [true, true, true, true, true], done: F }, P);
  assert.equal(r2.c, 0);
});

test('done candidates are dropped from the comparison set', () => {
  // k=4 is done with a low score: without it d = 2, 2, 2 -> 0.1
  const r = recomputeCredit({ scores: [10, 8, 8, 8, -60], same: F, done: [false, false, false, false, true] }, P);
  assert.ok(Math.abs(r.c - 0.1) < 1e-12);
  assert.equal(r.compared, 3);
  assert.equal(r.terms[3]!.dropped, 'done');
});

test('clipping at +1 and -1', () => {
  assert.equal(recomputeCredit({ scores: [50, 0, 0, 0, 0], same: F, done: F }, P).c, 1);
  assert.equal(recomputeCredit({ scores: [0, 50, 50, 50, 50], same: F, done: F }, P).c, -1);
  assert.equal(recomputeCredit({ scores: [20, 0, 0, 0, 0], same: F, done: F }, P).c, 1);
});

test('an empty comparison set gives c = 0', () => {
  assert.equal(recomputeCredit({ scores: [5, 1, 1], same: [true, false, false], done: [false, true, true] }, P).c, 0);
  assert.equal(recomputeCredit({ scores: [null, 1, 2], same: null, done: null }, P).c, 0);
});

test('a missing score drops that candidate only', () => {
  const r = recomputeCredit({ scores: [10, null, 0], same: null, done: null }, P);
  assert.equal(r.c, 0.5);
  assert.equal(r.terms[0]!.dropped, 'no-score');
});

test('executed-is-argmax ignores nulls and counts ties as argmax', () => {
  assert.ok(executedIsArgmax([5, 5, 1, null]));
  assert.ok(!executedIsArgmax([5, 6, 1]));
  assert.ok(!executedIsArgmax([null, 1]));
});

test('a sign flip is a changed sign, A_t = 0 included', () => {
  assert.ok(isSignFlip(-0.2, 0.2));
  assert.ok(isSignFlip(0.5, 0));
  assert.ok(!isSignFlip(0.5, 0.1));
  assert.ok(!isSignFlip(-1, -1.4));
});
