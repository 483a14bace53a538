/**
 * The verdict against an independent reference (test/fixtures/verdict/reference.py, written from
 * docs/format.md section 8 and docs/verdict.md alone) on two pairs of runs generated there: an
 * inconclusive pair (whose pooled figure says otherwise) and a clear one. Every view's verdict
 * is checked: `rlrb compare` (JSON and text), `rlrb report --baseline`, `rlrb runs --baseline`,
 * the MCP answer, the report panel's and the Hub tree's sentences.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';
import { nearJson } from '../nearJson';
import { verdictWords } from '../../src/core/eval/verdictWords';
import type { EvalOutcome, EvaluationComparison } from '../../src/core/eval/evalFigures';
import { checkpointVerdictView } from '../../src/extension/report/checkpointVerdict';
import { hubVerdict } from '../../src/extension/trees/hubEvals';
import { compareRuns } from '../../src/cli/mcp/answers';
import { RunCache, RunOpener } from '../../src/cli/mcp/opener';

const FIX = resolve(__dirname, '../../../test/fixtures/verdict');

interface Expected {
  evaluation: Record<string, unknown>;
  verdict: { final: string; pooled: string; text: string };
}

/** The pair's runs in a fresh folder, each with a credit log so that `compare` and `report` take them. */
function pair(name: string): { root: string; a: string; b: string; expected: Expected } {
  const root = tempDir();
  for (const side of ['a', 'b']) {
    cpSync(join(FIX, name, side), join(root, side), { recursive: true });
    writeFileSync(join(root, side, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  }
  const expected = JSON.parse(readFileSync(join(FIX, name, 'expected.json'), 'utf8')) as Expected;
  return { root, a: join(root, 'a'), b: join(root, 'b'), expected };
}

/** p values come from an erfc of fractional error below 1.2e-7 (src/core/report/stats.ts); the reference's is exact. */
const isP = (path: string): boolean => /\.(p|signTestP)$/.test(path);

/** Equal as JSON, numbers to 1e-12 relative (the reference sums in another order), p values to 2e-7 relative. */
const near = (got: unknown, want: unknown, path: string): void =>
  nearJson(got, want, path, (at, w) => (isP(at) ? 2e-7 * Math.abs(w) : 1e-12 * Math.max(1, Math.abs(w))));

const episodes = (dir: string): EvalOutcome[] =>
  readFileSync(join(dir, 'logs', 'eval_log.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const o = JSON.parse(l) as { iteration: number; task_id: string; reward: number };
      return { iteration: o.iteration, task: o.task_id, reward: o.reward };
    });

for (const name of ['inconclusive', 'clear']) {
  test(`the ${name} pair: every view's verdict equals the independent reference`, async () => {
    const { root, a, b, expected } = pair(name);
    const want = expected.verdict;
    // rlrb compare --json: section 8's figures with conclusion and mde80 on every paired entry
    const e = rlrbJson('compare', a, b).evaluation as EvaluationComparison;
    near(e, expected.evaluation, 'evaluation');
    // the one wording, on the product's own figures
    assert.equal(verdictWords(e).text, want.text);
    // rlrb compare: the verdict first
    const text = rlrb('compare', a, b);
    assert.equal(text.code, 0, text.err);
    const lines = text.out.split('\n');
    const at = lines.indexOf('Verdict (checkpoint evaluations):');
    assert.ok(at >= 0 && at < 5, 'the verdict leads');
    assert.equal(lines[at + 1], `  ${want.final}`);
    // rlrb report --baseline: text and JSON
    const report = rlrb('report', a, '--baseline', b);
    assert.equal(report.code, 0, report.err);
    assert.ok(report.out.includes(`\n  ${want.text}\n`), report.out.slice(0, 800));
    const rj = rlrbJson('report', a, '--baseline', b).verdict as { text: string; conclusion: string; disagree: boolean };
    assert.equal(rj.text, want.text);
    assert.equal(rj.conclusion, (expected.evaluation['final'] as { conclusion: string }).conclusion);
    // rlrb runs --baseline: the final and pooled conclusions and mde80
    const runs = rlrbJson('runs', a, '--baseline', b).runs as { root: string; verdict: { final: unknown; pooled: unknown } | null }[];
    const row = runs.find((r) => r.root === a)!;
    const ref = expected.evaluation as { final: Record<string, unknown>; pooled: Record<string, unknown> };
    for (const k of ['final', 'pooled'] as const)
      for (const f of ['tasks', 'meanDiff', 'ci95', 'p', 'conclusion', 'mde80'])
        near((row.verdict![k] as Record<string, unknown>)[f], ref[k][f], `runs.${k}.${f}`);
    // the MCP answer leads with the same sentence
    const mcp = await compareRuns(new RunOpener({ roots: [root], noCache: true }, new RunCache(4)), 'a', 'b');
    assert.equal(mcp.verdict, want.text);
    // the report panel and the Hub tree, from the logs' episodes
    const view = checkpointVerdictView(episodes(a), { name: 'b', episodes: episodes(b) });
    assert.deepEqual([view.final, view.pooled, view.disagree], [want.final, want.pooled, want.text !== want.final]);
    const tree = hubVerdict(episodes(a), { name: 'b', episodes: episodes(b) })!;
    const last = (expected.evaluation['final'] as { iteration: number }).iteration;
    assert.equal(tree.at.get(last)?.words, want.text);
  });
}

test('the reference pairs are what they are meant to be: one inconclusive whose pooled figure differs, one clear', () => {
  const inc = JSON.parse(readFileSync(join(FIX, 'inconclusive', 'expected.json'), 'utf8')) as Expected;
  const clear = JSON.parse(readFileSync(join(FIX, 'clear', 'expected.json'), 'utf8')) as Expected;
  const c = (x: Expected, k: string): unknown => (x.evaluation[k] as { conclusion: string }).conclusion;
  assert.deepEqual(
    [c(inc, 'final'), c(inc, 'pooled'), c(clear, 'final'), c(clear, 'pooled')],
    ['inconclusive', 'better', 'better', 'better'],
  );
  assert.doesNotMatch(inc.verdict.final, /better|worse|gain|loss/);
});
