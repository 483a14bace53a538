/**
 * The task view and two trajectories side by side, on the demo run and its plain GRPO
 * baseline (`rlrb demo` writes both, on the same task pool): the task chosen from the
 * palette over both runs, its groups checked against the index, one trajectory opened
 * from it, two rollouts (one per run) side by side with the first divergent turn marked.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { TaskColumn } from '../../src/core/compare/taskColumn';
import { taskHistory, taskRowsOf } from '../../src/core/compare/taskHistory';
import type { TaskHistory } from '../../src/core/compare/taskHistory';
import { firstDivergentTurn } from '../../src/core/compare/align';
import { visibleText } from '../../src/shared/visibleText';
import { workbench } from './harness';

/** owrl-0273 sits at iteration 39 group 0, 26/7, 13/14 and 0/21 of both runs (task = (7 i + 13 g) mod 997) */
const TASK = 'owrl-0273';

let page: Page;
let runA = '';
let runB = '';
const wb = workbench({ name: 'task', demoArgs: [] }, (w) => {
  page = w.page;
  runA = w.run;
  runB = join(w.run, 'baseline');
});
const webview = (): FrameLocator => wb.webview();

async function indexOf(root: string): Promise<{ idx: CreditIndex; history: TaskHistory }> {
  const idx = new CreditIndex(join(root, 'logs', 'ws_credit_log.jsonl'));
  await idx.update();
  const col = new TaskColumn(idx);
  await col.update();
  const history = taskHistory(taskRowsOf(col), TASK);
  col.dispose();
  return { idx, history };
}

/** The task view's index of the ws-credit run (the workspace folder, "run") and of the baseline, as the page lists them. */
async function order(): Promise<{ a: number; b: number }> {
  const names = await webview().locator('.task-run h2').allTextContents();
  const a = names.findIndex((n) => n.startsWith('run '));
  const b = names.findIndex((n) => n.startsWith('baseline '));
  assert.ok(a >= 0 && b >= 0 && a !== b, `both runs listed: ${names.join(' | ')}`);
  return { a, b };
}

/** The groups one run's section lists, as "iteration/group: rollout reward, ...". */
async function listed(run: number): Promise<string[]> {
  const rows = webview().locator(`.grow[data-run="${run}"]`);
  const out: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const r = rows.nth(i);
    const chips = await r.locator('.rollout-chip').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-rollout')}`));
    out.push(`${await r.getAttribute('data-iteration')}/${await r.getAttribute('data-group')}: ${chips.join(',')}`);
  }
  return out;
}

/** Checks both runs in the multi-select quick pick (a click on a row toggles its checkbox): the ws-credit run first, so it is A. */
async function pickBothRuns(rows: ReturnType<Page['locator']>): Promise<void> {
  // the list is sorted by name (baseline first): the check order, not the list's, makes run A
  await rows
    .filter({ hasText: /^run\b/ })
    .first()
    .click();
  await rows
    .filter({ hasText: /^baseline\b/ })
    .first()
    .click();
}

/** The palette's way to the task view: both runs, then the task. */
async function openTaskView(shots = false): Promise<void> {
  await wb.command('RL Runs: Open Task…');
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.nth(1).waitFor({ timeout: 30_000 });
  assert.equal(await rows.count(), 2);
  await pickBothRuns(rows);
  if (shots) await wb.shot('pick-runs');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: TASK }).first().waitFor({ timeout: 60_000 });
  await page.locator('.quick-input-widget input').fill(TASK);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: TASK }).first().waitFor({ timeout: 10_000 });
  if (shots) await wb.shot('pick-task');
  await page.keyboard.press('Enter');
  await webview().locator('#task-title', { hasText: TASK }).waitFor({ timeout: 60_000 });
  await webview().locator('.grow[data-run="1"]').first().waitFor({ timeout: 60_000 });
}

const expected = (idx: CreditIndex, h: TaskHistory): string[] =>
  h.groups.map((g) => `${g.iteration}/${g.group}: ${g.rows.map((r) => idx.row(r).rollout).join(',')}`);

wb.journey('T1. the task view of a task of both runs: its groups are the index’s, one trajectory opens from it', async () => {
  const a = await indexOf(runA);
  const b = await indexOf(runB);
  assert.ok(a.history.groups.length >= 2 && b.history.groups.length >= 2, 'the demo task repeats across iterations in both runs');
  await openTaskView(true);
  const wv = webview();
  const o = await order();
  // the run checked first is A: listed first, in the first colour (as in the comparison panel)
  assert.deepEqual(o, { a: 0, b: 1 });
  assert.deepEqual(await listed(o.a), expected(a.idx, a.history));
  assert.deepEqual(await listed(o.b), expected(b.idx, b.history));
  // the success column of the first group is the index's
  const g0 = a.history.groups[0]!;
  const successText = await wv.locator(`.grow[data-run="${o.a}"][data-iteration="${g0.iteration}"] [data-field="success"]`).textContent();
  assert.equal(successText, `${Math.round((g0.success ?? 0) * 100)}%`);
  // the task is keyed by its task_id: its instruction is shown under it, as logged (bidi controls made visible)
  const logged = (await a.idx.read(g0.rows[0]!)).instruction!;
  assert.equal(await wv.locator('#task-instruction').textContent(), visibleText(logged));
  await wv.locator('#success-chart').waitFor();
  // the x axis ends at the last iteration with data (39 on the demo), not at Chart.js's next round tick
  const its = [...a.history.perIteration, ...b.history.perIteration].filter((p) => p.success !== null).map((p) => p.iteration);
  assert.equal(
    await wv.locator('#success-chart').getAttribute('aria-label'),
    `success over iterations ${Math.min(...its)} to ${Math.max(...its)}, a line per run`,
  );
  await wb.shot('task-view');
  // one click to the trajectory browser
  const r0 = a.idx.row(g0.rows[1]!).rollout;
  await wv.locator(`[data-open="${o.a}/${g0.iteration}/${g0.group}/${r0}"]`).click();
  await webview()
    .locator('#detail-title', { hasText: `iteration ${g0.iteration} · group ${g0.group} · rollout ${r0}` })
    .waitFor({ timeout: 60_000 });
  await wb.shot('opened-trajectory');
});

wb.journey('T2. two rollouts checked in the task view open side by side, the first divergent turn highlighted and in view', async () => {
  const a = await indexOf(runA);
  const b = await indexOf(runB);
  await openTaskView();
  const wv = webview();
  // the same group of the task in both runs, rollout 0 of each
  const g = a.history.groups.find((x) => b.history.groups.some((y) => y.iteration === x.iteration && y.group === x.group))!;
  const left = a.idx.find(g.iteration, g.group, 0);
  const right = b.idx.find(g.iteration, g.group, 0);
  // the ws-credit run's first: it is the left side
  const o = await order();
  await wv.locator(`input[data-key="${o.a}/${g.iteration}/${g.group}/0"]`).check();
  await wv.locator(`input[data-key="${o.b}/${g.iteration}/${g.group}/0"]`).check();
  await wb.shot('two-checked');
  await wv.locator('#side-by-side').click();
  const tl = await a.idx.read(left);
  const tr = await b.idx.read(right);
  const at = firstDivergentTurn(tl.turns, tr.turns);
  const sbs = webview();
  await sbs.locator('.sbs-row').first().waitFor({ timeout: 60_000 });
  // each side in its run's colour: A's on the left
  assert.equal(await sbs.locator('.sbs-head[data-side="left"] .swatch').getAttribute('data-slot'), '0');
  assert.equal(await sbs.locator('.sbs-head[data-side="right"] .swatch').getAttribute('data-slot'), '1');
  assert.equal(await sbs.locator('.sbs-row').count(), Math.max(tl.turns.length, tr.turns.length));
  assert.equal(
    await sbs.locator('.sbs-head[data-side="right"] [data-field="no-candidates"]').count(),
    1,
    'the plain GRPO side says it has no candidates',
  );
  assert.equal(await sbs.locator('.sbs-head[data-side="left"] [data-field="no-candidates"]').count(), 0);
  if (at === null) {
    assert.equal(await sbs.locator('.sbs-row.diverge').count(), 0);
    assert.match((await sbs.locator('#divergence').textContent())!, /same at every turn/);
  } else {
    const row = sbs.locator('.sbs-row.diverge');
    assert.equal(await row.count(), 1);
    assert.equal(await row.getAttribute('data-turn'), String(at));
    assert.match((await sbs.locator('#divergence').textContent())!, new RegExp(`first differ at turn ${at}$`));
    const box = (await row.boundingBox())!;
    const vh = page.viewportSize()?.height ?? 800;
    assert.ok(box.y >= 0 && box.y < vh, `the divergent turn is scrolled into view (${box.y})`);
  }
  await wb.shot('side-by-side');
});

wb.journey('T3. the task view follows the logs: a new iteration of the task appended to the run appears in its section', async () => {
  await openTaskView();
  const wv = webview();
  const o = await order();
  assert.equal(await wv.locator(`.grow[data-run="${o.a}"][data-iteration="45"]`).count(), 0);
  const line = (rollout: number, reward: number): string =>
    JSON.stringify({
      iteration: 45,
      group: 3,
      rollout,
      task_id: TASK,
      instruction: 'appended',
      reward,
      A: reward - 0.5,
      turns: [{ action: 'wait()' }],
    });
  appendFileSync(join(runA, 'logs', 'ws_credit_log.jsonl'), `${line(0, 1)}\n${line(1, 0)}\n`);
  const added = wv.locator(`.grow[data-run="${o.a}"][data-iteration="45"][data-group="3"]`);
  await added.waitFor({ timeout: 30_000 });
  assert.equal(await added.locator('[data-field="success"]').textContent(), '50%');
  assert.equal(await added.locator('.rollout-chip').count(), 2);
  await wb.shot('live-append');
});
