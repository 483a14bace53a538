import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { TaskColumn } from '../../src/core/compare/taskColumn';
import { taskHistory, taskRowsOf } from '../../src/core/compare/taskHistory';
import { sideBySideView, sideView, taskRunView } from '../../src/extension/task/taskViews';
import { parseSideBySideMessage, parseSideBySideState, parseTaskMessage, parseTaskState } from '../../src/shared/protocol/task';

const labeledTurn = (action: string, c: number, A: number): Record<string, unknown> => ({
  action,
  candidates: [action, 'scroll(direction="down", amount=3)'],
  scores: [0.5, 0.1],
  same: [true, false],
  c,
  A_t: A + 0.4 * c,
});

async function index(lines: Record<string, unknown>[]): Promise<CreditIndex> {
  const d = tempDir();
  mkdirSync(join(d, 'logs'));
  const path = join(d, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const idx = new CreditIndex(path);
  await idx.update();
  return idx;
}

const A = [
  // the ws-credit run: one labeled rollout with candidates and a logged c, one plain
  { iteration: 3, group: 1, rollout: 1, task_id: 'T', reward: 0, A: -1, turns: [{ action: 'click(point_2d=[10, 10])' }] },
  {
    iteration: 3,
    group: 1,
    rollout: 0,
    task_id: 'T',
    reward: 1,
    A: 1,
    labeled: true,
    turns: [labeledTurn('click(point_2d=[10, 10])', 0.8, 1), labeledTurn('write(message="hi")', 0.8, 1)],
  },
];
const B = [
  {
    iteration: 3,
    group: 1,
    rollout: 0,
    task_id: 'T',
    reward: 0,
    A: 0,
    turns: [{ action: 'click(point_2d=[15, 12])' }, { action: 'go_back()' }, { action: 'done(response="x")' }],
  },
];

test('taskRunView: the groups with their rollouts as the index holds them, in rollout order', async () => {
  const idx = await index(A);
  const col = new TaskColumn(idx);
  await col.update();
  const v = taskRunView('/r', 'r', idx, taskHistory(taskRowsOf(col), 'T'));
  assert.equal(v.note, null);
  assert.deepEqual(v.groups, [
    {
      iteration: 3,
      group: 1,
      success: 0.5,
      labeled: 1,
      rollouts: [
        { rollout: 0, reward: 1, A: 1, labeled: true, turns: 2 },
        { rollout: 1, reward: 0, A: -1, labeled: false, turns: 1 },
      ],
    },
  ]);
  assert.deepEqual(v.perIteration, [{ iteration: 3, counted: 2, success: 0.5 }]);
  assert.equal(taskRunView('/r', 'r', idx, taskHistory(taskRowsOf(col), 'other')).note, 'no trajectory of this task in this run');
  col.dispose();
});

test('sideBySideView: candidates on the labeled side only, the first divergent turn by the canonical match, a side past its end', async () => {
  const ia = await index(A);
  const ib = await index(B);
  const ra = ia.find(3, 1, 0);
  const rb = ib.find(3, 1, 0);
  const l = sideView('/a', 'a', ia, ra, await ia.read(ra));
  const r = sideView('/b', 'b', ib, rb, await ib.read(rb));
  assert.equal(l.hasCandidates, true);
  assert.equal(r.hasCandidates, false);
  assert.equal(l.turns[0]!.candidates.length, 2);
  assert.equal(l.turns[0]!.c, 0.8);
  assert.deepEqual(
    r.turns.map((t) => [t.action, t.candidates.length, t.c]),
    [
      ['click(point_2d=[15, 12])', 0, null],
      ['go_back()', 0, null],
      ['done(response="x")', 0, null],
    ],
  );
  const v = sideBySideView(l, r, ia.options.match);
  // turn 0: points 5 and 2 apart on the grid are the same click; turn 1 differs; turn 2 exists on the right only
  assert.equal(v.divergeAt, 1);
  assert.deepEqual(v.sameAt, [true, false, false]);
  const gone = sideBySideView(l, 'b: no trajectory with iteration 3, group 1, rollout 9', ia.options.match);
  assert.deepEqual(
    [gone.right, gone.rightError, gone.divergeAt, gone.sameAt],
    [null, 'b: no trajectory with iteration 3, group 1, rollout 9', null, []],
  );
});

test('the task view’s messages are checked: run indexes 0 and 1 only, whole non-negative keys, both sides of a pair', () => {
  assert.deepEqual(parseTaskMessage({ type: 'task/open', run: 1, iteration: 3, group: 1, rollout: 0 }), {
    type: 'task/open',
    run: 1,
    iteration: 3,
    group: 1,
    rollout: 0,
  });
  assert.equal(parseTaskMessage({ type: 'task/open', run: 2, iteration: 3, group: 1, rollout: 0 }), undefined);
  assert.equal(parseTaskMessage({ type: 'task/open', run: 0, iteration: -1, group: 1, rollout: 0 }), undefined);
  assert.equal(parseTaskMessage({ type: 'task/open', run: 0, iteration: 1.5, group: 1, rollout: 0 }), undefined);
  const pick = { run: 0, iteration: 3, group: 1, rollout: 0 };
  assert.equal(parseTaskMessage({ type: 'task/sideBySide', left: pick }), undefined);
  assert.deepEqual(parseTaskMessage({ type: 'task/sideBySide', left: pick, right: { ...pick, run: 1 }, extra: '<b>' }), {
    type: 'task/sideBySide',
    left: pick,
    right: { ...pick, run: 1 },
  });
  assert.equal(parseTaskMessage({ type: 'openMetrics' }), undefined);
  assert.equal(parseTaskMessage('ready'), undefined);
  assert.deepEqual(parseSideBySideMessage({ type: 'sideBySide/open', side: 'right' }), { type: 'sideBySide/open', side: 'right' });
  assert.equal(parseSideBySideMessage({ type: 'sideBySide/open', side: 'middle' }), undefined);
});

test('the saved states are checked where they come back: 1 or 2 runs, a task, both trajectory keys', () => {
  assert.deepEqual(parseTaskState({ kind: 'task', root: '/x', task: 'T', runs: ['/a', '/b'] }), {
    kind: 'task',
    root: '/a',
    task: 'T',
    runs: ['/a', '/b'],
  });
  assert.equal(parseTaskState({ kind: 'task', task: 'T', runs: [] }), undefined);
  assert.equal(parseTaskState({ kind: 'task', task: 'T', runs: ['/a', '/b', '/c'] }), undefined);
  assert.equal(parseTaskState({ kind: 'task', task: '', runs: ['/a'] }), undefined);
  assert.equal(parseTaskState({ kind: 'metrics', task: 'T', runs: ['/a'] }), undefined);
  const key = { run: '/a', iteration: 1, group: 2, rollout: 3 };
  assert.deepEqual(parseSideBySideState({ kind: 'sideBySide', left: key, right: { ...key, run: '/b' } }), {
    kind: 'sideBySide',
    root: '/a',
    left: key,
    right: { ...key, run: '/b' },
  });
  assert.equal(parseSideBySideState({ kind: 'sideBySide', left: key, right: { ...key, rollout: 'x' } }), undefined);
});
