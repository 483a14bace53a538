import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { Run } from '../../src/core/run/run';
import { collectProblems } from '../../src/extension/problems/dataProblems';
import { duplicateScanWork } from '../../src/extension/problems/duplicateScan';

const rec = (iteration: number, group: number, rollout: number): Record<string, unknown> => ({
  iteration,
  group,
  rollout,
  reward: 1,
  A: 0.5,
  instruction: 't',
  turns: [{ action: 'a', candidates: ['a', 'b'], scores: [1, 0], c: 0.1 }],
});

function runDir(rows: Record<string, unknown>[]): { dir: string; log: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  const log = join(dir, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(log, jsonl(rows));
  return { dir, log };
}

async function opened(dir: string): Promise<Run> {
  const r = (await Run.open(dir))!;
  await r.update();
  return r;
}

const dupMessages = (r: Run): string[] =>
  collectProblems(r)
    .groups.filter((g) => g.kind === 'duplicateTrajectory')
    .flatMap((g) => g.problems.map((p) => p.message));

test('Problems: appending N lines to a credit log reads only those N rows for repeated keys, with the answers of a fresh read', async () => {
  const first = Array.from({ length: 100 }, (_, i) => rec(0, Math.floor(i / 4), i % 4));
  first.push(rec(0, 3, 1)); // line 101 repeats line 14
  const { dir, log } = runDir(first);
  const run = await opened(dir);
  assert.deepEqual(dupMessages(run), ['iteration 0, group 3, rollout 1 appears again at line 101 (first at line 14)']);
  assert.equal(duplicateScanWork(run.credit!), 101);
  collectProblems(run);
  assert.equal(duplicateScanWork(run.credit!), 101, 'nothing new: no row read again');
  appendFileSync(log, jsonl([rec(1, 0, 0), rec(1, 0, 1), rec(0, 0, 0), rec(1, 0, 2), rec(1, 0, 3)]));
  await run.update();
  const after = dupMessages(run);
  assert.equal(duplicateScanWork(run.credit!), 106, 'the 5 appended rows only');
  assert.deepEqual(after, dupMessages(await opened(dir)));
  assert.equal(after.length, 2);
  // a provisional last line is checked each time but not kept; once complete it is read once
  appendFileSync(log, JSON.stringify(rec(1, 0, 0)).slice(0, -1));
  await run.update();
  assert.equal(run.credit!.pendingTail, true);
  const withTail = dupMessages(run);
  assert.equal(duplicateScanWork(run.credit!), 106 + (run.credit!.size > 106 ? 1 : 0));
  appendFileSync(log, '}\n');
  await run.update();
  assert.deepEqual(dupMessages(run), dupMessages(await opened(dir)));
  assert.equal(dupMessages(run).length, 3);
  assert.ok(withTail.length >= 2);
  // a log replaced by a shorter one is read again from its first row
  writeFileSync(log, jsonl([rec(5, 0, 0), rec(5, 0, 0)]));
  await run.update();
  assert.deepEqual(dupMessages(run), ['iteration 5, group 0, rollout 0 appears again at line 2 (first at line 1)']);
});

test('Problems: a bidi control from a log is shown as a <U+202E> token, not applied', async () => {
  const { dir } = runDir([rec(0, 0, 0)]);
  writeFileSync(
    join(dir, 'logs', 'ws_metrics.jsonl'),
    '{"iteration": 0, "ws/\u202Eevil": 1}\n{"iteration": 0, "ws/\u202Eevil": NaN}\n{"\u202E": 1}\n',
  );
  const run = await opened(dir);
  const messages = collectProblems(run).groups.flatMap((g) => g.problems.map((p) => p.message));
  assert.ok(messages.length >= 2, messages.join('\n'));
  assert.ok(
    messages.every((m) => !/[\u202A-\u202E\u2066-\u2069]/.test(m)),
    messages.join('\n'),
  );
  assert.ok(
    messages.some((m) => m.includes('<U+202E>')),
    messages.join('\n'),
  );
});
