import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVAL_SERIES, evalLine, evalSeries } from '../../src/extension/metrics/evalSeries';
import { checkpointOffer } from '../../src/extension/metrics/checkpointOffer';
import { evalWords, hubFolderChildren, hubIterationNode } from '../../src/extension/trees/treeModel';
import { hubEvals } from '../../src/extension/trees/hubEvals';
import { parseHubNode } from '../../src/extension/commandArgs';
import type { EvalOutcome, EvalSummary } from '../../src/core/eval/evalFigures';
import type { IterationInfo, RunListing } from '../../src/core/hub/model';
import type { RangeCache } from '../../src/core/hub/inPlace/rangeCache';

const ep = (iteration: number, task: string, ...rewards: number[]): EvalOutcome[] => rewards.map((reward) => ({ iteration, task, reward }));

/*
 * By hand, z = 1.959963984540054:
 * iteration 9: a 1, 0 (0.5); b 0, 1 (0.5); c 0, 0 (0): success 1/3, task sd sqrt(((1/6)^2 * 2 + (1/3)^2) / 2) = sqrt(1/12)
 *   = 0.28867513, half = z * 0.28867513 / sqrt(3) = 0.32666066: [0.00667268, 0.65999399], 6 episodes
 * iteration 19: a 1; b 1; c 1, 0 (0.5); d 1, 1: success 0.875, sd of (1, 1, 0.5, 1) = 0.25, half = z * 0.25 / 2 = 0.24499550:
 *   [0.63000450, 1.11999550] clipped to [0.63000450, 1], 6 episodes
 * iteration 29: one task: success 1, no interval
 */
const EPISODES: EvalOutcome[] = [
  ...ep(9, 'a', 1, 0),
  ...ep(9, 'b', 0, 1),
  ...ep(9, 'c', 0, 0),
  ...ep(19, 'a', 1),
  ...ep(19, 'b', 1),
  ...ep(19, 'c', 1, 0),
  ...ep(19, 'd', 1, 1),
  ...ep(29, 'a', 1),
];

const close = (a: number | null | undefined, b: number, msg: string): void => {
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-7, `${msg}: ${a} vs ${b}`);
};

test('the Evaluation chart of one run: success per checkpoint, tasks, episodes and the 95% interval over tasks, by hand', () => {
  const l = evalLine(EPISODES);
  assert.deepEqual(l.x, [9, 19, 29]);
  close(l.y[0], 1 / 3, 'success at 9');
  close(l.y[1], 0.875, 'success at 19');
  assert.equal(l.y[2], 1);
  assert.deepEqual(l.evalPoints.tasks, [3, 4, 1]);
  assert.deepEqual(l.evalPoints.samples, [6, 6, 1]);
  close(l.evalPoints.lo[0], 0.00667268, 'lo at 9');
  close(l.evalPoints.hi[0], 0.65999399, 'hi at 9');
  close(l.evalPoints.lo[1], 0.6300045, 'lo at 19');
  assert.equal(l.evalPoints.hi[1], 1, 'clipped to 1');
  assert.equal(l.evalPoints.lo[2], null);
  assert.equal(l.evalPoints.hi[2], null);
  const [s] = evalSeries([{ root: '/r', episodes: EPISODES }], false);
  assert.equal(s!.name, EVAL_SERIES);
  assert.equal(s!.group, 'Evaluation');
  assert.deepEqual(s!.last, { x: 29, y: 1 });
  assert.equal(s!.total, 3);
  assert.equal(s!.gaps, 0);
  assert.equal(s!.lines, undefined);
});

test("a run's eval line is kept while its log's version holds, and made again when the version moves", () => {
  const episodes: EvalOutcome[] = [...ep(9, 't1', 1, 0), ...ep(9, 't2', 1, 1)];
  const at = (version: number): number[] => evalSeries([{ root: '/r', episodes, version }], false)[0]!.x;
  assert.deepEqual(at(1), [9]);
  // the log appended in place; the same version: the kept line (a push, not a walk of the episodes)
  episodes.push(...ep(19, 't1', 1));
  assert.deepEqual(at(1), [9]);
  assert.deepEqual(at(2), [9, 19]);
  // without a version, made every time
  assert.deepEqual(evalSeries([{ root: '/r', episodes }], false)[0]!.x, [9, 19]);
});

test('the Evaluation chart is absent without an eval log; overlaid runs are lines of their own, the primary absent when it has none', () => {
  assert.deepEqual(evalSeries([{ root: '/a', episodes: undefined }], false), []);
  assert.deepEqual(
    evalSeries(
      [
        { root: '/a', episodes: undefined },
        { root: '/b', episodes: undefined },
      ],
      true,
    ),
    [],
  );
  const [both] = evalSeries(
    [
      { root: '/a', episodes: EPISODES },
      { root: '/b', episodes: ep(9, 'a', 0, 0) },
      { root: '/c', episodes: undefined },
    ],
    true,
  );
  assert.deepEqual(both!.x, [9, 19, 29]);
  assert.deepEqual(
    both!.lines!.map((l) => [l.run, l.metric, l.x, l.y, l.evalPoints?.tasks]),
    [['/b', EVAL_SERIES, [9], [0], [1]]],
  );
  assert.deepEqual(both!.onlyIn, ['/a', '/b']);
  const [onlyOther] = evalSeries(
    [
      { root: '/a', episodes: undefined },
      { root: '/b', episodes: ep(9, 'a', 1) },
    ],
    true,
  );
  assert.equal(onlyOther!.absent, true);
  assert.deepEqual(onlyOther!.x, []);
  assert.deepEqual(onlyOther!.lines![0]!.y, [1]);
  assert.deepEqual(onlyOther!.onlyIn, ['/b']);
});

test("a point of the Evaluation chart offers the Hub repo's checkpoint as the download commands take it; a local run says why not", () => {
  const hub = checkpointOffer({ kind: 'hub', repo: 'acme/run', revision: 'abc' }, 'acme/run', 39);
  assert.equal(hub.kind, 'download');
  if (hub.kind !== 'download') return;
  assert.equal(hub.message, 'Download the checkpoint of iteration 39 (iter_0000039) from acme/run?');
  assert.deepEqual(
    hub.choices.map((c) => [c.label, c.command]),
    [
      ['Download resume/iter_0000039', 'rlRunBrowser.downloadResume'],
      ['Download hf/iter_0000039', 'rlRunBrowser.downloadWeights'],
    ],
  );
  // the download commands read their argument as a Hub tree node: these are ones
  for (const c of hub.choices) assert.deepEqual(parseHubNode(c.node), c.node);
  assert.equal(hub.choices[0]!.node.folder, 'resume');
  const local = checkpointOffer({ kind: 'local', path: '/runs/x' }, 'x', 9);
  assert.equal(local.kind, 'none');
  assert.match(local.message, /^x is a local run with no Hub origin: there is no checkpoint to download for iteration 9 /);
  // every point, local or not, opens that checkpoint's eval episodes
  assert.deepEqual(local.episodes, { label: 'Open the eval episodes of iteration 9', iteration: 9 });
  assert.deepEqual(hub.episodes, { label: 'Open the eval episodes of iteration 39', iteration: 39 });
});

const info = (iteration: number, isLatest = false): IterationInfo => ({
  kind: 'resume',
  iteration,
  dir: `resume/iter_${String(iteration).padStart(7, '0')}`,
  files: [{ path: 'x', size: 10, oid: 'a'.repeat(40) }],
  bytes: 10,
  isLatest,
});

test('the Hub tree shows a checkpoint\'s eval success beside it: "iter_0000039 ★ · eval 0.533 on 274 tasks"', () => {
  const e = { iteration: 39, tasks: 274, samples: 1096, success: 146 / 274, reward: 0.5 };
  assert.equal(evalWords(e), 'eval 0.533 on 274 tasks');
  assert.equal(evalWords({ ...e, tasks: 1, success: 1 }), 'eval 1.000 on 1 task');
  const n = hubIterationNode('o/r', info(39, true), { state: 'absent' }, false, e);
  assert.equal(`${n.label} · ${n.description}`, 'iter_0000039 ★ · eval 0.533 on 274 tasks · 10 B · 1 files');
  assert.match(n.tooltip!, /\neval 0\.533 on 274 tasks \(1,096 episodes, logs\/eval_log\.jsonl\)/);
  const plain = hubIterationNode('o/r', info(39, true), { state: 'complete' }, true);
  assert.equal(plain.description, 'latest here, downloaded · 10 B · 1 files');
  const listing = { repo: 'o/r', resume: [info(9), info(39, true)], hf: [], logs: [] } as unknown as RunListing;
  const evals: EvalSummary = { iterations: [{ ...e, iteration: 9, success: 0.25, tasks: 4 }, e, { ...e, iteration: 44 }] };
  const kids = hubFolderChildren('o/r', listing, 'resume', () => ({ state: 'absent' }), null, evals);
  assert.deepEqual(
    kids.map((k) => `${k.label} · ${k.description}`),
    ['iter_0000039 ★ · eval 0.533 on 274 tasks · 10 B · 1 files', 'iter_0000009 · eval 0.250 on 4 tasks · 10 B · 1 files'],
  );
});

test("the Hub tree reads a repo's eval log once per listing commit, not per node; none without one; a failure is one warning", async () => {
  const calls: string[] = [];
  const warned: string[] = [];
  let fail = false;
  const episodes: EvalOutcome[] = [];
  const summary = { summary: { iterations: [] } };
  const of = hubEvals(
    () => Promise.resolve({ endpoint: 'http://127.0.0.1:1' }),
    {} as RangeCache,
    (l) => warned.push(l),
    undefined,
    (l) => {
      calls.push(l.commit);
      return fail ? Promise.reject(new Error('boom')) : Promise.resolve(episodes);
    },
  );
  const listing = (commit: string, withLog = true): RunListing =>
    ({
      repo: 'o/r',
      commit,
      logs: withLog ? [{ path: 'logs/eval_log.jsonl', size: 1, oid: 'b'.repeat(40) }] : [],
    }) as unknown as RunListing;
  const a = 'a'.repeat(40);
  assert.deepEqual(await of(listing(a)), summary);
  assert.deepEqual(await of(listing(a)), summary);
  assert.deepEqual(calls, [a], 'one read for two folders of the same listing');
  assert.equal(await of(listing('c'.repeat(40), false)), undefined);
  assert.deepEqual(calls, [a], 'no read without logs/eval_log.jsonl');
  fail = true;
  assert.equal(await of(listing('d'.repeat(40))), undefined);
  assert.equal(await of(listing('d'.repeat(40))), undefined);
  assert.equal(calls.length, 2, 'a failed read is not retried for the same commit');
  assert.deepEqual(warned, [`o/r: logs/eval_log.jsonl at dddddddddddd could not be read: boom`]);
});
