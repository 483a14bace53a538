/**
 * Evaluations where checkpoints are (#24 item 3) in a real VS Code (code-server) driven by
 * Chromium, on the demo run, its baseline and the demo's Hub repo (served by the emulator):
 * the dashboard's Evaluation chart has the points `rlrb evals --json` gives (read from the
 * panel's keyboard readout), the overlaid baseline is a line of its own, Enter on a point
 * offers the checkpoint's download (a run read in place) or says why not (a local run), and
 * the Hub tree shows an iteration's eval success and its verdict against the baseline beside its
 * checkpoint. Both themes, 1600 and 820 px.
 * Screenshots: test-results/e2e/evalcharts-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { REPO, workbench } from './harness';
import { expectAccessible, hubRepoItem, menuItem } from './steps';
import { conclusionLabel } from '../../src/core/eval/verdictWords';
import type { Conclusion } from '../../src/core/eval/verdict';

let page: Page;
// the Hub tree states each checkpoint's verdict against the demo's plain GRPO run (relative to the workspace folder)
const wb = workbench({ name: 'evalcharts', demoArgs: [], settings: { 'rlRunBrowser.baseline': 'baseline' } }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();
const EVAL = 'Evaluation/eval success';

interface Evals {
  iterations: { iteration: number; tasks: number; samples: number; success: number }[];
}

/** The conclusion at `iteration` of `rlrb compare a b --json`'s evaluation. */
function checkpointConclusion(a: string, b: string, iteration: number): Conclusion {
  const r = spawnSync('node', ['dist/cli.js', 'compare', a, b, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const e = (JSON.parse(r.stdout) as { evaluation: { perIteration: { iteration: number; conclusion: Conclusion }[] } }).evaluation;
  return e.perIteration.find((p) => p.iteration === iteration)!.conclusion;
}

function evals(run: string): Evals {
  const r = spawnSync('node', ['dist/cli.js', 'evals', run, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Evals;
}

/** Opens the dashboard of the run whose quick-pick row holds `text` (and not "baseline"). */
async function openMetrics(text: string): Promise<Locator> {
  await wb.commandPick('RL Runs: Open Metrics', { has: text, not: 'baseline' });
  const card = webview().locator(`.chart-card[data-metric="${EVAL}"]`);
  await card.locator('canvas').waitFor({ timeout: 60_000 });
  await card.scrollIntoViewIfNeeded();
  await webview().locator(`.chart-card[data-metric="${EVAL}"][data-drawn]`).waitFor({ timeout: 30_000 });
  return card;
}

/** Every point's readout, walked with Home and → from the chart's canvas. */
async function readouts(card: Locator, n: number): Promise<string[]> {
  await card.locator('canvas').focus();
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press(i === 0 ? 'Home' : 'ArrowRight');
    await card.locator('.readout', { hasText: /iteration \d+:/ }).waitFor({ timeout: 5_000 });
    out.push((await card.locator('.readout').textContent()) ?? '');
  }
  return out;
}

wb.journey(
  "E1. the dashboard's Evaluation chart has rlrb evals' points; Enter on a point of a local run says it has no Hub origin",
  async () => {
    const want = evals(wb.run).iterations;
    assert.ok(want.length >= 2, 'the demo evaluates several checkpoints');
    const card = await openMetrics(wb.run);
    const read = await readouts(card, want.length);
    assert.deepEqual(
      read.map((r) => r.replace(/ \(.*$/, '')),
      want.map((w) => `eval success, iteration ${w.iteration}: ${w.success.toFixed(4)} on ${w.tasks} tasks`),
    );
    assert.match(read[0]!, /95% CI \d\.\d{3} to \d\.\d{3}\)\. Enter offers to download its checkpoint\.$/);
    // no point past the last: → stays on it
    await page.keyboard.press('ArrowRight');
    assert.equal((await card.locator('.readout').textContent()) ?? '', read.at(-1));
    const last = want.at(-1)!;
    assert.match(
      (await card.locator('.summary').textContent()) ?? '',
      new RegExp(`^last ${last.success.toFixed(4)} at iteration ${last.iteration} on ${last.tasks} tasks · ${want.length} checkpoints`),
    );
    const heading = (await webview().locator('section[aria-label="Evaluation"] h2').textContent()) ?? '';
    assert.match(heading, /^Evaluation \(docs\/format\.md section 8/);
    await page.keyboard.press('Enter');
    const toast = page.locator('.notifications-toasts', {
      hasText: new RegExp(`is a local run with no Hub origin: there is no checkpoint to download for iteration ${last.iteration}`),
    });
    await toast.waitFor({ timeout: 20_000 });
    // not only a toast: it opens that checkpoint's eval episodes
    await toast.locator('.monaco-button', { hasText: `Open the eval episodes of iteration ${last.iteration}` }).waitFor();
    await wb.shot('dashboard-eval');
    await expectAccessible(webview(), 'the dashboard with its Evaluation chart');
    await wb.theme('Light Modern');
    await card.locator('canvas').waitFor();
    await card.scrollIntoViewIfNeeded();
    await wb.shot('dashboard-eval-light');
    await expectAccessible(webview(), 'the dashboard with its Evaluation chart (light)');
    await wb.theme('Dark Modern');
  },
);

wb.journey(
  'E2. the overlaid baseline is a line of its own on the Evaluation chart, its last checkpoint as rlrb evals gives it',
  async () => {
    const card = await openMetrics(wb.run);
    await webview().locator('#add-run').click();
    const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ timeout: 30_000 });
    await rows.filter({ hasText: 'baseline' }).first().click();
    await webview().locator('#run-legend .run-entry').nth(1).waitFor({ timeout: 30_000 });
    await webview().locator(`.chart-card[data-metric="${EVAL}"][data-lines="2"]`).waitFor({ timeout: 30_000 });
    const run = evals(wb.run).iterations.at(-1)!;
    const base = evals(join(wb.run, 'baseline')).iterations.at(-1)!;
    const summary = (await card.locator('.summary').textContent()) ?? '';
    assert.match(summary, new RegExp(`run ${run.success.toFixed(4)} @ ${run.iteration}`), summary);
    assert.match(summary, new RegExp(`baseline ${base.success.toFixed(4)} @ ${base.iteration}`), summary);
    await card.scrollIntoViewIfNeeded();
    await wb.shot('dashboard-eval-overlay');
    await wb.theme('Light Modern');
    await card.scrollIntoViewIfNeeded();
    await wb.shot('dashboard-eval-overlay-light');
    await wb.theme('Dark Modern');
  },
);

wb.journey(
  "E3. the Hub tree shows an iteration's eval success beside its checkpoint, as rlrb evals gives it for the repo's log",
  async () => {
    const icon = page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
    await icon.waitFor({ timeout: 30_000 });
    if (!(await page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).isVisible())) await icon.click();
    await page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).waitFor({ timeout: 30_000 });
    const at39 = evals(join(wb.run, '.hub-repo')).iterations.find((i) => i.iteration === 39)!;
    const repo = hubRepoItem(page).first();
    if ((await repo.getAttribute('aria-expanded')) !== 'true') await repo.click();
    const resume = page.getByRole('treeitem', { name: /^resume/ });
    await resume.waitFor();
    if ((await resume.getAttribute('aria-expanded')) !== 'true') await resume.click();
    const row = page.locator('.monaco-list-row', { hasText: 'iter_0000039 ★' });
    await row.waitFor({ timeout: 30_000 });
    // its section 9 state first (the demo's iteration 39 is whole), its eval success, then its verdict against the baseline
    const verdict = conclusionLabel(checkpointConclusion(join(wb.run, '.hub-repo'), join(wb.run, 'baseline'), 39));
    const label = new RegExp(
      `iter_0000039 ★\\s*complete · eval ${at39.success.toFixed(3).replace('.', '\\.')} on ${at39.tasks} tasks · verdict: ${verdict} · `,
    );
    await page.locator('.monaco-list-row', { hasText: label }).waitFor({ timeout: 30_000 });
    await wb.shot('hub-tree-eval');
    // the tooltip holds the sentence; the light shots come after a change of width, which repaints the window
    const full = page.viewportSize() ?? { width: 1600, height: 1000 };
    const narrow = { width: 820, height: full.height };
    const tip = page.locator('.monaco-hover', { hasText: 'Verdict against the baseline (A = this repo, B = baseline)' });
    const hovered = async (): Promise<void> => {
      await page.mouse.move(0, 0);
      await row.hover();
      await tip.waitFor({ timeout: 15_000 });
    };
    try {
      await page.setViewportSize(narrow);
      await hovered();
      await wb.shot('hub-tree-eval-820');
      await wb.theme('Light Modern');
      await page.setViewportSize(full);
      await row.waitFor();
      await wb.shot('hub-tree-eval-light');
      await page.setViewportSize(narrow);
      await hovered();
      await wb.shot('hub-tree-eval-820-light');
    } finally {
      await wb.theme('Dark Modern');
      await page.setViewportSize(full);
    }
  },
);

wb.journey(
  "E4. on a run read in place, Enter on a point of the Evaluation chart offers that iteration's checkpoint from the Hub",
  async () => {
    const repo = hubRepoItem(page).first();
    await repo.waitFor({ timeout: 30_000 });
    await repo.click({ button: 'right' });
    await menuItem(page, 'Open Logs in Place');
    await page.locator('.monaco-list-row', { hasText: /on the Hub · 10800 trajectories · 45 iterations/ }).waitFor({ timeout: 60_000 });
    const want = evals(join(wb.run, '.hub-repo')).iterations;
    const card = await openMetrics(`hub:${REPO}`);
    const i39 = want.findIndex((i) => i.iteration === 39);
    assert.ok(i39 >= 0, 'iteration 39 evaluated');
    const read = await readouts(card, i39 + 1);
    assert.match(read[i39]!, new RegExp(`^eval success, iteration 39: ${want[i39]!.success.toFixed(4)} on `));
    await page.keyboard.press('Enter');
    const toast = page.locator('.notifications-toasts', {
      hasText: `Download the checkpoint of iteration 39 (iter_0000039) from ${REPO}?`,
    });
    await toast.waitFor({ timeout: 20_000 });
    await toast.locator('.monaco-button', { hasText: 'Download resume/iter_0000039' }).waitFor();
    await toast.locator('.monaco-button', { hasText: 'Download hf/iter_0000039' }).waitFor();
    await wb.shot('dashboard-eval-offer');
    await toast.locator('.monaco-button', { hasText: 'Download resume/iter_0000039' }).click();
    // the download service asks where (the first resume download of this repo), as from the tree
    // waited on by its placeholder: the widget is reused, and hidden for a moment while one prompt replaces another
    await page
      .locator('.quick-input-widget input[placeholder="Folder for the checkpoints"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'default' }).first().click();
    await page.locator('.notifications-toasts', { hasText: /Downloaded and verified/ }).waitFor({ timeout: 60_000 });
  },
);
