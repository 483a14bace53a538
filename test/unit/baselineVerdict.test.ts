import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkpointVerdictView, NO_CHECKPOINT_VERDICT } from '../../src/extension/report/checkpointVerdict';
import { hubVerdict } from '../../src/extension/trees/hubEvals';
import { hubFolderChildren } from '../../src/extension/trees/treeModel';
import { compareEvaluations } from '../../src/core/eval/evalFigures';
import type { EvalOutcome } from '../../src/core/eval/evalFigures';
import { entryWords, verdictWords } from '../../src/core/eval/verdictWords';
import type { IterationInfo, RunListing } from '../../src/core/hub/model';

/** 8 tasks, one episode each: at iteration 10 A ahead on 4, behind on 3 (inconclusive); at 20 ahead on 7, tied on 1 (better). */
function runs(): { a: EvalOutcome[]; b: EvalOutcome[] } {
  const a: EvalOutcome[] = [];
  const b: EvalOutcome[] = [];
  for (let t = 0; t < 8; t++) {
    const task = `t${t}`;
    a.push({ iteration: 10, task, reward: t < 4 ? 1 : 0 }, { iteration: 20, task, reward: 1 });
    b.push({ iteration: 10, task, reward: t < 4 || t === 7 ? 0 : 1 }, { iteration: 20, task, reward: t === 7 ? 1 : 0 });
  }
  return { a, b };
}

test('the report states the verdict in core words against the baseline set; without one, why not', () => {
  const { a, b } = runs();
  const words = verdictWords(compareEvaluations(a, b));
  const v = checkpointVerdictView(a, { name: 'plain', episodes: b });
  assert.deepEqual(
    [v.hasEvals, v.baseline, v.problem, v.conclusion, v.final, v.pooled, v.disagree],
    [true, 'plain', '', words.conclusion, words.final, words.pooled, words.disagree],
  );
  assert.deepEqual(checkpointVerdictView(undefined, undefined), NO_CHECKPOINT_VERDICT, 'no log, no baseline: nothing to say');
  const unset = checkpointVerdictView(a, undefined);
  assert.deepEqual([unset.hasEvals, unset.baseline, unset.final], [true, null, '']);
  const bad = checkpointVerdictView(a, { name: 'x', episodes: undefined, problem: 'The baseline set is this run itself.' });
  assert.deepEqual([bad.baseline, bad.problem, bad.conclusion], ['x', 'The baseline set is this run itself.', null]);
  const noLog = checkpointVerdictView(a, { name: 'plain', episodes: undefined });
  assert.match(noLog.final, /^No verdict: a run has no evaluation log/);
});

const info = (iteration: number): IterationInfo => ({
  kind: 'resume',
  iteration,
  dir: `resume/iter_${String(iteration).padStart(7, '0')}`,
  files: [{ path: 'x', size: 10, oid: 'a'.repeat(40) }],
  bytes: 10,
  isLatest: false,
});

test('the Hub tree: each evaluated checkpoint says its conclusion; its tooltip the sentence, the last one the whole verdict', () => {
  const { a, b } = runs();
  const e = compareEvaluations(a, b)!;
  const v = hubVerdict(a, { name: 'plain', episodes: b })!;
  assert.equal(hubVerdict(a, undefined), undefined);
  assert.equal(hubVerdict(a, { name: 'plain', episodes: undefined }), undefined);
  assert.equal(hubVerdict(a, { name: 'plain', episodes: b, problem: 'x' }), undefined);
  const listing = { repo: 'o/r', resume: [info(10), info(20), info(30)], hf: [], logs: [] } as unknown as RunListing;
  const kids = hubFolderChildren('o/r', listing, 'resume', () => ({ state: 'absent' }), null, undefined, undefined, v);
  const [k30, k20, k10] = kids;
  assert.equal(k30!.description, '10 B · 1 files', 'no verdict where only one run evaluated');
  const c10 = e.perIteration[0]!.conclusion;
  assert.equal(c10, 'inconclusive');
  assert.equal(k10!.description, 'verdict: Inconclusive · 10 B · 1 files');
  assert.ok(k10!.tooltip!.endsWith(`(A = this repo, B = plain):\n${entryWords(e.perIteration[0]!, 'at iteration 10', 'task')}`));
  assert.equal(k20!.description, `verdict: A better than B · 10 B · 1 files`);
  assert.ok(k20!.tooltip!.endsWith(`\n${verdictWords(e).text}`));
});
