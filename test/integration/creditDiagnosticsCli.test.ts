/** `rlrb report`'s credit diagnostics, the CLI run as a user runs it, on the hand-worked log of test/creditLog.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../helpers';
import { rlrb, rlrbJson } from '../cliRun';
import { LOG, runFolder } from '../creditLog';

test('rlrb report: creditDiagnostics in --json (kept on a second run too), a short section in the text', () => {
  const root = runFolder(LOG);
  const o = rlrbJson('report', root);
  const d = o['creditDiagnostics'] as { gatePerIteration: { iteration: number; lo: number | null }[]; cHistogram: { success: number[] } };
  assert.deepEqual(
    d.gatePerIteration.map((g) => g.iteration),
    [0, 1],
  );
  assert.ok(close(d.gatePerIteration[0]!.lo, 0.4 - 0.5879891953620162));
  assert.equal(
    d.cHistogram.success.reduce((a, b) => a + b, 0),
    4,
  );
  assert.deepEqual(rlrbJson('report', root), o, 'the kept answer is the same');
  const text = rlrb('report', root).out;
  assert.match(text, /Credit diagnostics/);
  assert.match(text, /gate mean diff per iteration .*95% CI/);
  assert.match(text, /\b0 +2 +\+0\.4000 +-0\.1880 +\+0\.9880/);
  assert.match(text, /c by outcome in the gate's groups: 4 succeeded, 3 failed trajectories/);
});
