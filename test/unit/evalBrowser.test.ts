/**
 * Eval episodes in the trajectory browser (docs/format.md sections 7 and 8): the source's
 * pages and detail over a hand-worked evaluation log, its chips and header, the tree's
 * checkpoints, and the messages that carry the source.
 */
import type { TrajectoryQuery } from '../../src/shared/shapes';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { Run } from '../../src/core/run/run';
import { queryEpisodes } from '../../src/core/eval/episodeQuery';
import type { EvalEpisode } from '../../src/core/eval/evalLog';
import { EpisodeSource } from '../../src/extension/trajectories/episodeSource';
import { episodeRowView } from '../../src/extension/trajectories/episodeViews';
import { evalCheckpointNodes, runChildren } from '../../src/extension/trees/treeModel';
import { queryChips, queryHeader } from '../../src/shared/queryChips';
import { isQuery } from '../../src/shared/protocol';
import { parseTrajectoriesMessage } from '../../src/shared/protocol/trajectories';
import { parseCompareMessage } from '../../src/shared/protocol/compare';
import { parseOpenTrajectoriesArgs } from '../../src/extension/commandArgs';
import { querySpec } from '../../src/extension/trajectories/queryViews';

const click = (x: number, y: number): string => `click(point_2d=[${x}, ${y}])`;
const turns = (actions: string[]): { action: string }[] => actions.map((action) => ({ action }));

/*
 * The evaluation log by hand (section 8 counts every line; section 7 tags each from its actions and reward, horizon 15):
 * line 1  it 10 t1 s0 reward 1   click×3 (within 20 units), done       -> repeat (turns 0-2 marked); ends done, succeeded
 * line 2  it 10 t1 s1 reward 0   click, go_back, click, go_back        -> cycle (turns 0-3), noDone (4 < 15, last not done)
 * line 3  it 10 t2 s0 reward 0   done                                  -> earlyDone, falseDone
 * line 4  it 10 t2 s1 reward -1  no turns                              -> formatFailure, empty
 * line 5  it 20 t1 s0 reward 1   scroll×3, done                        -> none (a scroll run is not a repeat)
 * line 6  it 20 t1 s1 reward 0   15 clicks 100 units apart, no done     -> truncated (15 >= 15)
 * Iteration 10: 4 episodes; success t1 1/2, t2 0/2: (0.5 + 0) / 2 = 0.25 on 2 tasks. Iteration 20: 2 episodes, t1 1/2: 0.5 on 1 task.
 */
const LOG = [
  { iteration: 10, task_id: 't1', sample: 0, reward: 1, turns: turns([click(100, 100), click(120, 100), click(100, 120), 'done()']) },
  { iteration: 10, task_id: 't1', sample: 1, reward: 0, turns: turns([click(10, 10), 'go_back()', click(12, 10), 'go_back()']) },
  { iteration: 10, task_id: 't2', instruction: 'Open the <b>second</b> page', sample: 0, reward: 0, turns: turns(['done()']) },
  { iteration: 10, task_id: 't2', sample: 1, reward: -1, turns: [] },
  { iteration: 20, task_id: 't1', sample: 0, reward: 1, turns: turns([...Array(3).fill('scroll(direction="down", amount=3)'), 'done()']) },
  { iteration: 20, task_id: 't1', sample: 1, reward: 0, turns: turns(Array.from({ length: 15 }, (_, i) => click(100 * i, 0))) },
];

async function source(): Promise<{ src: EpisodeSource; run: Run }> {
  const root = tempDir();
  mkdirSync(join(root, 'logs'));
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), '');
  writeFileSync(join(root, 'logs', 'eval_log.jsonl'), jsonl(LOG));
  const run = (await Run.open(root))!;
  await run.update();
  return { src: new EpisodeSource(run), run };
}

const q = (filter: TrajectoryQuery['filter'], sort: TrajectoryQuery['sort'] = []): TrajectoryQuery => ({ filter, sort });

test("the eval source: a checkpoint's episodes with their tags, paged; size counts the source", async () => {
  const { src } = await source();
  const p = await src.page(q({ evalIteration: 10 }), 0, 200);
  assert.ok(p.ok);
  assert.equal(p.page.total, 4);
  assert.equal(p.page.size, 4);
  assert.deepEqual(p.page.rows, []);
  assert.deepEqual(
    p.page.episodes!.map((e) => [e.episode, e.task, e.sample, e.reward, e.turns, e.tags]),
    [
      [0, 't1', 0, 1, 4, ['repeat']],
      [1, 't1', 1, 0, 4, ['cycle', 'noDone']],
      [2, 't2', 0, 0, 1, ['earlyDone', 'falseDone']],
      [3, 't2', 1, -1, 0, ['formatFailure', 'empty']],
    ],
  );
  const later = await src.page(q({ evalIteration: 20 }), 0, 200);
  assert.ok(later.ok);
  assert.deepEqual(
    later.page.episodes!.map((e) => [e.episode, e.tags]),
    [
      [4, []],
      [5, ['truncated']],
    ],
  );
  // the page is a slice: offset 1, two rows
  const slice = await src.page(q({ evalIteration: 10 }), 1, 2);
  assert.ok(slice.ok);
  assert.deepEqual(
    slice.page.episodes!.map((e) => e.episode),
    [1, 2],
  );
});

test('the eval source: a task, the reward and tag filters, the text search and the sort (group = task, rollout = sample)', async () => {
  const { src } = await source();
  const rows = async (v: TrajectoryQuery): Promise<number[]> => {
    const p = await src.page(v, 0, 200);
    assert.ok(p.ok);
    return p.page.episodes!.map((e) => e.episode);
  };
  assert.deepEqual(await rows(q({ evalIteration: 10, evalTask: 't2' })), [2, 3]);
  assert.deepEqual(await rows(q({ evalIteration: 10, reward: 'failure' })), [1, 2, 3]);
  assert.deepEqual(await rows(q({ evalIteration: 10, reward: 'format' })), [3]);
  assert.deepEqual(await rows(q({ evalIteration: 10, tags: ['falseDone'] })), [2]);
  assert.deepEqual(await rows(q({ evalIteration: 10, text: 'GO_BACK' })), [1]);
  assert.deepEqual(await rows(q({ evalIteration: 10, text: 'second' })), [2]);
  // an eval episode has no labels, flags or group: those filters match none
  assert.deepEqual(await rows(q({ evalIteration: 10, labeledOnly: true })), []);
  assert.deepEqual(await rows(q({ evalIteration: 10, group: 0 })), []);
  assert.deepEqual(await rows(q({ evalIteration: 10 }, [{ key: 'reward' }])), [3, 1, 2, 0]);
  assert.deepEqual(
    await rows(
      q({ evalIteration: 10 }, [
        { key: 'group', descending: true },
        { key: 'rollout', descending: true },
      ]),
    ),
    [3, 2, 1, 0],
  );
  assert.deepEqual(await rows(q({ evalIteration: 10 }, [{ key: 'turns' }])), [3, 2, 0, 1]);
  // a key an episode lacks orders nothing: file order
  assert.deepEqual(await rows(q({ evalIteration: 10 }, [{ key: 'meanC' }])), [0, 1, 2, 3]);
});

test("an episode's detail: its turns' actions with the repeat and cycle marks, its tags, read from its line", async () => {
  const { src } = await source();
  const d0 = await src.detail(0);
  assert.equal(d0.line, 1);
  assert.deepEqual(d0.tags, ['repeat']);
  assert.deepEqual(
    d0.turnList.map((t) => [t.index, t.kind, t.repeat, t.cycle]),
    [
      [0, 'click', true, false],
      [1, 'click', true, false],
      [2, 'click', true, false],
      [3, 'done', false, false],
    ],
  );
  const d1 = await src.detail(1);
  assert.deepEqual(
    d1.turnList.map((t) => t.cycle),
    [true, true, true, true],
  );
  assert.equal(d1.turnList[1]!.action, 'go_back()');
  const d2 = await src.detail(2);
  assert.equal(d2.instruction, 'Open the <b>second</b> page');
  const d3 = await src.detail(3);
  assert.deepEqual([d3.turns, d3.turnList, d3.reward, d3.tags], [0, [], -1, ['formatFailure', 'empty']]);
  await assert.rejects(src.detail(6), /no evaluation episode 6/);
});

test('a run without an evaluation log: the source says so in one line', async () => {
  const root = tempDir();
  writeFileSync(join(root, 'ws_credit_log.jsonl'), '');
  const run = (await Run.open(root))!;
  await run.update();
  const p = await new EpisodeSource(run).page(q({ evalIteration: 10 }), 0, 10);
  assert.ok(!p.ok);
  assert.match(p.message, /no evaluation log \(logs\/eval_log\.jsonl\)/);
});

test('queryEpisodes: only the source checkpoint, stable in file order, tags from the bits given', () => {
  const e = (iteration: number, task: string, sample: number, reward: number): EvalEpisode => ({
    iteration,
    task,
    sample,
    reward,
    turns: 1,
    line: 1,
    offset: 0,
    length: 1,
  });
  const eps = [e(5, 'b', 0, 1), e(6, 'a', 0, 1), e(5, 'a', 0, 0), e(5, 'a', 1, 1)];
  const bits = (i: number): number => (i === 3 ? 1 : 0); // episode 3: repeat (bit 0)
  assert.deepEqual(queryEpisodes(eps, q({ evalIteration: 5 }), bits), [0, 2, 3]);
  assert.deepEqual(queryEpisodes(eps, q({ evalIteration: 5 }, [{ key: 'group' }]), bits), [2, 3, 0]);
  assert.deepEqual(queryEpisodes(eps, q({ evalIteration: 5, tags: ['repeat'] }), bits), [3]);
  assert.deepEqual(queryEpisodes(eps, q({ evalIteration: 5 }, [{ key: 'flags', descending: true }]), bits), [3, 0, 2]);
  // no source, no episodes (the training rollouts are the browser's other source)
  assert.deepEqual(queryEpisodes(eps, q({}), bits), []);
  assert.deepEqual(episodeRowView(eps[3]!, 3, 1 | 64).tags, ['repeat', 'formatFailure']);
});

test('the source is a chip the user can clear, named in the header; on episodes the group and rollout sort keys read task and sample', () => {
  const v = q({ evalIteration: 39, evalTask: 'owrl-0007', reward: 'success' }, [{ key: 'group' }, { key: 'rollout', descending: true }]);
  const chips = queryChips(v);
  assert.deepEqual(
    chips.map((c) => [c.id, c.label]),
    [
      ['eval', 'Evaluation episodes · iteration 39'],
      ['eval-task', 'task owrl-0007'],
      ['reward', 'succeeded'],
      ['sort-group', 'sort task ↑'],
      ['sort-rollout', 'then sample ↓'],
    ],
  );
  assert.deepEqual(chips[0]!.without(v), q({ reward: 'success' }, v.sort));
  assert.deepEqual(chips[1]!.without(v).filter, { evalIteration: 39, reward: 'success' });
  assert.equal(queryHeader(v, 2, 4), '2 of 4 evaluation episodes · Evaluation episodes · iteration 39 · task owrl-0007 · succeeded');
  assert.equal(queryHeader(q({ evalIteration: 39 }), 1096, 1096), 'all 1096 evaluation episodes · Evaluation episodes · iteration 39');
  // on training rollouts the same keys keep their names
  assert.deepEqual(
    queryChips(q({}, [{ key: 'group' }])).map((c) => c.label),
    ['sort group ↑'],
  );
});

test('the tree: an Evaluations node when the run has an evaluation log, one child per checkpoint that opens its episodes', async () => {
  const { run } = await source();
  assert.deepEqual(
    runChildren('/r', true, true, true).map((n) => n.label),
    ['Metrics', 'Run report', 'Iterations', 'Evaluations'],
  );
  assert.ok(!runChildren('/r', true, true).some((n) => n.kind === 'evaluations'));
  const nodes = evalCheckpointNodes('/r', run.evalSummary()!);
  assert.deepEqual(
    nodes.map((n) => [n.label, n.description]),
    [
      ['iter 10', '0.250 on 2 tasks · 4 episodes'],
      ['iter 20', '0.500 on 1 task · 2 episodes'],
    ],
  );
  assert.deepEqual(nodes[0]!.command, { id: 'rlRunBrowser.openTrajectories', args: [{ root: '/r', filter: { evalIteration: 10 } }] });
  // the command's argument reaches the browser's query as it is
  const a = parseOpenTrajectoriesArgs(nodes[1]!.command!.args[0]);
  assert.deepEqual(a.filter, { evalIteration: 20 });
  assert.deepEqual(querySpec({ filter: { evalIteration: 20, evalTask: 't1' }, sort: [] }).filter, { evalIteration: 20, evalTask: 't1' });
  // a task without its checkpoint is no source
  assert.deepEqual(querySpec({ filter: { evalTask: 't1' }, sort: [] }).filter, {});
});

test('the messages: the query with its source checked, the episode opened by index, the verdict task with its checkpoint', () => {
  assert.ok(isQuery(q({ evalIteration: 39, evalTask: 'x' })));
  assert.ok(!isQuery(q({ evalIteration: 3.5 })));
  assert.ok(!isQuery({ filter: { evalIteration: 1, evalTask: 7 }, sort: [] }));
  assert.deepEqual(parseTrajectoriesMessage({ type: 'trajectories/openEpisode', episode: 12 }), {
    type: 'trajectories/openEpisode',
    episode: 12,
  });
  assert.equal(parseTrajectoriesMessage({ type: 'trajectories/openEpisode', episode: -1 }), undefined);
  assert.deepEqual(parseCompareMessage({ type: 'compare/openEvalTask', task: 'owrl-0001', iteration: 39 }), {
    type: 'compare/openEvalTask',
    task: 'owrl-0001',
    iteration: 39,
  });
  assert.equal(parseCompareMessage({ type: 'compare/openEvalTask', task: 'owrl-0001' }), undefined);
});
