import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HAND_LOG, indexRecords, labeledRecord } from '../fixtures';
import type { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';
import { turnMarks } from '../../src/core/credit/turnMarks';
import { DEFAULT_MATCH } from '../../src/core/credit/actions';
import { detailView, divergence, groupGate } from '../../src/extension/trajectories/trajectoryViews';
import type { Sibling } from '../../src/extension/trajectories/trajectoryViews';

const turn = (action: string, scores: number[], c: number, At: number): Record<string, unknown> => ({
  action,
  candidates: [action, ...scores.slice(1).map((_, k) => `click(x=${k * 300 + 500}, y=9)`)],
  scores,
  c,
  A_t: At,
});

/** A group of three: rollout 1 flips sign on turn 1 (A -0.5, A_t +0.1), rollout 2 diverges at turn 1. */
const GROUP = [
  labeledRecord({ iteration: 7, group: 1, rollout: 0, reward: 1, A: 0.5 }, [
    turn('type(text="a")', [0.2, 0.1], 0.005, 0.502),
    turn('done()', [0.3, 0.1], 0.01, 0.504),
  ]),
  labeledRecord({ iteration: 7, group: 1, rollout: 1, reward: 0, A: -0.5 }, [
    turn('type(text="a")', [0.2, 0.1], 0.005, -0.498),
    turn('done()', [40, 0], 1, 0.1),
  ]),
  labeledRecord({ iteration: 7, group: 1, rollout: 2, reward: 0, A: -0.5 }, [
    turn('type(text="a")', [0.2, 0.1], 0.005, -0.498),
    turn('scroll(dy=3)', [0.1, 0.4], -0.015, -0.506),
  ]),
];

async function detailsOf(idx: CreditIndex, row: number): Promise<ReturnType<typeof detailView>> {
  const t = await idx.read(row);
  const sibs: Sibling[] = [];
  for (const r of idx.groupRows(t.iteration, t.group)) sibs.push({ row: r, t: await idx.read(r) });
  return detailView(idx, row, t, sibs, computeReport(idx).gateGroups);
}

test("every turn's marks in the detail are core's turnMarks (the CLI's --json), field by field", async () => {
  const idx = await indexRecords([...HAND_LOG, ...GROUP]);
  const { credit: p, match: m } = idx.options;
  let marked = 0;
  for (let row = 0; row < idx.size; row++) {
    const t = await idx.read(row);
    const d = detailView(idx, row, t);
    t.turns.forEach((u, i) => {
      const k = turnMarks(u, t.A, p, m);
      const v = d.turns[i]!;
      const got = {
        signFlip: v.signFlip,
        fallback: v.fallback,
        clipped: v.clipped,
        cMismatch: v.cMismatch,
        aTMismatch: v.aTMismatch,
        executedIsArgmax: v.executedIsArgmax,
        masked: v.masked,
        recomputedC: v.cRecomputed,
      };
      assert.deepEqual(got, k, `row ${row} turn ${i}`);
      if (k.signFlip || k.clipped || k.executedIsArgmax) marked++;
    });
  }
  assert.ok(marked > 0, 'the fixture has marked turns');
});

test('the sign flip of A -0.5 -> A_t +0.1 is marked on its turn, and that turn is clipped', async () => {
  const idx = await indexRecords(GROUP);
  const d = await detailsOf(idx, idx.find(7, 1, 1));
  assert.deepEqual(
    d.turns.map((t) => t.signFlip),
    [false, true],
  );
  assert.equal(d.turns[1]!.clipped, true);
  assert.equal(d.turns[0]!.signFlip, false);
});

test('the group view: every sibling with its turns, the first diverging turn, and the gate difference from the report', async () => {
  const idx = await indexRecords(GROUP);
  const d = await detailsOf(idx, idx.find(7, 1, 0));
  assert.deepEqual(
    d.siblings.map((s) => [s.rollout, s.turnList.length]),
    [
      [0, 2],
      [1, 2],
      [2, 2],
    ],
  );
  assert.equal(d.divergeAt, 1, 'turn 0 is the same action everywhere; turn 1 is done() vs scroll');
  const g = computeReport(idx).gateGroups.find((x) => x.iteration === 7 && x.group === 1);
  assert.ok(g);
  assert.deepEqual(d.gate, { counts: true, diff: g.diff, reason: null });
  assert.ok(Math.abs(g.diff - (0.0075 - (0.5025 - 0.005) / 2)) < 1e-9, `diff ${g.diff}`);
});

test('divergence compares canonical actions; a shorter rollout diverges where it ends', () => {
  const a = [{ action: 'click(point_2d=[10, 10])' }, { action: 'done()' }];
  assert.equal(divergence([a, [{ action: 'click(point_2d=[12, 11])' }, { action: 'done()' }]], DEFAULT_MATCH), null);
  assert.equal(divergence([a, [{ action: 'click(point_2d=[10, 10])' }]], DEFAULT_MATCH), 1);
  assert.equal(divergence([a], DEFAULT_MATCH), null);
});

test('a group with one reward does not count for the gate, and says why', () => {
  const row = {
    row: 0,
    iteration: 0,
    group: 0,
    rollout: 0,
    reward: 1,
    A: 0,
    labeled: true,
    turns: 1,
    labeledTurns: 1,
    meanC: 0,
    signFlips: 0,
    argmaxTurns: 0,
    fallbackTurns: 0,
    flags: 0,
  };
  const g = groupGate([row, { ...row, rollout: 1 }], undefined);
  assert.equal(g.counts, false);
  assert.match(g.reason ?? '', /same reward/);
  assert.match(groupGate([row, { ...row, reward: 0 }], undefined).reason ?? '', /labeled/);
});
