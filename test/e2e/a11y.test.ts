/**
 * Every panel of the extension under axe-core, in the dark and in the light theme, each at 1600
 * and 820 px (no serious or critical violation), and the comparison and the trajectory browser at
 * 820 and 600 px: no sideways page scroll, every column header whole. Each panel is opened once,
 * and the theme switched while it is open.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { workbench } from './harness';
import { expectAccessible } from './steps';

let page: Page;
const wb = workbench({ name: 'a11y', demoArgs: [] }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();

/** A palette command that acts on a run: with two runs in the folder it asks which; the ws-credit run ("run"). */
async function runCommand(title: string): Promise<void> {
  await wb.commandPick(title, { has: /^run\b/, type: 'run' });
}

/** The trajectory browser on one rollout of the task view's first group of run A (a click on its link, as in task.test.ts). */
async function openTrajectoryFromTask(): Promise<void> {
  await openTaskView();
  const link = webview().locator('[data-open^="0/"]').first();
  const [, it, g, r] = ((await link.getAttribute('data-open')) ?? '').split('/');
  await link.click();
  await webview()
    .locator('#detail-title', { hasText: `iteration ${it} · group ${g} · rollout ${r}` })
    .waitFor({ timeout: 60_000 });
  await webview().locator('.trow').first().waitFor({ timeout: 30_000 });
}

async function openComparison(close = true): Promise<void> {
  if (close) await wb.knownState('close');
  // each run by its root (run A, the baseline, is left out of the second pick)
  await wb.commandPick('RL Runs: Compare Two Runs…', join(wb.run, 'baseline'), wb.run);
  await webview().locator('#figures tr[data-key="success"]').waitFor({ timeout: 60_000 });
}

/** owrl-0273 is a task of both demo runs (iteration 39 group 0, ...). */
async function openTaskView(): Promise<void> {
  // a panel redrawing can close a fresh quick input (it takes focus back): none open while the picks run
  await wb.knownState('close');
  await wb.commandPick(
    'RL Runs: Open Task…',
    { check: [{ has: /^run\b/ }, { has: /^baseline\b/ }], wait: 30_000 },
    { has: 'owrl-0273', type: 'owrl-0273', wait: 60_000 },
  );
  await webview().locator('.grow[data-run="1"]').first().waitFor({ timeout: 60_000 });
}

/** At 1600 px the group view shows its five rollouts whole, beside the turn index, without scrolling sideways. */
async function groupFits(): Promise<void> {
  const grid = webview().locator('#siblings');
  const box = (await grid.boundingBox())!;
  const heads = await grid.locator('.cell.head').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right };
    }),
  );
  assert.equal(heads.length, 5, 'the demo group has five rollouts');
  const inner = await grid.evaluate((e) => ({ left: e.getBoundingClientRect().left, scroll: e.scrollWidth - e.clientWidth }));
  assert.equal(inner.scroll, 0, 'the group view does not scroll sideways');
  for (const hd of heads)
    assert.ok(hd.right <= inner.left + box.width + 1, `a rollout ends inside the view (${hd.right} > ${inner.left + box.width})`);
}

/** The same rollout key is in both runs: each checkbox's label names its run. */
async function checkboxesNameTheirRun(): Promise<void> {
  const names = await webview().locator('.task-run h2').allTextContents();
  for (const run of [0, 1]) {
    const label = (await webview().locator(`input[data-key^="${run}/"]`).first().getAttribute('aria-label')) ?? '';
    const name = names[run]!.split(' ')[0]!;
    assert.match(label, new RegExp(`^select rollout \\d+ of iteration \\d+, group \\d+ of ${name}$`));
  }
}

/** The widths each panel is checked at: a wide window, and a narrow one (a side-by-side editor). */
const WIDTHS = [1600, 820] as const;

/** The theme the workbench wears now: each panel is checked in both, switched while the panel is open. */
let theme: 'dark' | 'light' = 'dark';

async function switchTheme(): Promise<void> {
  theme = theme === 'dark' ? 'light' : 'dark';
  await wb.theme(theme === 'dark' ? 'Dark Modern' : 'Light Modern');
}

/**
 * The panel in view at each width, then in the other theme at each width back: a screenshot and
 * axe-core each time. Resizing the window and switching the theme while the panel is open checks
 * the narrow layout and the other colours without opening every panel again (and that the panel
 * follows a theme changed under it).
 */
async function audit(shot: string, what: string, ready: string): Promise<void> {
  const height = page.viewportSize()?.height ?? 1000;
  for (const widths of [WIDTHS, [...WIDTHS].reverse()]) {
    for (const width of widths) {
      await page.setViewportSize({ width, height });
      await webview().locator(ready).first().waitFor({ timeout: 30_000 });
      await wb.shot(`${theme}-${width}-${shot}`);
      await expectAccessible(webview(), `${what} (${theme}, ${width} px)`);
    }
    if (widths === WIDTHS) await switchTheme();
  }
}

/** Each panel opened once and checked by axe-core in both themes at each width; a screenshot of each. */
async function auditEveryPanel(): Promise<void> {
  await runCommand('RL Runs: Open Metrics');
  await webview().locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
  await audit('dashboard', 'dashboard', '.chart-card canvas');

  await runCommand('RL Runs: Open Run Report');
  // the report draws its figures first and the sections under them a frame later
  await webview().locator('#schema-table').waitFor({ timeout: 60_000 });
  await audit('report', 'run report', '#schema-table');

  await openTaskView();
  await audit('task', 'task view', '.grow[data-run="1"]');
  await checkboxesNameTheirRun();
  await webview().locator('input[data-key^="0/"]').first().check();
  await webview().locator('input[data-key^="1/"]').first().check();
  await webview().locator('#side-by-side').click();
  await webview().locator('.sbs-row').first().waitFor({ timeout: 60_000 });
  await audit('side-by-side', 'side by side', '.sbs-row');

  await openTrajectoryFromTask();
  await audit('browser', 'trajectory browser and detail', '.trow');
  await webview().locator('#toggle-group').click();
  await webview().locator('#siblings').waitFor({ timeout: 30_000 });
  await groupFits();
  await audit('group', 'group view', '#siblings');
  await webview().locator('#toggle-group').click();

  await openComparison();
  await audit('compare', 'comparison', '#figures');
}

wb.journey(
  'A1. every panel in the dark and in the light theme (switched while it is open), at 1600 and 820 px: no serious or critical axe-core violation',
  async () => {
    try {
      await auditEveryPanel();
    } finally {
      if (theme === 'light') await switchTheme();
    }
  },
);

/** Sideways page scroll (px) and the headers whose text does not fit their cell, in the panel's document. */
async function overflow(frame: FrameLocator): Promise<{ page: number; cut: string[] }> {
  // a string: the tests compile without the DOM's types
  return frame.locator('body').evaluate<{ page: number; cut: string[] }, undefined>(`(() => {
    const se = document.scrollingElement;
    const cut = [...document.querySelectorAll('th, .thead > *, .task-head > *')]
      .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent.trim());
    return { page: se.scrollWidth - se.clientWidth, cut };
  })()`);
}

wb.journey('A2. at 820 and 600 px the comparison and the browser scroll inside their tables only, every header whole', async () => {
  const full = page.viewportSize() ?? { width: 1600, height: 1000 };
  try {
    await openTrajectoryFromTask();
    await openComparison(false);
    for (const width of [820, 600]) {
      await page.setViewportSize({ width, height: full.height });
      for (const [tab, ready, what] of [
        [/Trajectories/, '.trow', 'browser'],
        [/Compare/, '#figures', 'comparison'],
      ] as const) {
        await page.locator('.editor-group-container .tab', { hasText: tab }).first().click();
        await webview().locator(ready).first().waitFor();
        await wb.shot(`${what}-${width}`);
        assert.deepEqual(await overflow(webview()), { page: 0, cut: [] }, `the ${what} at ${width} px`);
      }
    }
  } finally {
    await page.setViewportSize(full);
  }
});
