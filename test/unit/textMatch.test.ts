import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstMatch, trajectoryFields } from '../../src/core/run/textMatch';
import type { TrajectoryView } from '../../src/core/record/trajectory';
import { matchRanges } from '../../webview/trajectories/page/matchRanges';

const traj = (instruction: string | null, actions: string[], candidates: string[][] = []): TrajectoryView =>
  ({
    iteration: 1,
    group: 0,
    rollout: 0,
    taskId: 't1',
    instruction,
    turns: actions.map((action, index) => ({ index, action, candidates: candidates[index] ?? null })),
  }) as unknown as TrajectoryView;

test("a text search's row says where the text is: the first field holding it, ignoring case, with the text around it", () => {
  const t = traj('open the file', ['click(x=1)', 'type(text="Hello World")'], [[], ['type(text="Hello World")', 'scroll()']]);
  assert.deepEqual(firstMatch(trajectoryFields(t), 'hello'), { where: 'turn 1', before: 'type(text="', hit: 'Hello', after: ' World")' });
  assert.deepEqual(firstMatch(trajectoryFields(t), 'FILE'), { where: 'instruction', before: 'open the ', hit: 'file', after: '' });
  assert.equal(firstMatch(trajectoryFields(t), 'scroll')?.where, 'turn 1 candidate 1');
  assert.equal(firstMatch(trajectoryFields(t), 't1')?.where, 'task');
  assert.equal(firstMatch(trajectoryFields(t), 'nowhere'), null, 'only in a field not shown (the raw record)');
  // the needle is literal, not a pattern
  assert.equal(firstMatch(trajectoryFields(t), '(x=')?.hit, '(x=');
});

test('the text around a hit is cut to a window and says so', () => {
  const long = `${'a'.repeat(50)}NEEDLE${'b'.repeat(50)}`;
  const m = firstMatch([['instruction', long]], 'needle', 10);
  assert.deepEqual(m, { where: 'instruction', before: `…${'a'.repeat(10)}`, hit: 'NEEDLE', after: `${'b'.repeat(10)}…` });
});

test('the detail marks every place of the text, ignoring case, literally', () => {
  assert.deepEqual(matchRanges('Click click CLICK', 'click'), [
    [0, 5],
    [6, 11],
    [12, 17],
  ]);
  assert.deepEqual(matchRanges('a.b axb', 'a.b'), [[0, 3]]);
  assert.deepEqual(matchRanges('abc', ''), []);
});
