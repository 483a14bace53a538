import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IndexStore } from '../../src/core/log/indexStore';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { RunComparer } from '../../src/core/compare/compareRuns';
import { keptComparison } from '../../src/core/compare/keptComparison';
import { behaviourFigures, runBehaviour } from '../../src/core/behaviour/behaviourFigures';
import { tempDir } from '../helpers';

/** A demo run with its baseline; `open` gives a fresh Run of either, updated, over one store. */
function fixture(): { run: string; baseline: string; creditLog: string; open: (root: string, store?: IndexStore) => Promise<Run> } {
  const dir = tempDir();
  const demo = writeDemo(join(dir, 'run'), { trajectories: 240, hubRepo: false, baseline: true });
  const store = new IndexStore(join(dir, 'store'));
  return {
    run: join(dir, 'run'),
    baseline: join(dir, 'run', 'baseline'),
    creditLog: demo.creditLog,
    open: async (root, s = store) => {
      const r = (await Run.open(root, undefined, { store: s }))!;
      await r.update();
      return r;
    },
  };
}

/** The first line of a credit log again under another id, with the other outcome: every figure that counts it moves. */
function appendTrajectory(creditLog: string): void {
  const rec = JSON.parse(readFileSync(creditLog, 'utf8').split('\n')[0]!) as Record<string, unknown>;
  appendFileSync(creditLog, JSON.stringify({ ...rec, trajectory_id: 'appended-1', reward: 1, success: true }) + '\n');
}

test('Run.figures (section 7 for the panels): held in memory, then kept for a second Run of the unchanged logs, equal to a fresh computation; an append computes again', async () => {
  const f = fixture();
  const first = await f.open(f.run);
  const fresh = behaviourFigures(first.credit!);
  assert.deepStrictEqual(await runBehaviour(first), fresh);
  assert.equal(first.figuresSource, 'computed');
  assert.deepStrictEqual(await runBehaviour(first), fresh);
  assert.equal(first.figuresSource, 'memory');
  const second = await f.open(f.run);
  assert.deepStrictEqual(await runBehaviour(second), fresh);
  assert.equal(second.figuresSource, 'kept', 'a new Run of the same logs reads the kept figures');
  appendTrajectory(f.creditLog);
  // the same Run after its update: neither the memory nor the kept entry answers
  await second.update();
  const grown = await runBehaviour(second);
  assert.equal(second.figuresSource, 'computed');
  assert.notDeepStrictEqual(grown, fresh);
  assert.deepStrictEqual(grown, behaviourFigures(second.credit!));
  assert.equal(grown.report.trajectories, fresh.report.trajectories + 1);
  const third = await f.open(f.run);
  assert.deepStrictEqual(await runBehaviour(third), grown);
  assert.equal(third.figuresSource, 'kept', 'kept again after the append');
});

test('Run.figures: a log that grew after the last update is not answered from, nor kept for, the grown file', async () => {
  const f = fixture();
  const r = await f.open(f.run);
  appendTrajectory(f.creditLog);
  // the index has not read the new line: the figures are those of the index, and kept for the states it read
  const before = await runBehaviour(r);
  assert.equal(before!.report.trajectories, behaviourFigures(r.credit!).report.trajectories);
  const next = await f.open(f.run);
  const after = await runBehaviour(next);
  assert.equal(next.figuresSource, 'computed', 'the entry kept for the old states is not the grown log’s');
  assert.equal(after!.report.trajectories, before!.report.trajectories + 1);
});

test('keptComparison: a second open of two unchanged runs is the kept comparison, equal to a fresh one; an append to run B computes it again', async () => {
  const f = fixture();
  const [a, b] = [await f.open(f.run), await f.open(f.baseline)];
  const fresh = await new RunComparer(a, b).compute();
  const first = await keptComparison(a, b, () => new RunComparer(a, b));
  assert.equal(first.source, 'computed');
  assert.deepStrictEqual(first.value, fresh);
  const [a2, b2] = [await f.open(f.run), await f.open(f.baseline)];
  let made = 0;
  const second = await keptComparison(a2, b2, () => {
    made++;
    return new RunComparer(a2, b2);
  });
  assert.equal(second.source, 'kept');
  assert.equal(made, 0, 'no comparer is made: neither log is read');
  assert.deepStrictEqual(second.value, fresh);
  // the other order is another comparison
  assert.equal((await keptComparison(b2, a2, () => new RunComparer(b2, a2))).source, 'computed');
  appendTrajectory(join(f.baseline, 'logs', 'ws_credit_log.jsonl'));
  const [a3, b3] = [await f.open(f.run), await f.open(f.baseline)];
  const grown = await keptComparison(a3, b3, () => new RunComparer(a3, b3));
  assert.equal(grown.source, 'computed');
  assert.equal(grown.value.figures.trajectoriesB, fresh.figures.trajectoriesB + 1);
  // without a store nothing is kept
  const bare = new IndexStore(join(tempDir(), 'none'), { maxBytes: 0 });
  const [a4, b4] = [await f.open(f.run, bare), await f.open(f.baseline, bare)];
  assert.equal((await keptComparison(a4, b4, () => new RunComparer(a4, b4))).source, 'computed');
  assert.equal((await keptComparison(a4, b4, () => new RunComparer(a4, b4))).source, 'computed');
});

test('Run.heldAcross: the same value while neither run changed (either order is its own), computed again after an append to run B', async () => {
  const f = fixture();
  const [a, b] = [await f.open(f.run), await f.open(f.baseline)];
  let calls = 0;
  const get = (x: Run, y: Run): number[] => Run.heldAcross(x, y, 'sizes', () => (calls++, [x.credit!.size, y.credit!.size]));
  const first = get(a, b);
  assert.equal(get(a, b), first, 'held: the very same value');
  assert.equal(calls, 1);
  assert.deepStrictEqual(get(b, a), [first[1], first[0]]);
  assert.equal(calls, 2);
  appendTrajectory(join(f.baseline, 'logs', 'ws_credit_log.jsonl'));
  await b.update();
  assert.deepStrictEqual(get(a, b), [first[0], first[1]! + 1]);
  assert.equal(calls, 3);
});
