/** What the e2e files do with their workbench the same way: append records to the demo log, and the harness's steps as plain functions. */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { REPO, settled } from './harness';
import type { Pick, ThemeName, Workbench } from './harness';

/** A workbench's `prepare` that appends `records` to the demo run's credit log, one JSON line each. */
export function appendRecords(records: readonly unknown[]): (run: string) => void {
  return (run) => appendFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** The Hub tree's row of the emulator's repo (its accessible name starts with the repo's name). */
export function hubRepoItem(page: Page): Locator {
  return page.getByRole('treeitem', { name: new RegExp(`^${REPO.replace(/[./]/g, '\\$&')}`) });
}

/**
 * Waits until the workspace's stored state (IndexedDB, what a reload reads) lists an editor
 * of this view type among the open editors and holds this text in some entry: what a reload needs
 * before it runs. Resolves to the seconds it waited.
 */
export async function savedForReload(page: Page, viewType: string, text: string): Promise<number> {
  const read = `(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name || '').filter((n) => n.startsWith('vscode-web-state-db-') && n !== 'vscode-web-state-db-global');
    const found = { editor: false, text: false };
    for (const name of names) {
      const db = await new Promise((res, rej) => { const r = indexedDB.open(name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
      if (db.objectStoreNames.contains('ItemTable')) {
        const store = db.transaction('ItemTable').objectStore('ItemTable');
        const get = (q) => new Promise((res, rej) => { q.onsuccess = () => res(q.result); q.onerror = () => rej(q.error); });
        const editors = await get(store.get('memento/workbench.parts.editor'));
        if (typeof editors === 'string' && editors.includes(${JSON.stringify(viewType)})) found.editor = true;
        for (const v of await get(store.getAll())) if (typeof v === 'string' && v.includes(${JSON.stringify(text)})) found.text = true;
      }
      db.close();
    }
    return found.editor && found.text;
  })()`;
  const start = Date.now();
  await page.waitForFunction(read, undefined, { polling: 250, timeout: 30_000 }).catch(() => {
    throw new Error(`the workbench did not save the ${viewType} editor with ${text} within 30 s`);
  });
  return (Date.now() - start) / 1000;
}

/**
 * Runs a context-menu item. A click that lands right after the menu opened can leave the
 * menu open with the item only highlighted (seen on quiet machines); then Enter runs it.
 */
export async function menuItem(page: Page, text: string): Promise<void> {
  const item = page.locator('.monaco-menu .action-label', { hasText: text });
  await item.waitFor({ timeout: 10_000 });
  // the menu's opening animation over: the click lands on the item where it stays
  await settled(page);
  await item.click();
  const ran = await item
    .waitFor({ state: 'hidden', timeout: 2_000 })
    .then(() => true)
    .catch(() => false);
  if (!ran) {
    await item.hover();
    await page.keyboard.press('Enter');
    await item.waitFor({ state: 'hidden', timeout: 5_000 });
  }
}

/**
 * Selects `rows` (a click, then Ctrl+click for the others), right-clicks the last and runs the
 * context-menu item `text`. The tree can re-render between the clicks while its runs load,
 * losing the selection or the menu: then it tries again, and after three tries it fails
 * naming what the menu offered and which rows were selected.
 */
export async function rowMenu(page: Page, rows: readonly [Locator, ...Locator[]], text: string): Promise<void> {
  const item = page.locator('.monaco-menu .action-label', { hasText: text });
  for (let attempt = 1; ; attempt++) {
    await rows[0].click();
    for (const row of rows.slice(1)) await row.click({ modifiers: ['Control'] });
    await rows[rows.length - 1]!.click({ button: 'right' });
    try {
      await item.waitFor({ timeout: 5_000 });
      break;
    } catch {
      const offered = await page.locator('.monaco-menu .action-label').allTextContents();
      const selected = await Promise.all(rows.map((r) => r.getAttribute('aria-selected')));
      await page.keyboard.press('Escape');
      if (attempt === 3)
        throw new Error(`no "${text}" in the menu: it offered [${offered.join(', ')}]; rows selected: [${selected.join(', ')}]`);
      // the menu closed and the tree drawn again before the rows are clicked anew
      await page.locator('.monaco-menu').waitFor({ state: 'hidden', timeout: 5_000 });
      await settled(page);
    }
  }
  await menuItem(page, text);
}

/**
 * The RL Runs view's demo run and its baseline, both selected, compared from their context
 * menu; a menu item whose click went unseen (no Compare tab after it) is asked for again.
 */
export async function compareRunWithBaseline(page: Page): Promise<void> {
  await page.locator('.activitybar .action-item a[aria-label^="RL Runs"]').click();
  const runRow = page.locator('.monaco-list-row', { hasText: /^run\s*(\d+ data problems? · )?\d+ trajectories/ });
  const baseRow = page.locator('.monaco-list-row', { hasText: /^baseline\s*(\d+ data problems? · )?\d+ trajectories/ });
  await runRow.waitFor({ timeout: 60_000 });
  await baseRow.waitFor({ timeout: 60_000 });
  const tab = page.locator('.tabs-container .tab', { hasText: /Compare: / });
  for (let attempt = 1; ; attempt++) {
    await rowMenu(page, [runRow, baseRow], 'Compare Selected Runs');
    try {
      await tab.first().waitFor({ timeout: attempt < 2 ? 20_000 : 60_000 });
      return;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
}

export interface Steps {
  shot: (name: string) => Promise<void>;
  /** the document of the visible webview panel */
  webview: () => FrameLocator;
  command: (title: string) => Promise<void>;
  /** a palette command and an answer to each quick input it opens, tried again when the workbench closes one under us */
  commandPick: (title: string, ...picks: readonly Pick[]) => Promise<void>;
  /** the colour theme, once the workbench and its webviews wear it */
  theme: (name: ThemeName) => Promise<void>;
  mark: (what: string) => void;
  faults: (f: Record<string, unknown>) => Promise<void>;
  journey: (name: string, fn: () => Promise<void>) => void;
  /** a journey that goes on with the panel the one before left open */
  continued: (name: string, fn: () => Promise<void>) => void;
  openTrajectory: (key: string) => Promise<void>;
}

/** The workbench's steps bound to it, to be called as plain functions. */
export function steps(wb: Workbench): Steps {
  return {
    shot: (name) => wb.shot(name),
    webview: () => wb.webview(),
    command: (title) => wb.command(title),
    commandPick: (title, ...picks) => wb.commandPick(title, ...picks),
    theme: (name) => wb.theme(name),
    mark: (what) => wb.mark(what),
    faults: (f) => wb.faults(f),
    journey: (name, fn) => wb.journey(name, fn),
    continued: (name, fn) => wb.continued(name, fn),
    openTrajectory: (key) => wb.openTrajectory(key),
  };
}

/** axe-core's source, read once: evaluated in the panel's frame (its CSP would refuse a script tag). */
let axeSource: string | undefined;

/** One axe-core finding, as the assertion names it. */
interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * axe-core run over the document of a webview panel (`frame`, the panel's inner frame): no
 * serious or critical violation. `name` says which panel (and theme) in the failure, which
 * lists each rule with the first elements it found and why.
 */
export async function expectAccessible(frame: FrameLocator, name: string): Promise<void> {
  axeSource ??= readFileSync(resolve('node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  const handle = await frame.locator('body').elementHandle({ timeout: 30_000 });
  const f = await handle?.ownerFrame();
  assert.ok(f, `${name}: the panel's frame`);
  // once a document: a panel checked again (another width, another theme) has it already
  if (!(await f.evaluate<boolean>('typeof window.axe === "object"'))) await f.evaluate(`${axeSource}\n;void 0`);
  // a string: the tests compile without the DOM's types
  const found = await f.evaluate<AxeFinding[]>(`(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 240)) }));
  })()`);
  const lines = found.map((v) => `${v.impact} ${v.id} (${v.help}):\n    ${v.nodes.join('\n    ')}`);
  assert.equal(found.length, 0, `${name}: axe-core found ${found.length} serious or critical violation(s):\n  ${lines.join('\n  ')}`);
}
