/**
 * The walkthrough on a fresh profile with rlRunBrowser.walkthrough.openOnFirstRun on (the harness
 * turns it off for every other e2e file): it opens by itself on the first activation, and not
 * on the next one (a window reload starts the extension again).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { settled, workbench } from './harness';
import { WALKTHROUGH_SHOWN } from '../../src/extension/welcome/firstRun';

let page: Page;
const wb = workbench({ name: 'welcome', settings: { 'rlRunBrowser.walkthrough.openOnFirstRun': true } }, (w) => {
  page = w.page;
});

const WALKTHROUGH = 'Get started with RL Run Browser';
/** The Welcome editor showing the extension's walkthrough. */
const walkthrough = (): ReturnType<Page['locator']> => page.locator('.gettingStartedContainer', { hasText: WALKTHROUGH });

wb.continued('W1. a fresh profile: the walkthrough opens by itself on the first activation beside the runs, in plain words', async () => {
  await walkthrough().waitFor({ timeout: 60_000 });
  // the side bar shows the RL Runs view with the run, not the Explorer a fresh window opens on
  await page.locator('.sidebar .pane-header', { hasText: 'Local runs' }).waitFor({ timeout: 30_000 });
  await page.locator('.sidebar .monaco-list-row', { hasText: /^run\s*\d+ trajectories/ }).waitFor({ timeout: 60_000 });
  await wb.shot('walkthrough');
  const text = (await walkthrough().innerText()).replace(/\s+/g, ' ');
  assert.doesNotMatch(text, /`/, 'no raw backtick on the Welcome page');
});

wb.journey('W2. the next activation (a window reload) leaves it closed', async () => {
  // the flag is in the global state: the reload comes once the workbench has stored it (in the browser's IndexedDB)
  await page.waitForFunction(
    `(async () => {
      const db = await new Promise((res, rej) => { const r = indexedDB.open('vscode-web-state-db-global'); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
      if (!db.objectStoreNames.contains('ItemTable')) { db.close(); return false; }
      const q = db.transaction('ItemTable').objectStore('ItemTable').getAll();
      const all = await new Promise((res, rej) => { q.onsuccess = () => res(q.result); q.onerror = () => rej(q.error); });
      db.close();
      return all.some((v) => typeof v === 'string' && v.includes('"${WALKTHROUGH_SHOWN}":true'));
    })()`,
    undefined,
    { polling: 250, timeout: 30_000 },
  );
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').waitFor({ timeout: 60_000 });
  // the extension is active once its command answers: the run's metrics open
  await wb.command('RL Runs: Open Metrics');
  await wb.webview().locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
  // the walkthrough is opened (or not) on activation, before the command that opened the metrics ran: a
  // Welcome editor asked for then was opened before the metrics' one, whose tab is there
  await page.locator('.tabs-container .tab', { hasText: 'Metrics' }).waitFor({ timeout: 30_000 });
  await settled(page);
  await wb.shot('after-reload');
  assert.equal(await walkthrough().count(), 0, 'the walkthrough opened a second time');
});
