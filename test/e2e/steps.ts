/** What the e2e files do with their workbench the same way: append records to the demo log, and the harness's steps as plain functions. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
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
