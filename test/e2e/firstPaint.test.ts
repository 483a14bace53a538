/**
 * The panels' first paint in a real VS Code (code-server) driven by Chromium: each page
 * comes with its script, its stylesheets and the host's first answer in its html (no
 * resource round trip through the workbench, no message round trip before the content),
 * and the run report draws its figures table before the rest. Screenshots:
 * test-results/e2e/paint-*.png.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { workbench } from './harness';

let page: Page;
const wb = workbench({ name: 'paint' }, (w) => {
  page = w.page;
});

interface Loaded {
  /** the page's own bundle and stylesheets fetched as resources (controls.js comes later, on purpose) */
  fetched: string[];
  /** the types of the host's messages embedded in the html */
  embedded: string[];
  /** the bundle's URL on the inline script element */
  inline: string | undefined;
}

/** What the visible panel's document loaded, read inside it. */
async function loaded(): Promise<Loaded> {
  return wb
    .webview()
    .locator('body')
    .evaluate(
      (_el, re: string) => {
        const w = globalThis as unknown as {
          performance: { getEntriesByType: (t: string) => { name: string }[] };
          document: {
            getElementById: (id: string) => { textContent: string | null } | null;
            scripts: ArrayLike<{ src: string; dataset: Record<string, string | undefined> }>;
          };
        };
        const fetched = w.performance
          .getEntriesByType('resource')
          .map((e) => e.name)
          .filter((n) => new RegExp(re).test(n));
        const first = JSON.parse(w.document.getElementById('first-messages')?.textContent ?? '[]') as { type: string }[];
        const inline = Array.from(w.document.scripts).find((s) => !s.src && s.dataset['src'])?.dataset['src'];
        return { fetched, embedded: first.map((m) => m.type), inline };
      },
      String.raw`/dist/webview/(?!controls)[a-zA-Z]+\.js|\.css(\?|$)`,
    );
}

for (const [n, title, content, bundle, message] of [
  ['P1', 'RL Runs: Open Metrics', '.chart-card[data-drawn="true"] canvas', 'metrics', 'metrics/data'],
  ['P2', 'RL Runs: Open Trajectories', '.trow', 'trajectories', 'trajectories/page'],
  ['P3', 'RL Runs: Open Run Report', '#report-table tr[data-key]', 'report', 'report/data'],
] as const)
  wb.journey(
    `${n}. ${title.replace('RL Runs: ', '')}: the script, the stylesheets and the host's first answer come in the html, and the content is drawn`,
    async () => {
      await wb.command(title);
      await wb.webview().locator(content).first().waitFor({ timeout: 60_000 });
      const l = await loaded();
      assert.deepEqual(l.fetched, [], 'no bundle or stylesheet fetched through the workbench');
      assert.match(l.inline ?? '', new RegExp(`/dist/webview/${bundle}\\.js$`), 'the bundle is inline, its URL kept as data-src');
      assert.ok(l.embedded.includes(message), `the html embeds ${message} (${l.embedded.join(', ')})`);
      await page.waitForTimeout(500);
      await wb.shot(bundle);
    },
  );

wb.journey('P4. the run report draws its figures table first, then the gate groups and the gate chart below it', async () => {
  await wb.command('RL Runs: Open Run Report');
  const wv = wb.webview();
  await wv.locator('#report-table tr[data-key]').first().waitFor({ timeout: 60_000 });
  // the rest is built in the frame after the table's: in its own container, below the gate chart
  await wv.locator('#report-rest #gate-groups tr').nth(1).waitFor({ timeout: 30_000 });
  await wv.locator('#report-rest #curve-table').waitFor();
  const box = await wv.locator('#gate-chart').boundingBox();
  assert.ok(box && box.width > 100 && box.height > 50, `the gate chart is drawn (${JSON.stringify(box)})`);
  const top = async (sel: string): Promise<number> => (await wv.locator(sel).first().boundingBox())?.y ?? NaN;
  const order = [await top('#report-table'), await top('#gate-chart'), await top('#gate-groups')];
  assert.ok(order[0]! < order[1]! && order[1]! < order[2]!, `figures, then the chart, then the gate groups (${order.join(', ')})`);
  await page.waitForTimeout(500);
  await wb.shot('report');
});
