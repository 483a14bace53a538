import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figureJump, gateSideJump } from '../../src/extension/report/reportJumps';
import { Flag } from '../../src/shared/shapes';

test('figureJump: each report row opens the turns behind it', () => {
  assert.equal(figureJump('signFlipRate')?.spec.filter.flags, Flag.SignFlip);
  assert.equal(figureJump('cMismatches')?.spec.filter.flags, Flag.CMismatch);
  assert.equal(figureJump('aTMismatches')?.spec.filter.flags, Flag.ATMismatch);
  assert.equal(figureJump('gate.p')?.spec.filter.gate, true);
  assert.equal(figureJump('meanC')?.spec.filter.labeledOnly, true);
  assert.equal(figureJump('__proto__'), undefined);
});

test('gateSideJump: one side of a gate group', () => {
  const s = gateSideJump(7, 3, 'failed').spec.filter;
  assert.deepEqual(s, { iterationMin: 7, iterationMax: 7, group: 3, gate: true, reward: 'failure' });
  assert.equal(gateSideJump(7, 3, 'succeeded').spec.filter.reward, 'success');
});
