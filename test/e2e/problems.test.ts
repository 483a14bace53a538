/**
 * Data problems and downloads in the real workbench: a run whose logs hold a line that is
 * not JSON and a NaN metric shows them in the Problems panel (opening the log at the
 * line), on its tree row and in a banner in its panels; a checkpoint downloads with one
 * click to the remembered folder, and the Hub tree marks what the local latest file names.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workbench } from './harness';
import { hubRepoItem } from './steps';

let badLine = 0;

const wb = workbench({
  name: 'problems',
  prepare: (run) => {
    const credit = join(run, 'logs', 'ws_credit_log.jsonl');
    badLine = readFileSync(credit, 'utf8').split('\n').length; // the line after the last
    appendFileSync(credit, '{"iteration": 3, "group": oops\n');
    // two metrics with a NaN (the demo run itself is clean)
    appendFileSync(join(run, 'logs', 'ws_metrics.jsonl'), '{"iteration": 45, "ws/truncation_rate": NaN, "train/grad_norm": NaN}\n');
  },
});

const openView = async (): Promise<void> => {
  const icon = wb.page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
  await icon.waitFor({ timeout: 30_000 });
  if ((await hubRepoItem(wb.page).count()) === 0) await icon.click();
};

wb.journey('P1. the run row shows its data problems, and the Problems panel entry opens the log at that line', async () => {
  const page = wb.page;
  await openView();
  // the three added here, once both logs are read
  const runRow = page.locator('.monaco-list-row', { hasText: /3 data problems · 10800 trajectories/ });
  await runRow.waitFor({ timeout: 60_000 });
  await wb.shot('tree-badge');
  await page.keyboard.press('Control+Shift+M');
  const entry = page.locator('.markers-panel .monaco-list-row', { hasText: `line ${badLine} skipped` });
  await entry.waitFor({ timeout: 30_000 });
  await page.locator('.markers-panel .monaco-list-row', { hasText: 'ws/truncation_rate is NaN, infinite or null on 1 of' }).waitFor();
  await wb.shot('problems-panel');
  await entry.click();
  // a 22 MB log: the workbench asks before it shows a file that large
  const anyway = page.locator('.monaco-button', { hasText: 'Open Anyway' });
  await anyway.waitFor({ timeout: 10_000 }).then(
    () => anyway.click(),
    () => undefined,
  );
  await page.locator('.editor-group-container .tab.active', { hasText: 'ws_credit_log.jsonl' }).waitFor({ timeout: 20_000 });
  // the editor places the cursor once it has the 22 MB model: on a loaded machine that took over 20 s
  await page.locator('.statusbar-item', { hasText: new RegExp(`Ln ${badLine}, Col`) }).waitFor({ timeout: 60_000 });
  await wb.shot('log-at-line');
});

wb.journey('P2. each panel of the run has the banner; its link opens the Problems panel', async () => {
  const page = wb.page;
  await page.keyboard.press('Control+Shift+M'); // hide the panel the journey before showed
  await wb.command('RL Runs: Open Metrics');
  const banner = wb.webview().locator('#rlrb-data-problems');
  await banner.waitFor({ timeout: 60_000 });
  assert.equal(
    (await banner.locator('span').textContent())?.trim(),
    "This run's logs have 3 data problems: 1 skipped line, 2 metrics with NaN or infinite values.",
  );
  await wb.shot('metrics-banner');
  await page
    .locator('.markers-panel')
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
  await banner.getByRole('button', { name: 'Show in Problems panel' }).click();
  await page.locator('.markers-panel .monaco-list-row', { hasText: `line ${badLine} skipped` }).waitFor({ timeout: 20_000 });
  // the Problems view takes focus from the webview a moment after it shows; a palette
  // opened before that would be closed by the move
  await page.waitForFunction("document.activeElement !== null && document.activeElement.closest('.markers-panel') !== null", undefined, {
    timeout: 10_000,
  });
  await wb.command('RL Runs: Open Run Report');
  await wb.webview().locator('#rlrb-data-problems').waitFor({ timeout: 60_000 });
  await wb.shot('report-banner');
});

wb.journey('P3. one click downloads to the remembered folder; the Hub tree marks the iteration the local latest file names', async () => {
  const page = wb.page;
  await openView();
  await hubRepoItem(page).click();
  await page.getByRole('treeitem', { name: /^resume/ }).click();
  const row39 = page.locator('.monaco-list-row', { hasText: 'iter_0000039 ★' });
  await row39.hover();
  await row39.locator('.action-label[aria-label^="Download Checkpoint for Resume"]').click();
  // the first time only: where the launcher resumes from
  await page.locator('.quick-input-list .monaco-list-row').first().click();
  await page.locator('.notifications-toasts', { hasText: /Downloaded and verified .*iteration 39/ }).waitFor({ timeout: 90_000 });
  const dest = join(wb.downloads, 'XunmeiLiu__openwebrl-ws-credit-beta0.4', 'ckpt');
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '39');
  await page.locator('.monaco-list-row', { hasText: /iter_0000039 ★\s*latest here, downloaded/ }).waitFor({ timeout: 20_000 });
  await wb.shot('latest-here');
  // the first download's toasts dismissed: with its progress toast still closing, the second download's
  // "Downloaded and verified" toast was once not shown within 90 s (CI, 2026-12-06; the file was in place)
  await wb.command('Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden', timeout: 10_000 });

  // an older checkpoint to evaluate: no question, the latest file left as it was
  await wb.faults({ trickleBytesPerSecond: 60_000 });
  const row29 = page.locator('.monaco-list-row', { hasText: 'iter_0000029' }).first();
  await row29.click({ button: 'right' });
  // a click on a context-menu item does not reach the workbench here: the keyboard does
  const item = page.locator('.context-view .action-label', { hasText: 'Download Checkpoint Without Changing Latest' });
  await item.hover();
  await page.keyboard.press('Enter');
  const progress = page.locator('.notifications-toasts', { hasText: /Downloading .*iteration 29 \(latest file left as it was\)/ });
  await progress.waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('.quick-input-widget:visible').count(), 0, 'no destination asked the second time');
  assert.equal(await page.locator('.monaco-dialog-box:visible').count(), 0, 'no latest question');
  await progress.getByText('Change destination…').first().waitFor({ timeout: 5_000 });
  await wb.shot('one-click-progress');
  await page.locator('.notifications-toasts', { hasText: /Downloaded and verified .*iteration 29/ }).waitFor({ timeout: 90_000 });
  await wb.faults({});
  assert.ok(existsSync(join(dest, 'iter_0000029')));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '39', 'latest still names 39');
  await page.locator('.monaco-list-row', { hasText: /iter_0000029.*downloaded/ }).waitFor({ timeout: 20_000 });
  assert.doesNotMatch((await page.locator('.monaco-list-row', { hasText: 'iter_0000029' }).first().textContent()) ?? '', /latest here/);
  await wb.shot('older-downloaded');
});
