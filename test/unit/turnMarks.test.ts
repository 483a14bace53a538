/** The per-turn marks, on the hand-worked log of test/fixtures.ts (beta 0.4, tau 20). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAND_LOG } from '../fixtures';
import { turnMarks } from '../../src/core/credit/turnMarks';
import type { TurnMarks } from '../../src/core/credit/turnMarks';
import { normaliseRecord } from '../../src/core/record/trajectory';
import { buildSchemaTables } from '../../src/core/record/schema';
import { DEFAULT_CREDIT } from '../../src/core/credit/credit';
import { DEFAULT_MATCH } from '../../src/core/credit/actions';

const tables = buildSchemaTables();
const marksOf = (i: number): TurnMarks[] => {
  const v = normaliseRecord(HAND_LOG[i] as Record<string, unknown>, tables).view;
  return v.turns.map((u) => turnMarks(u, v.A, DEFAULT_CREDIT, DEFAULT_MATCH));
};
const none: TurnMarks = {
  signFlip: false,
  fallback: false,
  clipped: false,
  cMismatch: false,
  aTMismatch: false,
  executedIsArgmax: false,
  masked: false,
  recomputedC: null,
};

test('marks of every turn of the hand log, worked by hand', () => {
  assert.deepEqual(marksOf(0), [
    // d = 10, -10, 0 (same), 5: mean 1.25 / 20 = 0.0625, as logged; 10 < 20: not argmax
    { ...none, recomputedC: 0.0625 },
    // d = 30 x3 (done dropped): 1.5 clips to 1; argmax
    { ...none, recomputedC: 1, clipped: true, executedIsArgmax: true },
    // masked: no credit defined
    { ...none, masked: true },
  ]);
  assert.deepEqual(marksOf(1), [
    { ...none, recomputedC: -0.5 },
    { ...none, fallback: true },
  ]);
  // unlabeled: nothing but the A_t check (A_t = A)
  assert.deepEqual(marksOf(2), [none]);
  // logged c 0.1 where the recomputation gives 0 (all scores tie): a c mismatch; ties are argmax
  assert.deepEqual(marksOf(3), [
    { ...none, recomputedC: -1, clipped: true },
    { ...none, recomputedC: 0, cMismatch: true, executedIsArgmax: true },
  ]);
  // A = -0.2 -> A_t = +0.2: a sign flip; then A_t -0.3 where A + beta*0 = -0.2: an A_t mismatch
  assert.deepEqual(marksOf(4), [
    { ...none, recomputedC: 1, clipped: true, executedIsArgmax: true, signFlip: true },
    { ...none, recomputedC: 0, aTMismatch: true, executedIsArgmax: true },
  ]);
});

test('a NaN A_t is an A_t mismatch, not a sign flip; a logged c that is absent is a c mismatch', () => {
  const turn = { scores: [10, 0], same: [true, false], done: null, candidates: null, c: 0.5, At: NaN, masked: false, fallback: false };
  assert.deepEqual(turnMarks(turn, 0.5, DEFAULT_CREDIT, DEFAULT_MATCH), {
    ...none,
    recomputedC: 0.5,
    aTMismatch: true,
    executedIsArgmax: true,
  });
  assert.deepEqual(turnMarks({ ...turn, c: undefined, At: 0.5 }, 0.5, DEFAULT_CREDIT, DEFAULT_MATCH), {
    ...none,
    recomputedC: 0.5,
    cMismatch: true,
    executedIsArgmax: true,
  });
});
