import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { Run } from '../../src/core/run/run';
import { writeDemo } from '../../src/core/demo/demo';
import {
  collectProblems,
  moreProblems,
  problemBreakdown,
  problemsMessage,
  problemTotal,
  runProblems,
} from '../../src/extension/problems/dataProblems';
import { isDataProblemsMessage, parseShowProblems } from '../../src/shared/protocol';

function hostileRun(): string {
  const dir = tempDir();
  const logs = join(dir, 'logs');
  mkdirSync(logs);
  const lines = jsonl(HAND_LOG).split('\n').filter(Boolean);
  // line 2 is not JSON; the first record is repeated at the end
  writeFileSync(
    join(logs, 'ws_credit_log.jsonl'),
    [lines[0], '{"iteration": 0, "group": oops', ...lines.slice(1), lines[0], ''].join('\n'),
  );
  writeFileSync(
    join(logs, 'ws_metrics.jsonl'),
    [
      '{"iteration":0,"ws/c_mean":0.1,"ws/truncation_rate":NaN}',
      '{"iteration":1,"ws/c_mean":0.2,"ws/truncation_rate":0.5}',
      '{"iteration":1,"ws/c_mean":0.3,"ws/truncation_rate":Infinity}',
      'not json at all',
      '',
    ].join('\n'),
  );
  return dir;
}

test('data problems: skipped lines (error, at their line), a repeated metric row, NaN/Infinity metrics, a repeated trajectory', async () => {
  const run = (await Run.open(hostileRun()))!;
  await run.update();
  const p = collectProblems(run);
  const all = p.groups.flatMap((g) => g.problems);
  const skipped = all.filter((x) => x.kind === 'skipped');
  assert.deepEqual(
    skipped.map((x) => [x.file.split('/').pop(), x.line, x.severity]),
    [
      ['ws_credit_log.jsonl', 2, 'error'],
      ['ws_metrics.jsonl', 4, 'error'],
    ],
  );
  assert.match(skipped[0]!.message, /^line 2 skipped: /);
  const dup = all.find((x) => x.kind === 'duplicateMetric')!;
  assert.equal(dup.line, 2);
  assert.equal(dup.message, 'iteration 1 appears twice in ws_metrics.jsonl (lines 2, 3); the last row (line 3) is used');
  const nan = all.find((x) => x.kind === 'nonFinite')!;
  assert.equal(nan.message, 'ws/truncation_rate is NaN, infinite or null on 2 of 2 rows (lines 1, 3)');
  assert.equal(nan.line, 1);
  const traj = all.filter((x) => x.kind === 'duplicateTrajectory');
  assert.equal(traj.length, 1);
  assert.equal(traj[0]!.line, HAND_LOG.length + 2);
  assert.equal(p.total, 5);
  assert.equal(problemTotal(p), '5 data problems');
  assert.equal(
    problemBreakdown(p),
    '2 skipped lines, 1 duplicate metric row, 1 metric with NaN or infinite values, 1 duplicate trajectory row',
  );
});

test('data problems: a clean run has none; the list is bounded with a summary entry; appended lines are seen', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'ws_metrics.jsonl'), jsonl([0, 1, 2].map((i) => ({ iteration: i, 'ws/c_mean': i / 10 }))));
  const run = (await Run.open(dir))!;
  await run.update();
  assert.equal(runProblems(run).total, 0);
  appendFileSync(join(dir, 'ws_metrics.jsonl'), 'x\n'.repeat(7));
  await run.update();
  const p = runProblems(run);
  assert.equal(p.total, 7, 'computed again once the index changed');
  const bounded = collectProblems(run, 3);
  const g = bounded.groups[0]!;
  assert.equal(g.problems.length, 3);
  assert.equal(g.count, 7);
  assert.equal(moreProblems(g)?.message, 'and 4 more problems of this kind (7 skipped lines in ws_metrics.jsonl)');
  assert.equal(moreProblems(p.groups[0]!), undefined);
});

test('the banner message: built from the problems, checked on both ends (the page drops anything else)', () => {
  const p = {
    total: 3,
    groups: [
      { kind: 'skipped' as const, file: '/r/a.jsonl', count: 2, problems: [] },
      { kind: 'duplicateMetric' as const, file: '/r/b.jsonl', count: 1, problems: [] },
    ],
  };
  const m = problemsMessage(p);
  assert.deepEqual(m, { type: 'dataProblems', total: 3, breakdown: '2 skipped lines, 1 duplicate metric row' });
  assert.ok(isDataProblemsMessage(m));
  assert.ok(!isDataProblemsMessage({ ...m, total: -1 }));
  assert.ok(!isDataProblemsMessage({ ...m, total: 1.5 }));
  assert.ok(!isDataProblemsMessage({ ...m, breakdown: 7 }));
  assert.ok(!isDataProblemsMessage({ ...m, breakdown: 'x'.repeat(2001) }));
  assert.deepEqual(parseShowProblems({ type: 'showProblems' }), { type: 'showProblems' });
  assert.equal(parseShowProblems({ type: 'showProblems', command: 'workbench.action.terminal.new' }), undefined);
  assert.equal(parseShowProblems({ type: 'ready' }), undefined);
});

test('a plain GRPO run (turns with only `action`, so A_t = A) has no data problem: A_t is not a required turn field', async () => {
  const dir = tempDir();
  writeDemo(dir, { trajectories: 300, hubRepo: false });
  const base = (await Run.open(join(dir, 'baseline')))!;
  await base.update();
  const p = collectProblems(base);
  assert.deepEqual(
    p.groups.filter((g) => g.kind === 'missingField').flatMap((g) => g.problems.map((x) => x.message)),
    [],
  );
});

test('the demo run is clean: no data problem in its logs or its baseline (a NaN is for the Problems test to write)', async () => {
  const dir = tempDir();
  // past iteration 17, where the demo once logged a NaN train/grad_norm
  writeDemo(dir, { trajectories: 20 * 240, hubRepo: false });
  for (const root of [dir, join(dir, 'baseline')]) {
    const run = (await Run.open(root))!;
    await run.update();
    const p = runProblems(run);
    assert.equal(p.total, 0, `${root}: ${problemBreakdown(p)}`);
  }
});
