import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { writeDemo, DEMO_LATEST, DEMO_RESUME_ITERATIONS } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { normaliseRecord } from '../../src/core/record/trajectory';
import { buildSchemaTables } from '../../src/core/record/schema';
import { parseTolerant } from '../../src/core/log/tolerantJson';
import { RunComparer } from '../../src/core/compare/compareRuns';

test('the demo run is deterministic, complete, and lands near the card', async () => {
  const a = tempDir();
  const b = tempDir();
  const ra = writeDemo(a);
  writeDemo(b);
  assert.equal(ra.trajectories, 45 * 48 * 5);
  assert.ok(readFileSync(ra.creditLog).equals(readFileSync(join(b, 'logs', 'ws_credit_log.jsonl'))));
  const run = (await Run.open(a))!;
  await run.update();
  const full = run.report()!;
  const r = full.report;
  assert.equal(r.trajectories, 10800);
  assert.equal(r.iterations, 45);
  assert.equal(r.skippedLines, 0);
  // the 4 sign flips all sit in groups with a -1 format failure, where min|A| = 0.239 < beta; the logged
  // ws/sign_flip_rate leaves those groups out, so it is 0 where its twin is not
  assert.ok(r.signFlipRate! > 0 && r.signFlipRate! < 0.001, String(r.signFlipRate));
  assert.equal(
    full.signFlipGroups.reduce((s, g) => s + g.flips, 0),
    4,
  );
  assert.ok(full.signFlipGroups.every((g) => g.formatFailure && g.minAbsA! < 0.4));
  const flipTwins = full.twinDisagreements.filter((d) => d.metric === 'ws/sign_flip_rate');
  assert.ok(flipTwins.length > 0 && flipTwins.every((d) => d.logged === 0 && d.recomputed > 0));
  assert.deepEqual(
    full.twinDisagreements.filter((d) => d.metric !== 'ws/sign_flip_rate'),
    [],
    'the other logged figures equal their twins',
  );
  assert.ok(r.fallbackRate! < 0.05);
  assert.ok(Math.abs(r.executedIsArgmaxRate! - 0.2) < 0.03, String(r.executedIsArgmaxRate));
  assert.ok(r.gate.meanDiff! > 0);
  assert.equal(r.cMismatches, 0);
  assert.equal(r.aTMismatches, 0);
  assert.equal(full.sameMismatches, 0);
  assert.ok(run.credit!.slowPathRows === 0, 'the fast reader reads the whole demo');
  const table = run.metrics!.getTable();
  assert.equal(table.iterations.length, 45);
  assert.ok(table.names.length >= 40, `${table.names.length} metrics`);
  // texts with markup, quotes and non-Latin letters are there
  const text = readFileSync(ra.creditLog, 'utf8');
  assert.ok(text.includes('<script>'));
  assert.ok(text.includes('東京'));
  // the fake Hub repo
  const repo = ra.hubRepo!;
  assert.equal(readFileSync(join(repo, 'resume', 'latest_checkpointed_iteration.txt'), 'utf8'), String(DEMO_LATEST));
  for (const n of DEMO_RESUME_ITERATIONS) {
    const files = readdirSync(join(repo, 'resume', `iter_${String(n).padStart(7, '0')}`));
    assert.ok(
      files.includes('__7_1.distcp') && files.includes('.metadata') && files.includes('common.pt') && files.includes('metadata.json'),
    );
  }
  assert.ok(existsSync(join(repo, 'hf', 'iter_0000039', 'model-00002-of-00002.safetensors')));
});

test('fast and slow readers agree on the whole demo', async () => {
  const dir = tempDir();
  const res = writeDemo(dir, { trajectories: 1500, hubRepo: false });
  const idx = new CreditIndex(res.creditLog);
  await idx.update();
  const tables = buildSchemaTables();
  const lines = readFileSync(res.creditLog, 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, idx.size);
  const { summarize } = await import('../../src/core/record/trajectory');
  for (let i = 0; i < lines.length; i += 7) {
    const core = normaliseRecord(parseTolerant(lines[i]!) as Record<string, unknown>, tables).core;
    const s = summarize(core, idx.options.credit, idx.options.match);
    const row = idx.row(i);
    assert.equal(row.turns, s.turns);
    assert.equal(row.labeledTurns, s.labeledTurns);
    assert.equal(row.signFlips, s.signFlips);
    assert.equal(row.flags, s.flags);
    // the fast reader reads per-turn decimals to within 1e-15 relative (see docs/format.md, where the format is silent)
    const expected = s.cCount > 0 ? s.sumC / s.cCount : null;
    assert.ok(expected === null ? row.meanC === null : Math.abs(row.meanC! - expected) < 1e-12, `${row.meanC} vs ${expected}`);
  }
});

test('the demo also writes a plain GRPO baseline on the same tasks, a little weaker, that compares with the run', async () => {
  const a = tempDir();
  const b = tempDir();
  const res = writeDemo(a, { hubRepo: false });
  writeDemo(b, { hubRepo: false });
  const base = res.baseline!;
  assert.equal(base.root, join(a, 'baseline'));
  assert.equal(base.trajectories, 45 * 48 * 5);
  assert.ok(readFileSync(base.creditLog).equals(readFileSync(join(b, 'baseline', 'logs', 'ws_credit_log.jsonl'))), 'deterministic');
  assert.ok(readFileSync(base.metricsLog).equals(readFileSync(join(b, 'baseline', 'logs', 'ws_metrics.jsonl'))));
  // the same task at the same slot in both runs
  const rows = (p: string): { iteration: number; group: number; task_id: string; turns: Record<string, unknown>[] }[] =>
    readFileSync(p, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => parseTolerant(l) as { iteration: number; group: number; task_id: string; turns: Record<string, unknown>[] });
  const ra = rows(res.creditLog);
  const rb = rows(base.creditLog);
  const slot = new Map(ra.map((r) => [`${r.iteration}:${r.group}`, r.task_id]));
  assert.ok(rb.every((r) => slot.get(`${r.iteration}:${r.group}`) === r.task_id));
  // tasks repeat across iterations
  assert.ok(new Set(ra.map((r) => r.task_id)).size < 45 * 48);
  // turns hold only the action
  assert.ok(rb.every((r) => r.turns.every((t) => Object.keys(t).join() === 'action')));
  const runA = (await Run.open(a))!;
  const runB = (await Run.open(base.root))!;
  assert.equal(runA.location.creditLog, res.creditLog, 'run A stays where it was');
  await Promise.all([runA.update(), runB.update()]);
  // its own metrics log, with plain-RL names
  const names = runB.metrics!.getTable().names;
  assert.ok(names.includes('rollout/reward_mean') && !names.some((n) => n.startsWith('ws/')), names.join());
  const c = await new RunComparer(runA, runB).compute();
  const f = c.figures;
  assert.equal(f.iterations, 45);
  assert.equal(f.tasks.count, new Set(ra.map((r) => r.task_id)).size);
  assert.ok(f.successA! > f.successB!, `${f.successA} vs ${f.successB}`);
  assert.ok(f.successA! - f.successB! < 0.05, 'a little weaker, not much');
  assert.ok(f.tasks.meanDiff! > 0);
  assert.equal(c.reportB.labeledTurns, 0);
  assert.equal(c.reportB.signFlipRate, null);
  assert.ok(c.reportA.gate.meanDiff! > 0);
});
