import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextEpisodeMark } from '../../webview/trajectories/turnWalk';

const turn = (index: number, repeat = false, cycle = false): { index: number; repeat: boolean; cycle: boolean } => ({
  index,
  repeat,
  cycle,
});

test("an eval episode's Next mark: the next turn of a repeat or a cycle window, round to the first; none without one", () => {
  const turns = [turn(0), turn(1, true), turn(2, true), turn(3), turn(4, false, true), turn(5)];
  assert.equal(nextEpisodeMark(turns, -1), 1);
  assert.equal(nextEpisodeMark(turns, 1), 2);
  assert.equal(nextEpisodeMark(turns, 2), 4);
  assert.equal(nextEpisodeMark(turns, 4), 1);
  assert.equal(nextEpisodeMark([turn(0), turn(1)], -1), undefined);
});
