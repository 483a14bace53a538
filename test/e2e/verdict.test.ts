/**
 * The verdict of #24 in a real VS Code (code-server) driven by Chromium, on the demo run and its
 * plain GRPO baseline (both with checkpoint evaluations): the comparison leads with section 8,
 * its sentence and figures equal to `rlrb compare --json`'s evaluation.final and .pooled,
 * the interval chart, the per-task table at a chosen checkpoint; both themes.
 * Screenshots: test-results/e2e/verdict-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { until, workbench } from './harness';
import { verdictWords } from '../../src/core/eval/verdictWords';
import type { EvaluationComparison } from '../../src/core/eval/evalFigures';
import { compareRunWithBaseline } from './steps';

let page: Page;
// the report states the verdict against the demo's plain GRPO run (relative to the workspace folder, the demo run)
const wb = workbench({ name: 'verdict', demoArgs: [], settings: { 'rlRunBrowser.baseline': 'baseline' } }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();

interface Paired {
  iteration?: number;
  tasks: number;
  meanDiff: number | null;
  ci95: [number, number] | null;
  p: number | null;
  wins: number;
  losses: number;
  ties: number;
}

interface Evaluation {
  iterations: number[];
  perIteration: Paired[];
  final: Paired | null;
  pooled: Paired;
}

function evaluation(a: string, b: string): Evaluation {
  const r = spawnSync('node', ['dist/cli.js', 'compare', a, b, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as { evaluation: Evaluation }).evaluation;
}

/** The figures of one row of #verdict-figures, read from the panel's cells. */
async function rowValues(row: Locator): Promise<number[]> {
  const cells = await row.locator('td[data-value]').evaluateAll((els) => els.map((e) => e.getAttribute('data-value') ?? ''));
  return cells.map(Number);
}

const expected = (f: Paired): number[] => [f.tasks, f.meanDiff!, f.ci95![0], f.ci95![1], f.p!, f.wins, f.losses, f.ties];
/** tasks, A − B, lo, hi, p, wins, losses, ties of a row's numeric cells (tasks, A, B, A − B, lo, hi, p, would show (80%), wins, losses, ties) */
const picked = (v: number[]): number[] => [v[0]!, v[3]!, v[4]!, v[5]!, v[6]!, v[8]!, v[9]!, v[10]!];

wb.journey('V1. the comparison opens on the verdict: its sentence and figures equal rlrb compare --json evaluation', async () => {
  await compareRunWithBaseline(page);
  const wv = webview();
  const final = wv.locator('#verdict-figures tr[data-key="final"]');
  await final.waitFor({ timeout: 60_000 });
  const e = evaluation(wb.run, join(wb.run, 'baseline'));
  assert.ok(e.final && e.final.ci95 && e.final.p !== null, 'the demo has a final checkpoint in common');
  assert.deepEqual(picked(await rowValues(final)), expected(e.final));
  assert.deepEqual(picked(await rowValues(wv.locator('#verdict-figures tr[data-key="pooled"]'))), expected(e.pooled));
  // the one wording of the verdict (core's verdictWords), leading with its conclusion, on the same figures
  const said = verdictWords(e as unknown as EvaluationComparison);
  assert.equal(((await wv.locator('#verdict-final').textContent()) ?? '').trim(), said.final);
  assert.match(said.final, /^(Inconclusive|A better than B|A worse than B) at iteration /);
  assert.equal(((await wv.locator('#verdict-pooled').textContent()) ?? '').trim(), said.pooled);
  // the verdict comes before the training-side figures, which say what they pool
  const titles = await wv.locator('section > h2').allTextContents();
  assert.match(titles[0] ?? '', /^The verdict: checkpoint evaluations/);
  assert.match(titles[1] ?? '', /^Training rollouts .*whatever iterations/);
  await wv.locator('#verdict-chart').waitFor();
  // the per-task table at the last checkpoint, then at the first
  assert.equal(await wv.locator('#verdict-checkpoint').inputValue(), String(e.final.iteration));
  assert.equal(await wv.locator('#verdict-tasks tr[data-task]').count(), e.final.tasks);
  const first = e.iterations[0]!;
  await wv.locator('#verdict-checkpoint').selectOption(String(first));
  await wv.locator('#verdict-tasks-box p', { hasText: `at iteration ${first}` }).waitFor({ timeout: 10_000 });
  // that checkpoint's rows came from the host on the ask (the first message holds the last checkpoint's only)
  assert.equal(await wv.locator('#verdict-tasks tr[data-task]').count(), e.perIteration[0]!.tasks);
  await wb.shot('verdict');
  // at 820 px the figures table scrolls sideways, and the cue above it says so
  await inBothThemes('verdict', async () => {
    await wv.locator('#verdict-final').scrollIntoViewIfNeeded();
  });
  await page.setViewportSize({ width: 820, height: 1000 });
  await until(
    async () => /scroll sideways →/.test((await wv.locator('#verdict .scroll-cue').first().textContent()) ?? ''),
    'the scroll cue at 820 px',
  );
  await page.setViewportSize({ width: 1600, height: 1000 });
});

/**
 * The shots `name`-820 (dark), then -light and -820-light, ending dark at the full width: each light
 * shot comes after a change of width, which repaints the window in the theme just picked.
 */
async function inBothThemes(name: string, ready: () => Promise<void>): Promise<void> {
  const full = page.viewportSize() ?? { width: 1600, height: 1000 };
  const narrow = { width: 820, height: full.height };
  try {
    await page.setViewportSize(narrow);
    await ready();
    await wb.shot(`${name}-820`);
    await wb.theme('Light Modern');
    await page.setViewportSize(full);
    await ready();
    await wb.shot(`${name}-light`);
    await page.setViewportSize(narrow);
    await ready();
    await wb.shot(`${name}-820-light`);
  } finally {
    await wb.theme('Dark Modern');
    await page.setViewportSize(full);
  }
}

/** The mark the text report gives a figure ("  mean c   +0.0191   |mean| < 0.03   +0.034   pass"). */
function reportMark(run: string, label: string): string {
  const r = spawnSync('node', ['dist/cli.js', 'report', run], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`${label} `));
  assert.ok(line, `a "${label}" line in the report`);
  return line.trim().split(/\s+/).pop()!;
}

interface ReportJson {
  meanC: number | null;
  twinDisagreements: { iteration: number; metric: string; logged: number; recomputed: number }[];
}

wb.journey("V2. the dashboard's chips judge as the report does; a logged figure's twin disagreement is marked", async () => {
  // the palette asks which run: the demo run, not its baseline
  await wb.commandPick('RL Runs: Open Metrics', { has: wb.run, not: 'baseline' });
  const wv = webview();
  const targets = wv.locator('#card-targets');
  await targets.locator('.chart-card canvas').first().waitFor({ timeout: 60_000 });
  const r = spawnSync('node', ['dist/cli.js', 'report', wb.run, '--json'], { encoding: 'utf8' });
  const json = JSON.parse(r.stdout) as ReportJson;
  const cMean = targets.locator('.chart-card[data-metric="ws/c_mean"]');
  assert.equal(await cMean.locator('.target-badge').getAttribute('data-mark'), reportMark(wb.run, 'mean c'));
  assert.equal(Number(await cMean.locator('.judged').getAttribute('data-value')), json.meanC);
  assert.match((await cMean.locator('.summary').textContent()) ?? '', /last [+-]?\d\.\d{4} at iteration 44/);
  const flips = targets.locator('.chart-card[data-metric="ws/sign_flip_rate"]');
  assert.equal(await flips.locator('.target-badge').getAttribute('data-mark'), reportMark(wb.run, 'sign-flip rate'));
  const want = json.twinDisagreements.filter((d) => d.metric === 'ws/sign_flip_rate');
  assert.ok(want.length > 0, 'the demo logs sign_flip_rate 0 where the recomputed one is not');
  assert.equal(Number(await flips.locator('.twin-disagrees').getAttribute('data-count')), want.length);
  const d = want[0]!;
  assert.match((await flips.locator('.twin-disagrees').textContent()) ?? '', new RegExp(`iteration ${d.iteration}: logged `));
  await flips.scrollIntoViewIfNeeded();
  await wb.shot('dashboard-twin');
});

wb.journey(
  'V3. the report lists the sign-flip groups and the twin disagreements, and leads with the verdict against the baseline',
  async () => {
    await wb.commandPick('RL Runs: Open Run Report', { has: wb.run, not: 'baseline' });
    const wv = webview();
    const rows = wv.locator('#sign-flips tr[data-group]');
    await rows.first().waitFor({ timeout: 60_000 });
    const r = spawnSync('node', ['dist/cli.js', 'report', wb.run, '--json'], { encoding: 'utf8' });
    const json = JSON.parse(r.stdout) as ReportJson & { signFlipGroups: { iteration: number; group: number }[] };
    assert.deepEqual(
      await rows.evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-iteration')), Number(e.getAttribute('data-group'))])),
      json.signFlipGroups.map((g) => [g.iteration, g.group]),
    );
    assert.match((await wv.locator('#sign-flip-line').textContent()) ?? '', /in groups with a -1 reward, where min\|A\| < beta/);
    assert.equal(await wv.locator('#twin-disagreements li').count(), json.twinDisagreements.length);
    await wv.locator('#sign-flips').scrollIntoViewIfNeeded();
    await wb.shot('report-sign-flips');
    // the report leads with the checkpoint verdict against the baseline setting, in the comparison's words
    const said = verdictWords(evaluation(wb.run, join(wb.run, 'baseline')) as unknown as EvaluationComparison);
    const verdict = wv.locator('#checkpoint-verdict');
    await verdict.scrollIntoViewIfNeeded();
    assert.equal(((await verdict.locator('#verdict-final').textContent()) ?? '').trim(), said.final);
    assert.equal(((await verdict.locator('#verdict-pooled').textContent()) ?? '').trim(), said.pooled);
    assert.match((await verdict.locator('h2').textContent()) ?? '', /^The verdict: checkpoint evaluations against baseline/);
    assert.equal(await verdict.getAttribute('data-conclusion'), said.conclusion);
    await wb.shot('report-verdict');
    await inBothThemes('report-verdict', () => verdict.scrollIntoViewIfNeeded());
    // at 820 px the figures scroll sideways inside their table, and the cue above it says so
    await page.setViewportSize({ width: 820, height: 1000 });
    await until(
      async () => /scroll sideways →/.test((await wv.locator('#report-table-cue').textContent()) ?? ''),
      'the report’s cue at 820 px',
    );
    await page.setViewportSize({ width: 1600, height: 1000 });
  },
);
