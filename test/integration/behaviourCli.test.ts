/** `rlrb tags` and `rlrb export --tag`, the CLI run as a user runs it, on the hand-worked fixture of test/behaviourFixture.ts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rlrb, rlrbJson } from '../cliRun';
import { fixtureLog, plainLog } from '../behaviourFixture';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { behaviourReport } from '../../src/core/behaviour/report';

async function indexOf(path: string): Promise<CreditIndex> {
  const idx = new CreditIndex(path);
  await idx.update();
  return idx;
}

test('rlrb tags --json is behaviourReport; --horizon, --theta, --from, --to; the table; bad flags exit 2', async () => {
  const path = fixtureLog();
  const o = rlrbJson('tags', path, '--to', '2', '--no-cache');
  const expected = { ...behaviourReport(await indexOf(path), { to: 2 }), skippedLines: 0, warnings: [] };
  assert.deepEqual(o, JSON.parse(JSON.stringify(expected)));
  assert.deepEqual(Object.keys(o), ['trajectories', 'tags', 'collapsedTurnRate', 'perIteration', 'skippedLines', 'warnings']);
  const h = rlrbJson('tags', path, '--horizon', '14', '--theta', '0.45', '--from', '1', '--to', '2');
  assert.equal((h['tags'] as Record<string, { count: number }>)['truncated']!.count, 2);
  assert.equal((h['tags'] as Record<string, { count: number }>)['creditDisagrees']!.count, 3);
  assert.equal(h['trajectories'], 11);
  const t = rlrb('tags', path, '--to', '2');
  assert.equal(t.code, 0, t.err);
  assert.match(t.out, /^ {2}tag +count +rate +success tagged +success untagged$/m);
  assert.match(t.out, /^ {2}repeat +3 +14\.3% +66\.7% +44\.4%$/m);
  assert.match(t.out, /21 trajectories; horizon 15, theta 0\.5; collapsed turns 22\.2% of compared turns/);
  const p = rlrb('tags', plainLog());
  assert.match(p.out, /^ {2}collapsed +— +— +— +— +no labeled turn in this run$/m);
  assert.equal(rlrb('tags', path, '--horizon', '0').code, 2);
  assert.equal(rlrb('tags', path, '--theta', '-1').code, 2);
  assert.equal(rlrb('tags', path, '--from', '3', '--to', '1').code, 2);
  assert.equal(rlrb('tags').code, 2);
});

test('rlrb export --tag (repeatable: every tag must hold); an unknown tag exits 2', () => {
  const path = fixtureLog();
  const one = rlrb('export', path, '--format', 'jsonl', '--tag', 'repeat');
  assert.equal(one.code, 0, one.err);
  assert.equal(one.out.split('\n').filter(Boolean).length, 4);
  const two = rlrb('export', path, '--format', 'csv', '--tag', 'repeat', '--tag', 'noDone');
  assert.equal(two.code, 0, two.err);
  assert.equal(two.out.split('\r\n').filter(Boolean).length, 3, 'a header and two rows');
  const bad = rlrb('export', path, '--format', 'jsonl', '--tag', 'loops');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--tag takes repeat\|cycle/);
});
