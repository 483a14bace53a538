import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { gateGroupPage, reportView } from '../../src/extension/report/reportViews';
import { GATE_GROUP_PAGE, MAX_GATE_GROUPS, parseReportMessage } from '../../src/shared/protocol/report';
import type { GateGroupView } from '../../src/shared/protocol/report';

test("the report's first message holds one page of the gate groups; the pages after it are the rest, in order, up to the listed end", async () => {
  const dir = tempDir();
  writeDemo(dir);
  const run = (await Run.open(dir))!;
  await run.update();
  const full = run.report()!;
  const index = run.credit!;
  const v = reportView('demo', full, index.schemaCheck(), index);
  const count = full.gateGroups.length;
  assert.ok(count > 3 * GATE_GROUP_PAGE, `the demo has ${count} gate groups, several pages`);
  assert.equal(v.gateGroupCount, count);
  assert.equal(v.gateGroupsListed, Math.min(count, MAX_GATE_GROUPS));
  assert.equal(v.gateGroups.length, GATE_GROUP_PAGE, 'one page, not every group');
  // the page asks from where its rows end, as the table scrolls
  const rows: GateGroupView[] = [...v.gateGroups];
  for (let page = gateGroupPage(full, index, rows.length, GATE_GROUP_PAGE); page.length > 0;) {
    rows.push(...page);
    page = gateGroupPage(full, index, rows.length, GATE_GROUP_PAGE);
  }
  assert.equal(rows.length, v.gateGroupsListed);
  assert.deepEqual(
    rows.map((g) => [g.iteration, g.group, g.diff]),
    full.gateGroups.slice(0, MAX_GATE_GROUPS).map((g) => [g.iteration, g.group, g.diff]),
  );
  // each side's mean c is the mean over its trajectories of their mean c, from the index's columns
  const g = full.gateGroups[150]!;
  const c = index.columns;
  const meanC = (r: number): number => c.sumC[r]! / c.cCount[r]!;
  const succ = g.rows.filter((r) => c.reward[r]! > 0).map(meanC);
  assert.equal(rows[150]!.succeeded, succ.length);
  assert.ok(Math.abs(rows[150]!.succeededMeanC - succ.reduce((a, b) => a + b, 0) / succ.length) < 1e-12);
  assert.deepEqual(gateGroupPage(full, index, MAX_GATE_GROUPS + 5, GATE_GROUP_PAGE), [], 'past the end: none');
});

test("the page's ask for more gate groups is checked on arrival", () => {
  const q = { type: 'report/queryGateGroups', seq: 2, offset: 100, limit: GATE_GROUP_PAGE };
  assert.deepEqual(parseReportMessage(q), q);
  for (const bad of [
    { ...q, limit: GATE_GROUP_PAGE + 1 },
    { ...q, limit: 0 },
    { ...q, offset: -1 },
    { ...q, offset: 1.5 },
    { ...q, seq: '2' },
    { type: 'report/queryGateGroups', offset: 0, limit: 10 },
  ])
    assert.equal(parseReportMessage(bad), undefined, JSON.stringify(bad));
});
