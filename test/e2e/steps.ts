/** What the e2e files do with their workbench the same way: append records to the demo log, and the harness's steps as plain functions. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { Workbench } from './harness';

/** A workbench's `prepare` that appends `records` to the demo run's credit log, one JSON line each. */
export function appendRecords(records: readonly unknown[]): (run: string) => void {
  return (run) => appendFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/**
 * Runs a context-menu item. A click that lands right after the menu opened can leave the
 * menu open with the item only highlighted (seen on quiet machines); then Enter runs it.
 */
export async function menuItem(page: Page, text: string): Promise<void> {
  const item = page.locator('.monaco-menu .action-label', { hasText: text });
  await item.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  await item.click();
  await page.waitForTimeout(500);
  if (await item.isVisible()) {
    await item.hover();
    await page.keyboard.press('Enter');
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
      await page.waitForTimeout(1_000);
    }
  }
  await menuItem(page, text);
}

export interface Steps {
  shot: (name: string) => Promise<void>;
  /** the document of the visible webview panel */
  webview: () => FrameLocator;
  command: (title: string) => Promise<void>;
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
    mark: (what) => wb.mark(what),
    faults: (f) => wb.faults(f),
    journey: (name, fn) => wb.journey(name, fn),
    continued: (name, fn) => wb.continued(name, fn),
    openTrajectory: (key) => wb.openTrajectory(key),
  };
}
