/**
 * The credit diagnostics of #24 item 6 in a real VS Code (code-server) driven by Chromium, on the
 * demo run and its plain GRPO baseline: the report's "Credit diagnostics" section (the last
 * iteration's gate mean diff and interval, every histogram bin) and the comparison's gates side by
 * side, each read off the panel and checked against `rlrb report --json` / `rlrb compare --json`
 * run in the test; both themes. Screenshots: test-results/e2e/credit-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { workbench } from './harness';
import { compareRunWithBaseline } from './steps';

const wb = workbench({ name: 'credit', demoArgs: [] });
const webview = (): FrameLocator => wb.webview();

interface GateIteration {
  iteration: number;
  meanDiff: number;
  lo: number | null;
  hi: number | null;
  groups: number;
}
interface Diagnostics {
  gatePerIteration: GateIteration[];
  cHistogram: { bins: number[]; success: number[]; failure: number[] };
  dosePerIteration: { iteration: number; dose: number | null }[];
}

function cliJson<T>(...args: string[]): T {
  const r = spawnSync('node', ['dist/cli.js', ...args, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}

/** The gate figures a paragraph carries as data attributes, as the JSON writes them. */
async function gateAttrs(p: Locator): Promise<GateIteration> {
  const a = async (k: string): Promise<string> => (await p.getAttribute(`data-${k}`)) ?? 'missing';
  const orNull = (s: string): number | null => (s === 'null' ? null : Number(s));
  return {
    iteration: Number(await a('iteration')),
    meanDiff: Number(await a('mean')),
    lo: orNull(await a('lo')),
    hi: orNull(await a('hi')),
    groups: Number(await a('groups')),
  };
}

wb.journey("C1. the report's credit diagnostics equal rlrb report --json creditDiagnostics", async () => {
  const d = cliJson<{ creditDiagnostics: Diagnostics }>('report', wb.run).creditDiagnostics;
  // two runs in the folder: the report asks which
  await wb.commandPick('RL Runs: Open Run Report', { not: 'baseline' });
  const wv = webview();
  const last = wv.locator('#credit-gate-last');
  await last.waitFor({ timeout: 60_000 });
  const expected = d.gatePerIteration[d.gatePerIteration.length - 1]!;
  assert.ok(expected.lo !== null, 'the demo has several gate groups at its last iteration');
  assert.deepEqual(await gateAttrs(last), expected);
  assert.match((await last.textContent()) ?? '', new RegExp(`^At iteration ${expected.iteration}, the last with gate groups`));
  // every bin of the histogram, both outcomes
  const rows = wv.locator('#credit-hist-table tr[data-bin]');
  assert.equal(await rows.count(), d.cHistogram.success.length);
  const cells = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td[data-value]')].map((td) => Number(td.getAttribute('data-value')))),
  );
  assert.deepEqual(
    cells.map((c) => c[0]),
    d.cHistogram.success,
  );
  assert.deepEqual(
    cells.map((c) => c[1]),
    d.cHistogram.failure,
  );
  assert.ok(d.cHistogram.success.reduce((x, y) => x + y, 0) > 0);
  const lastDose = d.dosePerIteration.filter((x) => x.dose !== null).pop()!;
  assert.match(
    (await wv.locator('#credit-dose-note').textContent()) ?? '',
    new RegExp(`at iteration ${lastDose.iteration}: ${lastDose.dose!.toFixed(4)}`),
  );
  // the three charts are drawn (a canvas Chart.js sized)
  for (const id of ['credit-gate-chart', 'credit-hist-chart', 'credit-dose-chart'])
    assert.ok(((await wv.locator(`#${id}`).getAttribute('height')) ?? '0') !== '0', id);
  await wv.locator('#credit-diagnostics').scrollIntoViewIfNeeded();
  await wv.locator('#credit-diagnostics').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await wb.shot('report-gate');
  await wv.locator('#credit-hist-chart').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await wb.shot('report-hist-dose');
  await wb.theme('Light Modern');
  await wv.locator('#credit-diagnostics').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await wb.shot('report-gate-light');
  await wv.locator('#credit-hist-chart').evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await wb.shot('report-hist-dose-light');
  await wb.theme('Dark Modern');
});

wb.journey("C2. the comparison shows both runs' gates side by side, equal to rlrb compare --json creditDiagnostics", async () => {
  const d = cliJson<{ creditDiagnostics: { A: Diagnostics; B: Diagnostics } }>(
    'compare',
    wb.run,
    join(wb.run, 'baseline'),
  ).creditDiagnostics;
  await compareRunWithBaseline(wb.page);
  const wv = webview();
  const a = wv.locator('#credit-gate-a');
  await a.waitFor({ timeout: 60_000 });
  assert.deepEqual(await gateAttrs(a), d.A.gatePerIteration[d.A.gatePerIteration.length - 1]);
  // the baseline is a plain GRPO run: no gate, and the panel says so
  assert.deepEqual(d.B.gatePerIteration, []);
  assert.equal(await wv.locator('#credit-gate-b').getAttribute('data-iteration'), null);
  assert.match((await wv.locator('#credit-gate-b').textContent()) ?? '', /no iteration of the window has a gate group/);
  // it sits in the training-side part, after the verdict
  const titles = await wv.locator('section > h2').allTextContents();
  const at = titles.findIndex((t) => t.startsWith('Credit diagnostics'));
  assert.ok(at > titles.findIndex((t) => t.startsWith('The verdict')), titles.join(' | '));
  await wv.locator('#credit-gates').evaluate((e) => (e.closest('section') ?? e).scrollIntoView({ block: 'start' }));
  await wb.shot('compare-gates');
  await wb.theme('Light Modern');
  await wv.locator('#credit-gates').evaluate((e) => (e.closest('section') ?? e).scrollIntoView({ block: 'start' }));
  await wb.shot('compare-gates-light');
  await wb.theme('Dark Modern');
});
