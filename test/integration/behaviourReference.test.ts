/**
 * Behaviour tags and their comparison against an independent reference (test/fixtures/behaviour/reference.py,
 * written from docs/format.md sections 2, 3, 4, 6 and 7 alone) on three runs generated there: two ws-credit
 * runs and a plain GRPO run. `rlrb tags --json` on each run and `rlrb compare --json` on two pairs (against
 * the plain run, where B's label-only tags are null and A's rates stay; and a pair that differs clearly on
 * one tag alone) must give every figure the reference computed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { rlrbJson } from '../cliRun';
import { nearJson } from '../nearJson';

const FIX = resolve(__dirname, '../../../test/fixtures/behaviour');

interface TagFigures {
  rateA: number | null;
  rateB: number | null;
  diff: number | null;
  p: number | null;
}

/** A pair of runs and what `rlrb compare a b --json` must hold: section 6's window and section 7's `behaviour`. */
interface Pair {
  a: string;
  b: string;
  json: { iterations: number; trajectoriesA: number; trajectoriesB: number; behaviour: Record<string, TagFigures> };
}

interface Expected {
  tags: Record<string, Record<string, unknown>>;
  compare: Record<string, Pair>;
}

const expected = JSON.parse(readFileSync(join(FIX, 'expected.json'), 'utf8')) as Expected;

/** The runs in a fresh folder, so that nothing the CLI writes lands in the repository. */
const runs = ((): string => {
  const root = tempDir();
  for (const name of Object.keys(expected.tags)) cpSync(join(FIX, name), join(root, name), { recursive: true });
  return root;
})();

/** p comes from an erfc of fractional error below 1.2e-7 (src/core/report/stats.ts); the reference's is exact. */
const isP = (path: string): boolean => path.endsWith('.p');

/** Numbers to 1e-9, p values to 2e-7 relative. */
const near = (got: unknown, want: unknown, path: string): void => nearJson(got, want, path, (at, w) => (isP(at) ? 2e-7 * w : 1e-9));

for (const name of Object.keys(expected.tags)) {
  test(`rlrb tags ${name} --json: every tag's count, rate and successes, overall and per iteration, equal the reference`, () => {
    const got = rlrbJson('tags', join(runs, name));
    near(got, expected.tags[name], name);
    assert.deepEqual(Object.keys(got['tags'] as object), Object.keys(expected.tags[name]!['tags'] as object));
  });
}

for (const [pair, want] of Object.entries(expected.compare)) {
  test(`rlrb compare ${want.a} ${want.b} --json: the window and each tag's rateA, rateB, diff and p equal the reference`, () => {
    const got = rlrbJson('compare', join(runs, want.a), join(runs, want.b));
    near(got, want.json, pair);
    assert.deepEqual(Object.keys(got['behaviour'] as object), Object.keys(want.json.behaviour));
  });
}

test('the reference pairs are what they are meant to be', () => {
  const plain = expected.compare['plain']!.json;
  const clear = expected.compare['clear']!.json.behaviour;
  // against a plain run, the tags that need labels: B's rate unknown, A's known and not 0
  for (const tag of ['collapsed', 'creditDisagrees']) {
    assert.equal(plain.behaviour[tag]!.rateB, null);
    assert.ok((plain.behaviour[tag]!.rateA ?? 0) > 0, tag);
  }
  // every other tag inconclusive against the plain run; against the other ws-credit run, `collapsed` alone is clear
  for (const [tag, f] of Object.entries(plain.behaviour)) assert.ok(f.p === null || f.p > 0.05, `plain ${tag}`);
  for (const [tag, f] of Object.entries(clear)) assert.ok(tag === 'collapsed' ? f.p! < 0.001 : f.p! > 0.05, `clear ${tag}`);
  // the window leaves out an iteration that only one run holds
  assert.equal(plain.iterations, 5);
  assert.notEqual(plain.trajectoriesA, plain.trajectoriesB);
});
