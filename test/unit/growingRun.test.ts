import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { demoStage, growingRun } from '../../src/core/demo/growingRun';
import { folderIntegrityProbe } from '../../src/core/live/integrityProbe';
import { DEMO_EVAL_SAMPLES, DEMO_EVAL_TASKS } from '../../src/core/demo/evals';

const lines = (p: string): string[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim());

test('a growing run appends a stage that extends the one before, as a trainer does, and writes any other anew', () => {
  const g = growingRun(tempDir(), 4);
  const credit = join(g.dir, 'logs', 'ws_credit_log.jsonl');
  const metrics = join(g.dir, 'logs', 'ws_metrics.jsonl');
  g.show({ credit: 2, metrics: 2 });
  assert.equal(lines(credit).length, 480);
  // a line that is not the run's: kept by an append, gone after a rewrite
  appendFileSync(credit, '{"mark":1}\n');
  g.show({ credit: 3, metrics: 3 });
  assert.deepEqual(lines(credit).slice(479, 482), [g.creditLines[1]!.at(-1), '{"mark":1}', g.creditLines[2]![0]]);
  assert.equal(lines(metrics).length, 3);
  g.show({ credit: 3, metrics: 3, override: { iteration: 2, field: 'ws/c_mean', value: 0.5 } });
  assert.equal(lines(metrics).length, 3);
  assert.match(lines(metrics)[2]!, /"ws\/c_mean":0\.5[,}]/);
  assert.equal(lines(metrics)[2]!.match(/"ws\/c_mean"/g)?.length, 1);
  g.show({ credit: 2, metrics: 2 });
  assert.deepEqual(lines(credit), g.creditLines.slice(0, 2).flat());
});

test("the demo's growth: a resume checkpoint every fifth iteration, an hf one every tenth and the last, its evaluation after it", () => {
  assert.deepEqual(demoStage(10, 45), {
    credit: 10,
    metrics: 10,
    checkpoints: [
      ['resume', 4],
      ['resume', 9],
      ['hf', 9],
    ],
    demoEvals: [],
  });
  assert.deepEqual(demoStage(11, 45).demoEvals, [9]);
  const last = demoStage(45, 45);
  assert.deepEqual(last.checkpoints?.slice(-2), [
    ['resume', 44],
    ['hf', 44],
  ]);
  assert.deepEqual(last.demoEvals, [9, 19, 29, 39, 44]);
});

test("a demo stage writes real checkpoints (section 9 finds them complete) and the demo's evaluation of iteration 9", async () => {
  const g = growingRun(tempDir(), 12);
  g.show(demoStage(11, 12));
  const states = await folderIntegrityProbe(g.dir)();
  assert.deepEqual(
    states.map((s) => `${s.kind}${s.iteration}:${String(s.complete)}`),
    ['resume4:true', 'resume9:true', 'hf9:true'],
  );
  const evals = lines(join(g.dir, 'logs', 'eval_log.jsonl'));
  assert.equal(evals.length, DEMO_EVAL_TASKS * DEMO_EVAL_SAMPLES);
  assert.ok(evals.every((l) => l.startsWith('{"iteration":9,')));
});
