/**
 * The Hub repo's logs opened in place (not downloaded) in a real VS Code: the run in the
 * Local runs list with a cloud and "on the Hub", and a trajectory opened from it, read by
 * a range request, exactly as the log on the Hub has it; after a window reload the run is
 * back, from its saved index.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO, workbench } from './harness';
import { hubRepoItem, menuItem } from './steps';

let page: Page;
const wb = workbench({ name: 'inplace' }, (w) => {
  page = w.page;
});

interface Seen {
  url: string;
  range: string | undefined;
  method: string;
}
const requests = (): Promise<Seen[]> => wb.emulatorRequests<Seen>();
const creditGets = (l: Seen[]): Seen[] =>
  l.filter((r) => r.method === 'GET' && r.url.includes('/resolve/') && r.url.endsWith('ws_credit_log.jsonl'));

/** Opens iteration 44, group 3, rollout 2 of the run on the Hub (the palette asks first which run: the local demo run or it). */
async function openOnTheHub(): Promise<void> {
  await wb.commandPick('RL Runs: Open Trajectory by Iteration/Group/Rollout…', `hub:${REPO}`, { enter: '44 3 2' });
  await wb.webview().locator('#detail-title', { hasText: 'iteration 44 · group 3 · rollout 2' }).waitFor({ timeout: 60_000 });
}

wb.journey('H1. Open Logs in Place on the Hub repo lists it under Local runs, on the Hub, without downloading it', async () => {
  const icon = page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
  await icon.waitFor({ timeout: 30_000 });
  await icon.click();
  await page.locator('.monaco-list-row', { hasText: '4 resume · 4 hf' }).waitFor({ timeout: 30_000 });
  // the Hub repo's context menu
  const repo = hubRepoItem(page).first();
  await repo.click({ button: 'right' });
  const item = page.locator('.monaco-menu .action-label', { hasText: 'Open Logs in Place' });
  await item.waitFor({ timeout: 10_000 });
  await wb.shot('repo-menu');
  await menuItem(page, 'Open Logs in Place');
  const row = page.locator('.monaco-list-row', { hasText: /on the Hub · 10800 trajectories · 45 iterations/ });
  await row.waitFor({ timeout: 60_000 });
  assert.match((await row.textContent())!, new RegExp(REPO.replace(/[./]/g, '\\$&')));
  assert.equal(await row.locator('.codicon-cloud').count(), 1, 'a cloud icon');
  assert.equal(existsSync(join(wb.downloads)), false, 'nothing was downloaded');
  const gets = creditGets(await requests());
  assert.equal(gets.filter((r) => r.range === undefined).length, 1, 'one streamed GET of the credit log');
  await wb.shot('run-on-the-hub');
});

wb.journey('H2. a trajectory of the run on the Hub opens by a range request, exactly as the log has it', async () => {
  const before = (await requests()).length;
  await openOnTheHub();
  const line = readFileSync(join(wb.run, '.hub-repo', 'logs', 'ws_credit_log.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.startsWith('{"iteration":44,"group":3,"rollout":2,'))!;
  const rec = JSON.parse(line) as { turns: { action: string }[] };
  assert.equal(await wb.webview().locator('.turn[data-turn="0"] pre[data-field="action"]').textContent(), rec.turns[0]!.action);
  const ranged = creditGets((await requests()).slice(before)).filter((r) => r.range !== undefined && r.range !== 'bytes=0-0');
  assert.ok(ranged.length >= 1, 'the record came by a range request');
  await wb.shot('trajectory-on-the-hub');
});

wb.journey(
  'H3. after Developer: Reload Window the run read in place is back in Local runs, from its saved index, with no GET of its logs',
  async () => {
    const before = (await requests()).length;
    await wb.command('Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const icon = page.locator('.activitybar .action-item a[aria-label^="RL Runs"]');
    await icon.waitFor({ timeout: 60_000 });
    // the reload may bring the RL Runs view back open (a click would then close it): wait for it first
    const localRuns = page.locator('.pane-header', { hasText: 'Local runs' });
    const back = await localRuns
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (!back) await icon.click();
    const row = page.locator('.monaco-list-row', { hasText: /on the Hub · 10800 trajectories · 45 iterations/ });
    await row.waitFor({ timeout: 60_000 });
    assert.equal(await row.locator('.codicon-cloud').count(), 1, 'a cloud icon');
    await wb.shot('back-after-reload');
    const logGets = (await requests())
      .slice(before)
      .filter((r) => r.method === 'GET' && r.url.includes('/resolve/') && r.url.includes('/logs/'));
    assert.deepStrictEqual(logGets, [], 'neither log was fetched again');
    // a record read before the reload opens from the ranges cache
    await openOnTheHub();
    await wb.shot('trajectory-after-reload');
  },
);

wb.journey('H4. Clear Saved Log Indexes deletes the fetched ranges of Hub logs too, and says so', async () => {
  await wb.command('RL Runs: Clear Saved Log Indexes');
  const toast = page.locator('.notification-toast', {
    hasText: /Cleared [1-9]\d* saved log indexes \(.*\) and [1-9]\d* fetched ranges of Hub logs \(.*\); the next open reads each log again/,
  });
  await toast.waitFor({ timeout: 30_000 });
  await wb.shot('cleared-indexes-and-ranges');
});
