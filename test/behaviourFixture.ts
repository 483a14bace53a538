/** The hand-worked behaviour fixture (run-format section 7): each row with the tags worked out by hand, and a plain run. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers';
import type { TagName } from '../src/core/behaviour/tags';

export const click = (x: number, y: number): string => `click(point_2d=[${x}, ${y}])`;
export const plain = (actions: string[]): { action: string }[] => actions.map((action) => ({ action }));
/** A labeled turn: its scores, same flags, done flags and logged c. */
export const lab = (action: string, scores: number[], same: boolean[], c: number | null, extra: Record<string, unknown> = {}): unknown => ({
  action,
  scores,
  same,
  c,
  ...extra,
});

export interface Row {
  iteration: number;
  rollout: number;
  reward: number | null;
  turns: unknown[];
  /** the tags worked out by hand (horizon 15, theta 0.5, tolerance 20, key case on) */
  tags: TagName[];
}

export const distinct = (n: number): string[] => Array.from({ length: n }, (_, i) => click(i * 50, 0));

export const ROWS: Row[] = [
  // iteration 0: the action tags
  { iteration: 0, rollout: 0, reward: 1, turns: plain([click(100, 100), click(120, 100), click(100, 120), 'done()']), tags: ['repeat'] },
  { iteration: 0, rollout: 1, reward: 0, turns: plain([click(100, 100), click(121, 100), click(100, 100), 'done()']), tags: ['falseDone'] },
  { iteration: 0, rollout: 2, reward: 1, turns: plain([...Array(4).fill('scroll(direction="down", amount=3)'), 'done()']), tags: [] },
  { iteration: 0, rollout: 3, reward: 0, turns: plain(Array(4).fill(click(5, 5))), tags: ['repeat', 'noDone'] },
  {
    iteration: 0,
    rollout: 4,
    reward: 1,
    turns: plain([click(10, 10), 'go_back()', click(12, 10), 'go_back()', 'done()']),
    tags: ['cycle'],
  },
  { iteration: 0, rollout: 5, reward: 0, turns: plain([click(1, 1), click(1, 1), 'done()', click(1, 1), click(1, 1)]), tags: ['noDone'] },
  { iteration: 0, rollout: 6, reward: 0, turns: plain(['done(response="ok")']), tags: ['earlyDone', 'falseDone'] },
  { iteration: 0, rollout: 7, reward: 0, turns: [], tags: ['empty'] },
  { iteration: 0, rollout: 8, reward: -1, turns: plain(['wait()']), tags: ['noDone', 'formatFailure'] },
  {
    iteration: 0,
    rollout: 9,
    reward: 1,
    turns: plain(['press_keys(keys=["Enter"])', 'press_keys(keys=["enter"])', 'press_keys(keys=["ENTER"])', 'done()']),
    tags: ['repeat'],
  },
  // iteration 1: the horizon
  { iteration: 1, rollout: 0, reward: 0, turns: plain(distinct(15)), tags: ['truncated'] },
  { iteration: 1, rollout: 1, reward: 0, turns: plain(distinct(14)), tags: ['noDone'] },
  { iteration: 1, rollout: 2, reward: 1, turns: plain([...distinct(14), 'done()']), tags: [] },
  // iteration 2: the labels
  { iteration: 2, rollout: 0, reward: 1, turns: [lab(click(1, 1), [5, 6, 7], [true, true, true], 0)], tags: ['noDone', 'collapsed'] },
  {
    iteration: 2,
    rollout: 1,
    reward: 0,
    turns: [
      lab(click(1, 1), [5, 6, 7], [true, true, false], 0, { done: [false, false, true] }),
      lab(click(2, 2), [5, 6], [true, false], -0.05),
      { action: 'done()' },
    ],
    tags: ['falseDone', 'collapsed'],
  },
  {
    iteration: 2,
    rollout: 2,
    reward: 1,
    turns: [lab(click(2, 2), [5, 6], [true, true], 0, { done: [false, true] }), lab('done()', [1, 1], [true, true], 0, { masked: true })],
    tags: [],
  },
  {
    iteration: 2,
    rollout: 3,
    reward: 1,
    turns: [lab(click(3, 3), [0, 10], [true, false], -0.5), lab('write(message="a")', [0, 10], [true, false], -0.5), { action: 'done()' }],
    tags: ['creditDisagrees'],
  },
  {
    iteration: 2,
    rollout: 4,
    reward: 0,
    turns: [lab(click(3, 3), [10, 0], [true, false], 0.5), { action: 'done()' }],
    tags: ['falseDone', 'creditDisagrees'],
  },
  { iteration: 2, rollout: 5, reward: 1, turns: [lab(click(4, 4), [0, 9], [true, false], -0.45), { action: 'done()' }], tags: [] },
  {
    iteration: 2,
    rollout: 6,
    reward: 0,
    turns: [lab(click(6, 6), [0, 12], [true, false], -0.6), { action: 'done()' }],
    tags: ['falseDone'],
  },
  { iteration: 2, rollout: 7, reward: 1, turns: [lab(click(7, 7), [1, 2], [true, false], null), { action: 'done()' }], tags: [] },
  // not counted (no reward): no tags, in no figure
  { iteration: 2, rollout: 8, reward: null, turns: plain(Array(3).fill('wait()')), tags: [] },
];

export function lineOf(r: Row, group = 0): string {
  return JSON.stringify({ iteration: r.iteration, group, rollout: r.rollout, reward: r.reward, A: 0.5, turns: r.turns });
}

/** The fixture, with one record that the fast reader hands to the slow path (an escaped known key) and one escaped action. */
export function fixtureLog(dir = tempDir()): string {
  const lines = ROWS.map((r) => lineOf(r));
  // iteration 3: the cycle again, once through the slow path, once with an escaped tool name (fast path, decoded)
  lines.push(
    `{"iteration": 3, "group": 0, "rollout": 0, "reward": 1, "A": 0.5, "\\u0074ask_id": "slow", "turns": ${JSON.stringify(ROWS[4]!.turns)}}`,
  );
  lines.push(
    `{"iteration": 3, "group": 0, "rollout": 1, "reward": 0, "A": 0.5, "turns": [{"action": "\\u0064one()"}, {"action": "\\u0063lick(point_2d=[1, 1])"}, {"action": "click(point_2d=[1, 1])"}, {"action": "click(point_2d=[21, 1])"}]}`,
  );
  const path = join(dir, 'ws_credit_log.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** A run with no labeled turn. */
export function plainLog(): string {
  const dir = tempDir();
  const path = join(dir, 'ws_credit_log.jsonl');
  const rows = [
    { iteration: 0, rollout: 0, reward: 1, turns: plain(Array(3).fill(click(9, 9))) },
    { iteration: 0, rollout: 1, reward: 0, turns: plain(['done()']) },
    { iteration: 2, rollout: 0, reward: 0, turns: plain([click(1, 1), 'done()']) },
  ];
  writeFileSync(path, rows.map((r) => JSON.stringify({ ...r, group: 0, A: 0 })).join('\n') + '\n');
  return path;
}
