/**
 * End-to-end journeys of the metrics dashboard and the run report in a real VS Code
 * (code-server) driven by Chromium (the harness: harness.ts), of a run followed while it grows
 * (the demo's growing run, src/core/demo/growingRun.ts), and the Hub tree's checkpoint states
 * (docs/format.md section 9) on the demo's repo with its latest checkpoint cut short.
 * Screenshots go to test-results/e2e/dash-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, FrameLocator } from 'playwright-core';
import { REPO, settled, until, workbench } from './harness';
import { hubRepoItem, menuItem } from './steps';
import { demoStage, growingRun } from '../../src/core/demo/growingRun';
import type { GrowingRun } from '../../src/core/demo/growingRun';
import type { CheckReport } from '../../src/core/integrity/types';

/** The shard of the latest checkpoint whose upload never arrived (the demo's latest is whole until then). */
const LOST_SHARD = '__5_1.distcp';

let page: Page;
const wb = workbench(
  {
    name: 'dash',
    prepare: (run) => {
      // gaps for the charts' notes: a metric with no value at all, and one that is NaN on 12 of 45 rows
      const mpath = join(run, 'logs', 'ws_metrics.jsonl');
      const lines = readFileSync(mpath, 'utf8')
        .split('\n')
        .filter((l) => l.trim());
      const out = lines.map((l, k) => {
        // the demo writes Python's NaN already: edit the text, never JSON.parse it
        const t = l.replace(/^\{/, '{"ws/broken_metric_with_a_rather_long_name_that_must_wrap":null,');
        return k % 4 === 0 ? t.replace(/("ws\/truncation_rate":)[^,}]+/, '$1NaN') : t;
      });
      writeFileSync(mpath, out.join('\n') + '\n');
      // the Hub repo as an upload cut after latest_checkpointed_iteration.txt was written leaves it
      rmSync(join(run, '.hub-repo', 'resume', 'iter_0000039', LOST_SHARD));
    },
    // the least the setting takes: a checkpoint that comes without new log lines is found this soon
    settings: { 'rlRunBrowser.followIntervalSeconds': 15 },
  },
  (w) => {
    page = w.page;
  },
);
const shot = (name: string): Promise<void> => wb.shot(name);
/** The document of the visible webview panel. */
const webview = (): FrameLocator => wb.webview();
const command = (title: string): Promise<void> => wb.command(title);

wb.journey(
  'D1. the dashboard opens on the card targets: badges, the last value against the target, whole names, the x axis ending at the last iteration',
  async () => {
    await command('RL Runs: Open Metrics');
    const wv = webview();
    const targets = wv.locator('#card-targets');
    await targets.locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
    const first = await wv.locator('section.section').first().getAttribute('aria-label');
    assert.equal(first, 'Card targets');
    const names = await targets.locator('.chart-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
    for (const m of ['ws/sign_flip_rate', 'ws/fallback_rate', 'ws/executed_is_argmax', 'ws/tau_running', 'ws/c_mean', 'ws/gate_mean_diff'])
      assert.ok(names.includes(m), `${m} in the card targets (${names.join(', ')})`);
    const badges = await targets.locator('.target-badge').allTextContents();
    assert.equal(badges.length, names.length);
    assert.ok(
      badges.every((b) => /pass|near|fail|no data/.test(b)),
      badges.join(' '),
    );
    const summary = (await targets.locator('.chart-card[data-metric="ws/c_mean"] .summary').textContent()) ?? '';
    assert.match(summary, /last [+-]?\d\.\d{4} at iteration 44 · target \|mean c\| < 0\.03/);
    // no title is cut: each is as wide as its text
    const cut = await wv.locator('.chart-card .title').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
    assert.equal(cut, 0, 'titles cut');
    const xMax = await targets.locator('.chart-card[data-metric="ws/c_mean"]').getAttribute('data-x-max');
    assert.equal(xMax, '44');
    assert.match((await wv.locator('#chart-hint').textContent()) ?? '', /Click a point/);
    await shot('dashboard-dark');
  },
);

wb.continued('D2. an empty chart and a chart with gaps say so inside the chart', async () => {
  const wv = webview();
  await wv.locator('#metric-search:defined').waitFor({ timeout: 20_000 });
  await wv.locator('#metric-search').click();
  await page.keyboard.type('broken_metric');
  const empty = wv.locator('.chart-card[data-metric^="ws/broken_metric"] .gap-note');
  await empty.waitFor({ timeout: 20_000 });
  assert.match((await empty.textContent()) ?? '', /no values/);
  await wv.locator('#metric-search').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('truncation');
  const gaps = wv.locator('.chart-card[data-metric="ws/truncation_rate"] .gap-note');
  await gaps.waitFor({ timeout: 20_000 });
  assert.match((await gaps.textContent()) ?? '', /^12 of 45 values are missing or not finite/);
  // the note sits above the plot, never over its top tick label, however narrow the card
  const plot = wv.locator('.chart-card[data-metric="ws/truncation_rate"] canvas');
  const [note, box] = await Promise.all([gaps.boundingBox(), plot.boundingBox()]);
  assert.ok(
    note && box && note.y + note.height <= box.y + 1,
    `the gap note ${JSON.stringify(note)} ends above the plot ${JSON.stringify(box)}`,
  );
  await shot('dashboard-gaps');
  await wv.locator('#metric-search').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await wv.locator('#card-targets').waitFor();
});

wb.continued('D3. a chart point is reachable by keyboard: arrows move the highlighted point, Enter opens its trajectories', async () => {
  const wv = webview();
  const canvas = wv.locator('.chart-card[data-metric="ws/c_mean"] canvas');
  await canvas.focus();
  await page.keyboard.press('End');
  const readout = wv.locator('.chart-card[data-metric="ws/c_mean"] .readout');
  await readout.filter({ hasText: /iteration 44/ }).waitFor({ timeout: 10_000 });
  await page.keyboard.press('ArrowLeft');
  await readout.filter({ hasText: /iteration 43/ }).waitFor({ timeout: 10_000 });
  assert.equal(await readout.getAttribute('aria-live'), 'polite');
  await shot('dashboard-keyboard');
  await page.keyboard.press('Enter');
  await page
    .locator('.tab', { hasText: /Trajectories/ })
    .first()
    .waitFor({ timeout: 30_000 });
  await webview().getByText(/@ 43/).first().waitFor({ timeout: 30_000 });
  // the rows have the keyboard at once, as their hint says: ↓ moves the highlighted row, Enter opens it
  const rows = webview();
  await settled(page);
  const before = (await rows.locator('.trow.sel').count()) > 0 ? Number(await rows.locator('.trow.sel').getAttribute('data-index')) : -1;
  await page.keyboard.press('ArrowDown');
  await rows.locator(`.trow.sel[data-index="${before + 1}"]`).waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await rows.locator('#detail-title').waitFor({ timeout: 30_000 });
  await shot('keyboard-opened-trajectories');
});

/** A metrics or credit log's lines as records: the demo writes Python's NaN and Infinity, which JSON.parse refuses. */
function records(file: string): Record<string, unknown>[] {
  return readFileSync(join(wb.run, 'logs', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l.replace(/\b-?(NaN|Infinity)\b/g, 'null')) as Record<string, unknown>);
}

/**
 * The iteration nearest the end (not the last) whose ws/reward_mean in the metrics log stands
 * above (`up`) or below (`down`) the mean of its finite neighbours, as a user sees a spike.
 */
function rewardSpike(dir: 'up' | 'down'): number {
  const rows = records('ws_metrics.jsonl').map((r) => ({ it: r['iteration'] as number, y: r['ws/reward_mean'] }));
  const finite = rows.filter((r): r is { it: number; y: number } => typeof r.y === 'number' && Number.isFinite(r.y));
  for (let i = finite.length - 2; i > 0; i--) {
    const m = (finite[i - 1]!.y + finite[i + 1]!.y) / 2;
    if (dir === 'up' ? finite[i]!.y > m : finite[i]!.y < m) return finite[i]!.it;
  }
  throw new Error(`no spike ${dir} in ws/reward_mean`);
}

/**
 * From the reward chart by keyboard (End, then ← to `it`), Enter: the browser's jump label says
 * `said`, and its first rows carry the credit log's rewards of that iteration sorted as it says.
 */
async function openRewardPoint(it: number, said: 'succeeded first' | 'failed first'): Promise<void> {
  const card = webview().locator('.chart-card[data-metric="ws/reward_mean"]').first();
  // a click into the panel first, as a user's: the workbench's quick pick had the keyboard, and a page may not take it back itself
  await card.locator('.title').click();
  await card.locator('canvas').focus();
  await page.keyboard.press('End');
  const last = Math.max(...records('ws_metrics.jsonl').map((r) => r['iteration'] as number));
  for (let k = it; k < last; k++) await page.keyboard.press('ArrowLeft');
  await card
    .locator('.readout')
    .filter({ hasText: new RegExp(`iteration ${it}\\b`) })
    .waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: /Trajectories/ }).waitFor({ timeout: 30_000 });
  const rows = webview();
  await rows.locator('#jump-label', { hasText: `ws/reward_mean @ ${it}: ${said}` }).waitFor({ timeout: 30_000 });
  const rewards = records('ws_credit_log.jsonl')
    .filter((r) => r['iteration'] === it)
    .map((r) => r['reward'] as number)
    .sort((a, b) => (said === 'succeeded first' ? b - a : a - b));
  assert.equal(rewards[0], said === 'succeeded first' ? 1 : Math.min(...rewards), 'the iteration has a success to show first');
  // the rows drawn, by index, from row 0 on: their reward column
  const shown = async (): Promise<number[]> => {
    const cells = await rows
      .locator('.trow')
      .evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), e.children[3]?.textContent ?? ''] as const));
    const sorted = [...cells].sort((a, b) => a[0] - b[0]);
    return sorted.filter(([i], k) => i === k).map(([, r]) => Number(r));
  };
  const want = rewards.slice(0, 8);
  const same = async (): Promise<boolean> => JSON.stringify((await shown()).slice(0, want.length)) === JSON.stringify(want);
  await until(same, `the first rows of iteration ${it} ${said}`, 15_000).catch(async () => assert.deepEqual(await shown(), want));
  assert.ok((await rows.locator('.trow[data-index="0"]').getAttribute('data-key'))?.startsWith(`${it}/`), `row 0 is of iteration ${it}`);
}

wb.continued(
  'D4. the dashboard in the light theme; a spike up of the reward chart opens its successes first, a spike down its failures first',
  async () => {
    await page
      .locator('.tab', { hasText: /Metrics/ })
      .first()
      .click();
    await wb.theme('Light Modern');
    await webview().locator('#card-targets .chart-card[data-drawn]').first().waitFor({ timeout: 30_000 });
    await shot('dashboard-light');
    await openRewardPoint(rewardSpike('up'), 'succeeded first');
    await shot('spike-up-succeeded-first-light');
    await page
      .locator('.tab', { hasText: /Metrics/ })
      .first()
      .click();
    await wb.theme('Dark Modern');
    await openRewardPoint(rewardSpike('down'), 'failed first');
    await shot('spike-down-failed-first');
  },
);

wb.journey('D5. the report states the tolerance of each mark and the units of the schema counts', async () => {
  await command('RL Runs: Open Run Report');
  const wv = webview();
  await wv.locator('#schema-table').waitFor({ timeout: 60_000 });
  await shot('report');
  await page.mouse.wheel(0, 0);
  const tol = (await wv.locator('#report-table tr[data-key="cMismatches"]').textContent()) ?? '';
  assert.match(tol, /\|c − recomputed c\| > 1e-6/);
  const missing = await wv.locator('#schema-table td.num').allTextContents();
  assert.ok(
    missing.filter((t) => t).every((t) => /^[\d,]+ (records|turns)$/.test(t)),
    missing.join(' | '),
  );
});

wb.journey('D6. a log with more metrics than a dashboard charts says how many were left out, on one line under the toolbar', async () => {
  await command('RL Runs: Open Metrics');
  const wv = webview();
  await wv.locator('#card-targets .chart-card canvas').first().waitFor({ timeout: 60_000 });
  assert.equal(await wv.locator('#more-metrics').isHidden(), true, 'the demo is under the cap: no line');
  // one more iteration with 250 metrics of its own: 296 in all, 200 charted
  const extra = Array.from({ length: 250 }, (_, i) => `"zz/extra_${String(i).padStart(3, '0')}": ${i}`).join(', ');
  appendFileSync(join(wb.run, 'logs', 'ws_metrics.jsonl'), `{"iteration": 45, ${extra}}\n`);
  const line = wv.locator('#more-metrics');
  await line.waitFor({ state: 'visible', timeout: 60_000 });
  const text = (await line.textContent()) ?? '';
  const more = Number(
    /^(\d+) more metrics not charted: a dashboard charts at most 200 \(pinned ones and card targets first, then in order\)$/.exec(
      text,
    )?.[1],
  );
  assert.ok(more > 0, text);
  // the cap is on the log's metrics; the Behaviour and Evaluation groups (computed from the credit and eval logs) come on top
  assert.equal(await wv.locator('section:not([aria-label="Behaviour"]):not([aria-label="Evaluation"]) .chart-card').count(), 200);
  assert.ok((await wv.locator('#card-targets .chart-card').count()) >= 6, 'the card targets are still charted');
  await shot('more-metrics');
});

/** The status-bar item of the followed run `live` showing `text`. */
const liveItem = (text: string): ReturnType<Page['locator']> => page.locator('.statusbar-item', { hasText: text });
const toast = (text: string | RegExp): ReturnType<Page['locator']> =>
  page.locator('.notifications-toasts .notification-toast', { hasText: text });

/** How far the visible dashboard is scrolled (whichever of its elements scrolls). */
const dashboardScroll = async (): Promise<number> =>
  Number(
    await webview()
      .locator('body')
      .evaluate<number, undefined>(
        `Math.max(0, ...[document.scrollingElement, ...document.querySelectorAll('body, body *')].map((e) => e ? e.scrollTop : 0))`,
      ),
  );

let live: GrowingRun;

/** Runs `item` from the context menu of the run `live` in Local runs, which must not offer `not`. */
async function localRunsMenu(item: string, not: string): Promise<void> {
  // the tree in view (a click on the activity bar's icon when it is already open would close it)
  const tree = page.locator('.pane-header', { hasText: 'Local runs' });
  if (!(await tree.isVisible())) await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').click();
  const row = page.locator('.monaco-list-row', { hasText: /^live/ });
  await row.waitFor({ timeout: 60_000 });
  await row.click({ button: 'right' });
  const labels = page.locator('.monaco-menu .action-label');
  await labels.filter({ hasText: item }).waitFor({ timeout: 10_000 });
  const offered = await labels.allTextContents();
  assert.ok(!offered.includes(not), `the menu offers ${not}: ${offered.join(', ')}`);
  await menuItem(page, item);
}

wb.journey(
  'D7. a followed run that grows: the status bar shows its latest iteration, then the warning colour on an alert; notifications with Open; the dashboard grows in place',
  async () => {
    // the demo's first 30 iterations shown up to 22 (iteration 24 is the first whose sign flips the checks catch)
    live = growingRun(join(wb.run, 'live'), 30);
    live.show(demoStage(23, 30));
    await command('RL Runs: Refresh');
    // its row in Local runs offers Follow, not Stop Following
    await localRunsMenu('Follow Run While It Trains', 'Stop Following Run');
    await liveItem('live it 22').waitFor({ timeout: 60_000 });
    await wb.commandPick('RL Runs: Open Metrics', { type: 'live', has: '/run/live' });
    const wv = webview();
    const cMean = wv.locator('#card-targets .chart-card[data-metric="ws/c_mean"]');
    await cMean.locator('canvas').waitFor({ timeout: 60_000 });
    assert.equal(await cMean.getAttribute('data-x-max'), '22');
    // a point picked by keyboard, and the page scrolled down: both must survive the growth
    await cMean.locator('canvas').focus();
    await page.keyboard.press('End');
    const readout = cMean.locator('.readout');
    await readout.filter({ hasText: /iteration 22/ }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('ArrowLeft');
    await readout.filter({ hasText: /iteration 21/ }).waitFor({ timeout: 10_000 });
    await wv.locator('#chart-hint').hover();
    await page.mouse.wheel(0, 300);
    await until(async () => (await dashboardScroll()) > 0, 'the dashboard scrolled', 10_000);
    await settled(page);
    const scrolled = await dashboardScroll();

    live.show(demoStage(24, 30));
    await liveItem('live it 23').waitFor({ timeout: 30_000 });
    await cMean.locator('.summary', { hasText: 'at iteration 23' }).waitFor({ timeout: 30_000 });
    assert.equal(await dashboardScroll(), scrolled, 'the scroll is kept');
    assert.match((await readout.textContent()) ?? '', /iteration 21/);
    assert.equal(await liveItem('live it 23').evaluate((e) => e.classList.contains('warning-kind')), false);
    await shot('follow-grown-dark');

    // iteration 24: its sign flips (the logged rate says 0) and a resume checkpoint
    live.show(demoStage(25, 30));
    const item = liveItem('live it 24');
    await item.waitFor({ timeout: 30_000 });
    await until(() => item.evaluate((e) => e.classList.contains('warning-kind')), 'the warning colour', 10_000);
    const checkpoint = toast('checkpoint resume/iter_0000024 is complete');
    await checkpoint.waitFor({ timeout: 30_000 });
    assert.equal(await checkpoint.locator('.monaco-button', { hasText: 'Open' }).count(), 1, "the checkpoint's toast opens its iteration");
    const flips = toast(/ALERT iteration 24: sign flips/);
    await flips.waitFor({ timeout: 30_000 });
    await toast(/ALERT iteration 24: ws\/sign_flip_rate is 0 in the metrics log/).waitFor({ timeout: 30_000 });
    assert.equal(await dashboardScroll(), scrolled, 'the scroll is kept');
    await shot('follow-alert-dark');
    await flips.locator('.monaco-button', { hasText: 'Open' }).click();
    await page
      .locator('.tab', { hasText: /Trajectories/ })
      .first()
      .waitFor({ timeout: 30_000 });
    await webview().getByText('has sign flip').first().waitFor({ timeout: 30_000 });
    await webview().getByText('iteration 24', { exact: true }).first().waitFor({ timeout: 30_000 });
    await shot('follow-alert-opened');

    // the status-bar item lists the open alerts; the logged figure's goes to its chart
    await item.click();
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await rows.first().waitFor({ timeout: 10_000 });
    assert.equal(await rows.count(), 3, (await rows.allTextContents()).join(' | '));
    await shot('follow-alerts-pick');
    await rows.filter({ hasText: 'opens the chart of ws/sign_flip_rate' }).click();
    await page.locator('.tab.active', { hasText: /Metrics/ }).waitFor({ timeout: 30_000 });
    await webview().locator('.chart-card[data-metric="ws/sign_flip_rate"][data-focused]').first().waitFor({ timeout: 30_000 });
  },
);

wb.continued('D8. the followed run in the light theme: an alert while it grows; its row offers Stop Following, not Follow', async () => {
  await wb.theme('Light Modern');
  live.show(demoStage(28, 30));
  const item = liveItem('live it 27');
  await item.waitFor({ timeout: 30_000 });
  await until(() => item.evaluate((e) => e.classList.contains('warning-kind')), 'the warning colour', 10_000);
  await toast(/ALERT iteration 27: sign flips/).waitFor({ timeout: 30_000 });
  await webview()
    .locator('#card-targets .chart-card[data-metric="ws/c_mean"] .summary', { hasText: 'at iteration 27' })
    .waitFor({ timeout: 30_000 });
  await shot('follow-alert-light');
  await localRunsMenu('Stop Following Run', 'Follow Run While It Trains');
  await item.waitFor({ state: 'detached', timeout: 10_000 });
  await wb.theme('Dark Modern');
});

/** `rlrb check --json` on a folder: section 9 as the CLI computes it, for what the tree must show. */
function checkJson(folder: string): { code: number | null; report: CheckReport } {
  const r = spawnSync('node', ['dist/cli.js', 'check', folder, '--json'], { encoding: 'utf8' });
  return { code: r.status, report: JSON.parse(r.stdout) as CheckReport };
}

/** Drags the side bar's edge until it is `width` px wide; returns the width it had. */
async function sidebarWidth(width: number): Promise<number> {
  const box = (await page.locator('.part.sidebar').boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  // page-side code as a string: the tests compile without the DOM's types
  await page.waitForFunction(
    `Math.abs((document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) - ${width}) <= 2`,
    undefined,
    { timeout: 10_000 },
  );
  return Math.round(box.width);
}

const HOVER = '.workbench-hover:visible, .monaco-hover:visible';

/** The mouse away from the side bar, and any hover gone. */
async function mouseAway(): Promise<void> {
  await page.mouse.move(1200, 900);
  await page.locator(HOVER).first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The tree's hover of a row, holding `has`: waited on, its text returned. */
async function hoverText(row: ReturnType<Page['locator']>, has: RegExp): Promise<string> {
  await mouseAway();
  await row.hover();
  const hover = page.locator(HOVER, { hasText: has }).first();
  await hover.waitFor({ timeout: 15_000 });
  return (await hover.textContent()) ?? '';
}

wb.journey(
  'D9. the Hub tree shows each checkpoint complete, incomplete with what is missing, cannot tell with why; latest incomplete warns and its click downloads the last complete one',
  async () => {
    const want = checkJson(join(wb.run, '.hub-repo'));
    assert.equal(want.code, 1, 'latest names an incomplete checkpoint');
    assert.deepEqual(want.report.latest, { names: 39, namesComplete: false, lastComplete: 29 });
    const state = (d: string): boolean | null => want.report.resume[d]!.complete;
    assert.deepEqual(
      [state('iter_0000009'), state('iter_0000019'), state('iter_0000029'), state('iter_0000039')],
      [false, null, true, false],
    );
    const icon = page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
    await icon.waitFor({ timeout: 30_000 });
    if (!(await page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).isVisible())) await icon.click();
    await page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).waitFor({ timeout: 30_000 });
    const repo = hubRepoItem(page).first();
    if ((await repo.getAttribute('aria-expanded')) !== 'true') await repo.click();
    // the repo's warning names the last complete checkpoint
    const warning = page.locator('.monaco-list-row', {
      hasText: /latest 39 incomplete, 29 complete\s*click to download 29/,
    });
    await warning.waitFor({ timeout: 60_000 });
    const resume = page.getByRole('treeitem', { name: /^resume/ });
    if ((await resume.getAttribute('aria-expanded')) !== 'true') await resume.click();
    const row = (label: string | RegExp): ReturnType<Page['locator']> => page.locator('.monaco-list-row', { hasText: label }).first();
    // each state as the CLI computes it: what is missing (and short), why it cannot tell
    const r39 = want.report.resume['iter_0000039']!;
    assert.deepEqual(r39.missing, [LOST_SHARD]);
    await row(new RegExp(`iter_0000039 ★\\s*missing ${LOST_SHARD.replace('.', '\\.')} · `)).waitFor({ timeout: 30_000 });
    const r9 = want.report.resume['iter_0000009']!;
    await row(
      new RegExp(`iter_0000009\\s*missing ${r9.missing![0]!.replace('.', '\\.')}; short ${r9.short![0]!.replace('.', '\\.')} · `),
    ).waitFor();
    await row(/iter_0000029\s*complete · /).waitFor();
    const why = want.report.resume['iter_0000019']!.reason!;
    assert.match(why, /^\.metadata refers to lab_ckpt\.planner\.ShardLayout, /);
    await row(/iter_0000019\s*cannot tell: \.metadata refers to lab_ckpt\.planner\.ShardLayout · /).waitFor();
    // the hf iterations: parameter count and dtype, from the shards' headers
    const hf = page.getByRole('treeitem', { name: /^hf/ });
    if ((await hf.getAttribute('aria-expanded')) !== 'true') await hf.click();
    await row(/iter_0000044\s*7\.2K params BF16 · /).waitFor({ timeout: 30_000 });
    // the rows in full for the screenshots, as a user widens the side bar to read them (put back after)
    const narrow = await sidebarWidth(620);
    await mouseAway();
    await wb.shot('integrity-tree');
    // the tooltip lists the checkpoint's shards with their sizes, the lost one marked
    const tip = await hoverText(row('iter_0000039 ★'), /resume\/iter_0000039/);
    assert.match(tip, /__0_0\.distcp\s+\d+(\.\d+)? KB/);
    assert.match(tip, new RegExp(`${LOST_SHARD.replace('.', '\\.')}\\s+missing`));
    await wb.shot('integrity-tooltip');
    // the warning's tooltip says why and what its click does
    const warned = await hoverText(warning, /latest_checkpointed_iteration\.txt names 39/);
    assert.match(warned, /The launcher would resume from it\. The last complete one is 29\./);
    assert.match(warned, /Click to download iteration 29\./);
    await wb.shot('integrity-warning');
    await mouseAway();
    await wb.theme('Light Modern');
    await wb.shot('integrity-tree-light');
    await hoverText(warning, /latest_checkpointed_iteration\.txt names 39/);
    await wb.shot('integrity-warning-light');
    await mouseAway();
    await wb.theme('Dark Modern');
    await sidebarWidth(narrow);
    // the warning's click downloads iteration 29 (asking where, the repo's first resume download)
    await warning.click();
    await page
      .locator('.quick-input-widget input[placeholder="Folder for the checkpoints"]')
      .waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'default' }).first().click();
    await page.locator('.notifications-toasts', { hasText: /Downloaded and verified/ }).waitFor({ timeout: 60_000 });
    await row(/iter_0000029\s*latest here, downloaded · complete · /).waitFor({ timeout: 20_000 });
    const dest = join(wb.downloads, REPO.replace('/', '__'), 'ckpt');
    const got = checkJson(dest);
    assert.equal(got.code, 0, 'the downloaded folder checks complete, and its latest file names it');
    assert.deepEqual(got.report.latest, { names: 29, namesComplete: true, lastComplete: 29 });
  },
);
