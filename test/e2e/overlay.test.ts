/**
 * End-to-end journeys of runs overlaid on the metrics dashboard (the harness: harness.ts),
 * on the demo's two runs: the ws-credit run and its plain GRPO baseline (`<run>/baseline`).
 * Screenshots go to test-results/e2e/overlay-*.png.
 */
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { workbench } from './harness';
import { savedForReload } from './steps';

/** The page's getComputedStyle (the tests compile without the DOM's types). */
type Styled = { getComputedStyle(e: unknown): Record<string, string> };

let page: Page;
const wb = workbench({ name: 'overlay', demoArgs: [] }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();
const shot = (name: string): Promise<void> => wb.shot(name);

/** A row of the open quick pick: the demo run ("run", its path has no "baseline") or the baseline. */
async function pickRow(baseline: boolean): Promise<void> {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  await (baseline ? rows.filter({ hasText: 'baseline' }) : rows.filter({ hasNotText: 'baseline' })).first().click();
}

wb.journey(
  'O1. the baseline overlaid on the dashboard: a legend of both runs, one colour each, shared metrics on one chart, the others "only in"',
  async () => {
    await wb.commandPick('RL Runs: Open Metrics', { not: 'baseline' });
    const wv = webview();
    await wv.locator('#card-targets .chart-card[data-drawn]').first().waitFor({ timeout: 60_000 });
    assert.equal(await wv.locator('#run-legend .run-entry').count(), 0, 'no legend with one run');
    await shot('one-run');
    await wv.locator('#add-run').click();
    await pickRow(true);
    const entries = wv.locator('#run-legend .run-entry');
    await entries.nth(1).waitFor({ timeout: 30_000 });
    const names = await wv.locator('#run-legend .run-name').allTextContents();
    assert.deepEqual(names, ['run', 'baseline']);
    const colours = await wv
      .locator('#run-legend .swatch')
      .evaluateAll((els) => els.map((e) => (globalThis as unknown as Styled).getComputedStyle(e)['backgroundColor']));
    assert.equal(new Set(colours).size, 2, `one colour per run: ${colours.join(', ')}`);
    // a ws/ metric exists in the ws-credit run only; train/loss in both; the card's reward under the plain run's own name
    const only = wv.locator('.chart-card[data-metric="ws/c_mean"] .only-in');
    assert.equal(await only.textContent(), 'only in run');
    assert.equal(await wv.locator('.chart-card[data-metric="train/loss"] .only-in').count(), 0);
    assert.match(
      (await wv.locator('.chart-card[data-metric="ws/reward_mean"] .overlay-note').textContent()) ?? '',
      /baseline: rollout\/reward_mean/,
    );
    assert.match((await wv.locator('#run-legend .run-entry').first().textContent()) ?? '', /metrics only here/);
    const loss = wv.locator('.chart-card[data-metric="train/loss"]');
    await loss.scrollIntoViewIfNeeded();
    await wv.locator('.chart-card[data-metric="train/loss"][data-lines="2"]').waitFor({ timeout: 30_000 });
    await shot('overlaid');
  },
);

wb.continued(
  'O2. a run toggled off stays in the legend, struck through, and its lines leave the charts; toggled on, they come back',
  async () => {
    const wv = webview();
    const toggle = wv.locator('#run-legend .run-toggle').nth(1);
    await toggle.click();
    const entry = wv.locator('#run-legend .run-entry').nth(1);
    await wv.locator('#run-legend .run-entry.off').waitFor({ timeout: 10_000 });
    assert.equal(await wv.locator('#run-legend .run-toggle').nth(1).getAttribute('aria-pressed'), 'false');
    assert.equal(await entry.locator('.run-name').textContent(), 'baseline');
    assert.equal(
      await entry.locator('.run-name').evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e)['textDecorationLine']),
      'line-through',
    );
    await wv.locator('.chart-card[data-metric="train/loss"][data-lines="1"]').waitFor({ timeout: 10_000 });
    await shot('baseline-off');
    await wv.locator('#run-legend .run-toggle').nth(1).click();
    await wv.locator('.chart-card[data-metric="train/loss"][data-lines="2"]').waitFor({ timeout: 10_000 });
    assert.equal(await wv.locator('#run-legend .run-entry.off').count(), 0);
  },
);

wb.continued("O3. a click where both runs have a point asks which run, and opens that run's trajectories at that iteration", async () => {
  const wv = webview();
  const canvas = wv.locator('.chart-card[data-metric="train/loss"] canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  assert.ok(box, 'the train/loss chart is on screen');
  await canvas.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
  const menu = wv.locator('#run-menu');
  await menu.waitFor({ timeout: 10_000 });
  const items = await menu.locator('.run-menu-item').allTextContents();
  assert.equal(items.length, 2, items.join(' | '));
  assert.match(items[0]!, /^run · iteration \d+/);
  assert.match(items[1]!, /^baseline · iteration \d+/);
  const iteration = /iteration (\d+)/.exec(items[1]!)![1]!;
  await shot('which-run');
  await menu.locator('.run-menu-item', { hasText: /^baseline/ }).click();
  await page.locator('.tabs-container .tab', { hasText: 'Trajectories: baseline' }).waitFor({ timeout: 30_000 });
  await webview()
    .getByText(new RegExp(`train/loss @ ${iteration}`))
    .first()
    .waitFor({ timeout: 30_000 });
  await shot('baseline-trajectories');
});

wb.continued('O4. after a window reload the dashboard comes back with the baseline overlaid, in its colour', async () => {
  await page.locator('.tabs-container .tab', { hasText: 'Metrics: run' }).click();
  await savedForReload(page, 'rlRunBrowser.metrics', '"color":1}]');
  // the workbench's own reload (what a user runs), not the browser's: it shuts the window down in
  // order, its editors flushed, where a page reload races the unload against the storage writes
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  await wb.command('Developer: Reload Window');
  await reloaded;
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const tab = page.locator('.tabs-container .tab', { hasText: 'Metrics: run' });
  await tab.waitFor({ timeout: 60_000 });
  await tab.click();
  const names = webview().locator('#run-legend .run-name');
  await names.nth(1).waitFor({ timeout: 60_000 });
  assert.deepEqual(await names.allTextContents(), ['run', 'baseline']);
  await shot('restored');
  // removing the baseline leaves the one-run dashboard
  await webview().locator('#run-legend .run-remove').click();
  await webview().locator('#run-legend .run-entry').first().waitFor({ state: 'detached', timeout: 30_000 });
  assert.equal(await webview().locator('.chart-card .only-in').count(), 0);
});
