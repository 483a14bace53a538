/**
 * The runs table in a real VS Code, over the demo's runs (the run and its plain GRPO baseline) and
 * the followed Hub repo (not read): the rows equal `rlrb runs --json`, a header sorts, the filter
 * filters and shows itself, a baseline gives the verdict column, a tag cell opens the browser on
 * that tag, two ticked rows open the comparison. Screenshots at 1600 and 820 px, dark and light:
 * test-results/e2e/runsTable-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { until, workbench } from './harness';

let page: Page;
const wb = workbench({ name: 'runsTable', demoArgs: [] }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();

interface RunsJson {
  runs: { root: string; iterations: number; trajectories: number; verdict: { final: { conclusion: string } | null } | null }[];
}

function runsJson(): RunsJson {
  const r = spawnSync('node', ['dist/cli.js', 'runs', wb.run, join(wb.run, 'baseline'), '--baseline', join(wb.run, 'baseline'), '--json'], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as RunsJson;
}

const rowOf = (root: string): Locator => webview().locator(`#runs-table tbody tr[data-root="${root}"]`);
const value = async (root: string, col: string): Promise<number> =>
  Number(await rowOf(root).locator(`[data-col="${col}"] [data-value]`).getAttribute('data-value'));

async function shots(name: string): Promise<void> {
  const full = page.viewportSize() ?? { width: 1600, height: 1000 };
  await page.setViewportSize({ width: 1600, height: full.height });
  await wb.shot(`${name}-1600`);
  await page.setViewportSize({ width: 820, height: full.height });
  await webview().locator('#runs-table').waitFor();
  // the columns the box hides at this width: said above it, as the other tables say it
  await webview().locator('#runs-table-cue', { hasText: 'more columns: scroll sideways →' }).waitFor();
  await wb.shot(`${name}-820`);
  await page.setViewportSize(full);
}

wb.journey('R1. the table of the demo runs: sorted, filtered, a baseline, a tag cell opens the browser, two rows compared', async () => {
  const run = wb.run;
  const base = join(wb.run, 'baseline');
  await wb.command('RL Runs: Open Runs Table');
  const wv = webview();
  // both runs computed (the first open reads their logs), the followed repo offered to be read
  await until(
    async () => (await wv.locator('#runs-table [data-col="iterations"] [data-value]').count()) === 2,
    'two computed rows',
    90_000,
  );
  await wv.locator('[data-read]').waitFor();
  const json = runsJson();
  for (const r of json.runs) {
    assert.equal(await value(r.root, 'iterations'), r.iterations, `${r.root} iterations`);
    assert.equal(await value(r.root, 'trajectories'), r.trajectories, `${r.root} trajectories`);
  }
  // sort by trajectories, largest first, then smallest first
  await wv.locator('[data-sort="trajectories"]').click();
  await wv.locator('[data-chip="sort"]', { hasText: 'sorted by trajs, descending' }).waitFor();
  const order = async (): Promise<number[]> =>
    (
      await wv
        .locator('#runs-table tbody [data-col="trajectories"] [data-value]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-value')))
    ).map(Number);
  const desc = await order();
  assert.deepEqual(
    desc,
    [...desc].sort((a, b) => b - a),
  );
  await wv.locator('[data-sort="trajectories"]').click();
  await wv.locator('th[aria-sort="ascending"] [data-sort="trajectories"]').waitFor();
  const asc = await order();
  assert.deepEqual(
    asc,
    [...asc].sort((a, b) => a - b),
  );
  // the filter keeps the rows it names and shows itself as a chip
  await wv.locator('#runs-filter input').fill('baseline');
  await wv.locator('[data-chip="filter"]', { hasText: 'filter: baseline' }).waitFor();
  await wv.locator('#runs-status', { hasText: '3 runs, 1 shown' }).waitFor();
  assert.equal(await rowOf(run).count(), 0);
  await wv.locator('[data-chip="filter"] button').click();
  await wv.locator('#runs-status', { hasText: '3 runs, 3 shown' }).waitFor();
  // the baseline picked: the run's verdict is the one rlrb runs --baseline gives
  await wv.locator('#baseline').click();
  await wv.locator('#baseline [role="option"]', { hasText: /^\s*baseline\s*$/ }).click();
  const conclusion = json.runs.find((r) => r.root === run)!.verdict!.final!.conclusion;
  await rowOf(run).locator('[data-col="verdict"]', { hasText: conclusion }).waitFor({ timeout: 30_000 });
  await rowOf(base).locator('[data-col="verdict"]', { hasText: 'baseline' }).waitFor();
  // the select shows the baseline the verdicts are against (its table redrawn since)
  await until(
    async () => (await wv.locator('#baseline').evaluate((e) => (e as unknown as { value: string }).value)) === base,
    'the baseline select shows the picked baseline',
    10_000,
  );
  assert.equal(((await wv.locator('#baseline .select-face .text').textContent()) ?? '').trim(), 'baseline');
  await shots('dark');
  await wb.theme('Light Modern');
  await shots('light');
  await wb.theme('Dark Modern');
  // a tag's cell opens the browser filtered on that tag
  await rowOf(run).locator('[data-col="tag:falseDone"] button').click();
  await webview()
    .locator('[data-chip]', { hasText: /false done/i })
    .first()
    .waitFor({ timeout: 30_000 });
  // two ticked rows: Compare opens the comparison of the first against the second
  await wb.command('RL Runs: Open Runs Table');
  await webview().locator('#runs-table').waitFor({ timeout: 60_000 });
  await rowOf(run).locator('vscode-checkbox').click();
  await rowOf(base).locator('vscode-checkbox').click();
  await webview().locator('#compare:not([disabled])').click();
  await webview().locator('#figures tr[data-key="success"]').waitFor({ timeout: 60_000 });
  // the run ticked first is A, the picked baseline B
  await page.locator('.tab', { hasText: 'Compare: run ↔ baseline' }).waitFor();
  await wb.shot('compared');
});
