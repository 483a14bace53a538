import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { HAND_LOG, indexRecords, labeledRecord } from '../fixtures';
import type { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';
import { detailView } from '../../src/extension/trajectories/trajectoryViews';
import { figuresView } from '../../src/extension/report/reportViews';
import { writeDemo } from '../../src/core/demo/demo';

test("the report's figures on the wire: every key of the engine's report, with its value, and nothing else", async () => {
  const { report } = computeReport(await indexRecords(HAND_LOG));
  const view = figuresView(report);
  assert.deepEqual(Object.keys(view).sort(), Object.keys(report).sort());
  assert.deepEqual(Object.keys(view.gate).sort(), Object.keys(report.gate).sort());
  assert.deepEqual(JSON.parse(JSON.stringify(view)), JSON.parse(JSON.stringify(report)));
});

async function details(idx: CreditIndex): Promise<ReturnType<typeof detailView>[]> {
  const out: ReturnType<typeof detailView>[] = [];
  for (let row = 0; row < idx.size; row++) out.push(detailView(idx, row, await idx.read(row)));
  return out;
}

test("the detail's per-turn c and A_t mismatches are the turns the report counts", async () => {
  const idx = await indexRecords(HAND_LOG);
  const all = await details(idx);
  for (const d of all) {
    const r = idx.row(d.row);
    assert.equal(d.turns.filter((t) => t.cMismatch).length, idx.columns.cMismatches[d.row], `c, row ${d.row}`);
    assert.equal(d.turns.filter((t) => t.aTMismatch).length, idx.columns.aTMismatches[d.row], `A_t, row ${d.row} (line ${r.line})`);
  }
  const { report } = computeReport(idx);
  assert.equal(all.flatMap((d) => d.turns).filter((t) => t.cMismatch).length, report.cMismatches);
  assert.equal(all.flatMap((d) => d.turns).filter((t) => t.aTMismatch).length, report.aTMismatches);
  assert.ok(report.cMismatches > 0 && report.aTMismatches > 0, 'the fixture has both kinds');
});

/** A generated run with logged values tampered on some lines: c scaled, A_t shifted, c dropped. */
function tamperedDemo(): readonly Record<string, unknown>[] {
  const demo = writeDemo(join(tempDir(), 'demo'), { trajectories: 480, hubRepo: false });
  const lines = readFileSync(demo.creditLog, 'utf8').split('\n').filter(Boolean);
  return lines.map((line, i) => {
    const rec = JSON.parse(line) as { turns?: { c?: number | null; A_t?: number }[] };
    const turns = rec.turns ?? [];
    const t = turns[i % Math.max(1, turns.length)];
    if (t && i % 7 === 0 && typeof t.c === 'number') t.c = t.c * 1.5 + 0.01;
    if (t && i % 11 === 0 && typeof t.A_t === 'number') t.A_t += 1e-3;
    if (t && i % 13 === 0) t.c = null;
    if (t && i % 17 === 0 && typeof t.A_t === 'number') t.A_t += 1e-8;
    return rec;
  });
}

test('per-turn mismatches on a tampered generated run agree with the index, trajectory by trajectory', async () => {
  const idx = await indexRecords(tamperedDemo());
  let c = 0;
  let a = 0;
  for (const d of await details(idx)) {
    const dc = d.turns.filter((t) => t.cMismatch).length;
    const da = d.turns.filter((t) => t.aTMismatch).length;
    assert.equal(dc, idx.columns.cMismatches[d.row], `c, row ${d.row}`);
    assert.equal(da, idx.columns.aTMismatches[d.row], `A_t, row ${d.row}`);
    c += dc;
    a += da;
  }
  const { report } = computeReport(idx);
  assert.equal(c, report.cMismatches);
  assert.equal(a, report.aTMismatches);
  assert.ok(c > 10 && a > 10, `the tampering shows (${c} c, ${a} A_t)`);
});

test('the detail recomputes c with the same-action flags the report uses, and marks a credited turn without c', async () => {
  const idx = await indexRecords([
    labeledRecord({ iteration: 0, group: 0, rollout: 0, reward: 1, A: 0.5 }, [
      // no same flags logged: k=1 is the same action (d 0), k=2 differs (d 10) -> c = 5/20 = 0.25
      { action: 'click(x=1)', candidates: ['click(x=1)', 'click(x=1)', 'type(text="a")'], scores: [10, 0, 0], c: 0.25, A_t: 0.6 },
      // a credited turn whose c is logged as null
      { action: 'wait()', scores: [1, 0], same: [true, false], c: null, A_t: 0.5 },
    ]),
  ]);
  const d = detailView(idx, 0, await idx.read(0));
  const [first, second] = d.turns;
  assert.ok(first && second);
  assert.equal(first.cRecomputed, 0.25);
  assert.equal(first.cMismatch, false);
  assert.deepEqual(
    first.candidates.map((x) => x.same),
    [true, true, false],
  );
  assert.equal(first.aTMismatch, false);
  assert.ok(Math.abs((first.expectedAt ?? NaN) - 0.6) < 1e-12);
  assert.equal(second.cMismatch, true, 'the report counts it');
  assert.equal(second.aTMismatch, false);
  assert.equal(idx.columns.cMismatches[0], 1);
});
