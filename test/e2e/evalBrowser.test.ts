/**
 * Eval episodes in the trajectory browser (#24 item 1, docs/format.md sections 7 and 8), in a
 * real VS Code (code-server) driven by Chromium, on the demo run and its baseline: the tree's
 * Evaluations node opens a checkpoint's episodes (as many as `rlrb evals --json` counts there),
 * an episode's detail says it has no candidates, the source is a chip that clears back to the
 * training rollouts; the verdict's per-task table opens a task's episodes in both runs' browsers,
 * side by side. Both themes. Screenshots: test-results/e2e/evalBrowser-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { FrameLocator, Page } from 'playwright-core';
import { workbench } from './harness';
import { expectAccessible, rowMenu } from './steps';

let page: Page;
const wb = workbench({ name: 'evalBrowser', demoArgs: [] }, (w) => {
  page = w.page;
});

interface EvalIteration {
  iteration: number;
  tasks: number;
  samples: number;
}

function evals(run: string): EvalIteration[] {
  const r = spawnSync('node', ['dist/cli.js', 'evals', run, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { iterations: EvalIteration[] }).iterations;
}

/**
 * A row is opened by a click on its first cell: the middle of a row of this narrow table can be its
 * tags cell, where a click filters by that tag instead.
 */
const AT_ITS_START = { position: { x: 12, y: 8 } };

/** The RL Runs view in the side bar (a click on its icon when the bar shows it already would hide it). */
async function showRunsView(): Promise<void> {
  const icon = page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="RL Runs"]') });
  if ((await icon.getAttribute('class'))?.includes('checked')) return;
  await icon.locator('a').click();
}

/** The document of the i-th visible webview (two browsers side by side). */
const visibleWebview = (i: number): FrameLocator =>
  page.locator('iframe.webview.ready:visible').nth(i).contentFrame().frameLocator('#active-frame');

wb.journey("E1. the tree's Evaluations node opens a checkpoint's episodes; one opened says it has no candidates", async () => {
  const runRow = page.locator('.monaco-list-row', { hasText: /^run\s*(\d+ data problems? · )?\d+ trajectories/ });
  await showRunsView();
  await runRow.waitFor({ timeout: 60_000 });
  const checkpoint = evals(wb.run).find((e) => e.iteration === 39);
  assert.ok(checkpoint, 'the demo evaluates iteration 39');
  const evalsRow = page.locator('.monaco-list-row', { hasText: /^Evaluations$/ }).first();
  if (!(await evalsRow.isVisible())) await runRow.click();
  await evalsRow.waitFor({ timeout: 30_000 });
  await evalsRow.click();
  const node = page.locator('.monaco-list-row', { hasText: 'iter 39' }).first();
  await node.waitFor({ timeout: 30_000 });
  assert.match(
    (await node.textContent()) ?? '',
    new RegExp(`iter 39\\s*0\\.\\d{3} on ${checkpoint.tasks} tasks · ${checkpoint.samples.toLocaleString('en-US')} episodes`),
  );
  await node.click();
  // a row drawn again under the pointer (its run's figures changed) can lose a click: a user clicks again
  const tab = page.locator('.tab', { hasText: /^Trajectories: run/ });
  if (
    !(await tab.waitFor({ timeout: 15_000 }).then(
      () => true,
      () => false,
    ))
  )
    await node.click();
  const wv = wb.webview();
  const count = wv.locator('#row-count');
  await count
    .filter({ hasText: 'evaluation episodes' })
    .waitFor({ timeout: 60_000 })
    .catch(async (e: unknown) => {
      throw new Error(`the browser shows no evaluation episodes: ${await pairState()}`, { cause: e });
    });
  // N in the panel = the CLI's count at that checkpoint
  assert.equal(await count.textContent(), `${checkpoint.samples} of ${checkpoint.samples} evaluation episodes`);
  assert.equal(await wv.locator('#chips [data-chip="eval"]').textContent(), 'Evaluation episodes · iteration 39');
  assert.deepEqual(await wv.locator('.thead [role="columnheader"]').allTextContents(), [
    'iter',
    'task',
    'sample',
    'reward',
    'turns',
    'tags',
  ]);
  // sorted by reward, highest first (the column header): the first row succeeded
  await wv.locator('.thead [data-key="reward"]').click();
  await wv.locator('.thead [data-key="reward"]').click();
  await wv.locator('#chips [data-chip="sort-reward"]').waitFor();
  const first = wv.locator('.trow[data-index="0"]');
  await first.waitFor({ timeout: 30_000 });
  await first.click(AT_ITS_START);
  const note = wv.locator('#no-candidates');
  await note.waitFor({ timeout: 30_000 });
  assert.match((await note.textContent()) ?? '', /no candidates, so no credit c and no A_t/);
  assert.match((await wv.locator('#detail-title').textContent()) ?? '', /^evaluation · iteration 39 · sample \d+/);
  assert.match((await wv.locator('#reward').textContent()) ?? '', /^\+?1/);
  // no candidates grid, no c or A_t line: the note says it instead
  assert.equal(await wv.locator('#detail .cands, #detail [data-field="At"]').count(), 0);
  // the filters of training rollouts are not offered on eval episodes; reward and search are
  for (const id of ['f-iterationMin', 'f-iterationMax', 'f-group', 'f-labeled', 'f-flip', 'f-fallback'])
    assert.equal(await wv.locator(`#${id}`).isVisible(), false, `#${id} hidden on eval episodes`);
  assert.ok(await wv.locator('#f-reward').isVisible());
  await wb.shot('eval-episodes');
  await expectAccessible(wv, 'browser on eval episodes (dark)');
  await wb.theme('Light Modern');
  await wb.shot('eval-episodes-light');
  await expectAccessible(wv, 'browser on eval episodes (light)');
  await wb.theme('Dark Modern');
  // a tag filters the episodes (one click on the legend): every row shown has it
  await wv.locator('#tags-legend [data-tag-filter="noDone"]').click();
  await wv.locator('#chips [data-chip="tag-noDone"]').waitFor();
  await wv
    .locator('#row-count')
    .filter({ hasNotText: `${checkpoint.samples} of` })
    .waitFor({ timeout: 30_000 });
  const shown = await wv.locator('.trow').count();
  assert.ok(shown > 0, 'the demo has episodes that stop without done');
  assert.equal(await wv.locator('.trow [data-tag-filter="noDone"]').count(), shown);
  // an episode's detail is walked turn by turn as a trajectory's (↓ from the first turn)
  await wv.locator('.trow[data-index="0"]').click(AT_ITS_START);
  await wv.locator('#detail .turn[data-turn="1"]').waitFor({ timeout: 30_000 });
  await wv.locator('#detail').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await wv.locator('#detail .turn.focus').getAttribute('data-turn'), '1');
  // clearing the source chip goes back to the training rollouts
  await wv.locator('#chips [data-chip="eval"] button').click();
  await count.filter({ hasText: 'trajectories' }).waitFor({ timeout: 30_000 });
  assert.equal(await wv.locator('#chips [data-chip="eval"]').count(), 0);
  assert.ok((await wv.locator('.thead [role="columnheader"]').allTextContents()).includes('mean c'));
  assert.ok(await wv.locator('#f-labeled').isVisible(), 'the training filters are back');
});

/** What each visible webview shows (for a failure's message): its title, its row count, or that its page is empty. */
async function pairState(): Promise<string> {
  const frames = page.locator('iframe.webview.ready:visible');
  const n = await frames.count();
  const tabs = await page.locator('.tab .label-name').allTextContents();
  const each: string[] = [];
  for (let i = 0; i < n; i++) {
    const doc = visibleWebview(i);
    const count = await doc
      .locator('#row-count')
      .textContent({ timeout: 1_000 })
      .catch(() => null);
    const h1 = await doc
      .locator('h1, #app')
      .first()
      .textContent({ timeout: 1_000 })
      .catch(() => null);
    each.push(`#${i}: ${count ?? `no row count (${h1 === null ? 'an empty page' : h1.slice(0, 80)})`}`);
  }
  return `${n} visible webview(s); tabs ${tabs.join(' | ')}; ${each.join('; ')}`;
}

wb.journey("E2. the verdict's per-task table: a task opens its episodes at that checkpoint in both runs, side by side", async () => {
  const runRow = page.locator('.monaco-list-row', { hasText: /^run\s*(\d+ data problems? · )?\d+ trajectories/ });
  await showRunsView();
  const baseRow = page.locator('.monaco-list-row', { hasText: /^baseline\s*(\d+ data problems? · )?\d+ trajectories/ });
  await runRow.waitFor({ timeout: 60_000 });
  await baseRow.waitFor({ timeout: 60_000 });
  await rowMenu(page, [runRow, baseRow], 'Compare Selected Runs');
  const cmp = wb.webview();
  const row = cmp.locator('#verdict-tasks tr[data-task]').first();
  await row.waitFor({ timeout: 60_000 });
  const at = Number(await cmp.locator('#verdict-checkpoint').inputValue());
  const task = (await row.getAttribute('data-task'))!;
  const cells = await row.locator('td').allTextContents();
  const [episodesA, episodesB] = [Number(cells[4]), Number(cells[5])];
  assert.ok(episodesA > 0 && episodesB > 0, `task ${task} evaluated by both runs at ${at}`);
  await row.click();
  await page.locator('iframe.webview.ready:visible').nth(1).waitFor({ timeout: 60_000 });
  const seen: Record<string, string> = {};
  for (const i of [0, 1]) {
    const wv = visibleWebview(i);
    await wv
      .locator('#row-count')
      .filter({ hasText: 'evaluation episodes' })
      .waitFor({ timeout: 60_000 })
      .catch(async (e: unknown) => {
        throw new Error(`browser ${i} of the pair shows no evaluation episodes: ${await pairState()}`, { cause: e });
      });
    assert.equal(await wv.locator('#chips [data-chip="eval"]').textContent(), `Evaluation episodes · iteration ${at}`);
    assert.equal(await wv.locator('#chips [data-chip="eval-task"]').textContent(), `task ${task}`);
    const label = (await wv.locator('#jump-label').textContent()) ?? '';
    const which = /^run ([AB]) of the comparison/.exec(label)?.[1];
    assert.ok(which, label);
    seen[which] = (await wv.locator('#row-count').textContent()) ?? '';
    // every row is that task at that checkpoint
    const tasks = await wv.locator('.trow .task-cell').allTextContents();
    assert.ok(tasks.length > 0 && tasks.every((t) => t === task), tasks.join(','));
  }
  assert.deepEqual(seen, {
    A: `${episodesA} of ${episodesA} evaluation episodes`,
    B: `${episodesB} of ${episodesB} evaluation episodes`,
  });
  await visibleWebview(0).locator('.trow[data-index="0"]').click(AT_ITS_START);
  await visibleWebview(0).locator('#no-candidates').waitFor({ timeout: 30_000 });
  await wb.shot('verdict-task-both-runs');
  await wb.theme('Light Modern');
  await wb.shot('verdict-task-both-runs-light');
  await wb.theme('Dark Modern');
});
