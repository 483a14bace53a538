/**
 * The behaviour tags (docs/format.md section 7, issue #25) in the views that read two runs, on the demo run and its plain GRPO
 * baseline: the dashboard's Behaviour group (a chart per tag and the collapse rate; a point opening that iteration's tagged
 * trajectories, by keyboard and, overlaid, by click with the run asked), the comparison's behaviour lines against
 * `rlrb compare --json` (a tag row opening the tagged trajectories of the run picked), and the side-by-side view of a repeat.
 * Every count is the CLI's, run in the test. Screenshots in both themes: test-results/e2e/bviews-*.png.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { workbench } from './harness';
import { compareRunWithBaseline } from './steps';
import { formatPercent } from '../../src/shared/format';
import { TAG_NAMES } from '../../src/shared/shapes';
import type { TagName } from '../../src/shared/shapes';
import { TAG_WORDS, pPhrase } from '../../src/shared/tagWords';

let page: Page;
const wb = workbench({ name: 'bviews', demoArgs: [] }, (w) => {
  page = w.page;
});
const webview = (): FrameLocator => wb.webview();
const baseline = (): string => join(wb.run, 'baseline');

interface TagsJson {
  trajectories: number;
  tags: Record<TagName, { count: number } | null>;
  collapsedTurnRate: number | null;
}
type TagFigures = Record<TagName, { rateA: number | null; rateB: number | null; diff: number | null; p: number | null }>;

function cli<T>(...args: string[]): T {
  const r = spawnSync('node', ['dist/cli.js', ...args, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as T;
}
const tagsAt = (run: string, iteration: number): TagsJson => cli('tags', run, '--from', String(iteration), '--to', String(iteration));

/** A screenshot in the dark theme, then one in the light theme, then back to dark. */
async function bothThemes(name: string): Promise<void> {
  await wb.shot(name);
  await wb.theme('Light Modern');
  await wb.shot(`${name}-light`);
  await wb.theme('Dark Modern');
}

/** A row of the open quick pick: the demo run (its row does not say "baseline") or the baseline. */
async function pickRow(base: boolean): Promise<void> {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  await (base ? rows.filter({ hasText: 'baseline' }) : rows.filter({ hasNotText: 'baseline' })).first().click();
}

/** The open browser shows exactly the CLI's count of `tag` at `iteration`: its chip, its header, one row each. */
async function browserShows(run: string, tag: TagName, iteration: number): Promise<void> {
  const t = tagsAt(run, iteration);
  const count = t.tags[tag]!.count;
  assert.ok(count > 0 && count < 60, `${tag} at ${iteration}: ${count} trajectories (all in one page)`);
  const br = webview();
  await br.locator(`.chip[data-chip="tag-${tag}"]`).waitFor({ timeout: 60_000 });
  await br.locator('#jump-label', { hasText: new RegExp(`— ${count} of \\d+ trajectories · .*tag ${TAG_WORDS[tag].label}`) }).waitFor({
    timeout: 30_000,
  });
  await br.locator('.trow').first().waitFor({ timeout: 20_000 });
  assert.equal(await br.locator('.trow').count(), count);
  assert.equal(await br.locator(`.trow [data-tag-filter="${tag}"]`).count(), count, 'every row carries the tag');
  const its = await br.locator('.trow').evaluateAll((els) => els.map((e) => (e.getAttribute('data-key') ?? '').split('/')[0]));
  assert.deepEqual([...new Set(its)], [String(iteration)]);
}

wb.journey(
  "V1. the dashboard's Behaviour group: a chart per tag and the collapse rate; Enter on a point opens that iteration's tagged trajectories",
  async () => {
    await wb.commandPick('RL Runs: Open Metrics', { not: 'baseline' });
    const wv = webview();
    const group = wv.locator('section.section[aria-label="Behaviour"]');
    await group.locator('.chart-card').first().waitFor({ timeout: 60_000 });
    const all = cli<TagsJson>('tags', wb.run);
    const expected = [
      ...TAG_NAMES.filter((t) => all.tags[t] !== null).map((t) => `Behaviour/${t} rate`),
      ...(all.collapsedTurnRate !== null ? ['Behaviour/collapsed turn rate'] : []),
    ];
    assert.equal(expected.length, TAG_NAMES.length + 1, 'the demo run is labeled: every tag and the collapse rate');
    const names = await group.locator('.chart-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-metric')));
    assert.deepEqual([...names].sort(), [...expected].sort());
    assert.match((await group.locator('h2').textContent()) ?? '', new RegExp(`${expected.length}`));
    const card = group.locator('.chart-card[data-metric="Behaviour/noDone rate"]');
    await card.scrollIntoViewIfNeeded();
    await card.locator('canvas').waitFor();
    await group.locator('.chart-card[data-drawn]').first().waitFor({ timeout: 30_000 });
    await bothThemes('behaviour-group');
    await card.locator('canvas').focus();
    await page.keyboard.press('End');
    const readout = card.locator('.readout');
    await readout.filter({ hasText: /iteration 44/ }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('ArrowLeft');
    await readout.filter({ hasText: /iteration 43/ }).waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: 'Trajectories: run' }).waitFor({ timeout: 30_000 });
    await browserShows(wb.run, 'noDone', 43);
    await bothThemes('browser-tag-chip');
  },
);

wb.continued("V2. overlaid, the baseline's Behaviour lines join the charts; a click asks which run and opens the baseline's", async () => {
  await page.locator('.tabs-container .tab', { hasText: 'Metrics: run' }).click();
  const wv = webview();
  await wv.locator('#add-run').click();
  await pickRow(true);
  await wv.locator('#run-legend .run-entry').nth(1).waitFor({ timeout: 30_000 });
  const card = wv.locator('.chart-card[data-metric="Behaviour/noDone rate"]');
  // charts are drawn when they come into view
  await card.scrollIntoViewIfNeeded();
  await wv.locator('.chart-card[data-metric="Behaviour/noDone rate"][data-lines="2"]').waitFor({ timeout: 60_000 });
  // the plain baseline has no labeled turn: its collapse rate is null, so that chart stays the run's alone
  assert.equal(await wv.locator('.chart-card[data-metric="Behaviour/collapsed turn rate"] .only-in').textContent(), 'only in run');
  const canvas = card.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  await bothThemes('behaviour-overlaid');
  const box = await canvas.boundingBox();
  assert.ok(box, 'the chart is on screen');
  await canvas.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
  const menu = wv.locator('#run-menu');
  await menu.waitFor({ timeout: 10_000 });
  const items = await menu.locator('.run-menu-item').allTextContents();
  assert.equal(items.length, 2, items.join(' | '));
  const iteration = Number(/iteration (\d+)/.exec(items[1]!)![1]);
  await menu.locator('.run-menu-item', { hasText: /^baseline/ }).click();
  await page.locator('.tabs-container .tab', { hasText: 'Trajectories: baseline' }).waitFor({ timeout: 30_000 });
  await browserShows(baseline(), 'noDone', iteration);
});

/** The sentence the panel must say for a tag, from the CLI's figures. */
function words(tag: TagName, f: TagFigures[TagName], of: string): string {
  if (f.rateA === null && f.rateB === null) return 'Empty: it needs labeled turns (or trajectories in the window), and a run has none.';
  // one run has no labels (a plain baseline): the other run's rate stays (docs/format.md section 7)
  if (f.rateA === null || f.rateB === null) {
    const [has, lacks] = f.rateA !== null ? ['A', 'B'] : ['B', 'A'];
    return `${has} ${TAG_WORDS[tag].verb} on ${formatPercent(f.rateA ?? f.rateB)} of ${of}; ${lacks} has no labeled turns, so no rate and no test.`;
  }
  const p = f.p === null ? 'no p value (neither run has it, or both always do)' : pPhrase(f.p);
  return `A ${TAG_WORDS[tag].verb} on ${formatPercent(f.rateA)} of ${of}, B on ${formatPercent(f.rateB)}, ${p}.`;
}

async function linesEqual(wv: FrameLocator, id: string, figures: TagFigures, of: string): Promise<void> {
  for (const tag of TAG_NAMES) {
    const row = wv.locator(`#${id} tr[data-tag="${tag}"]`);
    const f = figures[tag];
    assert.equal(await row.locator('[data-field="words"]').textContent(), words(tag, f, of), `${id} ${tag}`);
    const cells = row.locator('td');
    assert.equal(await cells.nth(1).getAttribute('data-value'), String(f.rateA), `${id} ${tag} rateA`);
    assert.equal(await cells.nth(2).getAttribute('data-value'), String(f.rateB), `${id} ${tag} rateB`);
    assert.equal(await cells.nth(4).getAttribute('data-value'), String(f.p), `${id} ${tag} p`);
  }
}

wb.journey(
  "V3. the comparison's behaviour lines say the figures of rlrb compare --json, on training rollouts and on eval episodes",
  async () => {
    await compareRunWithBaseline(page);
    const wv = webview();
    const training = wv.locator('#behaviour-training');
    await training.locator('tr[data-tag="repeat"]').waitFor({ timeout: 60_000 });
    const json = cli<{ behaviour: TagFigures; evalBehaviour: TagFigures | null }>('compare', wb.run, baseline());
    await linesEqual(wv, 'behaviour-training', json.behaviour, 'trajectories');
    assert.ok(json.evalBehaviour, 'the demo runs both have evaluations');
    await linesEqual(wv, 'behaviour-evals', json.evalBehaviour, 'eval episodes');
    // a line whose rates are both empty has no button: nothing to open
    for (const tag of TAG_NAMES)
      if (json.behaviour[tag].rateA === null && json.behaviour[tag].rateB === null)
        assert.equal(await training.locator(`tr[data-tag="${tag}"] button`).count(), 0, tag);
    await training.scrollIntoViewIfNeeded();
    await bothThemes('compare-behaviour');
    await wv.locator('#behaviour-evals').scrollIntoViewIfNeeded();
    await wb.shot('compare-behaviour-evals');
  },
);

wb.continued('V4. a tag row of the comparison asks which run, then opens its trajectories with that tag over the window', async () => {
  const wv = webview();
  await wv.locator('#behaviour-training tr[data-tag="noDone"] button').click();
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.nth(1).waitFor({ timeout: 20_000 });
  const texts = await rows.allTextContents();
  assert.equal(texts.length, 2, texts.join(' | '));
  assert.match(texts[0]!, /^A: run/);
  assert.match(texts[1]!, /^B: baseline/);
  await rows.filter({ hasText: 'B: baseline' }).first().click();
  await page.locator('.tabs-container .tab', { hasText: 'Trajectories: baseline' }).waitFor({ timeout: 30_000 });
  const br = webview();
  await br.locator('.chip[data-chip="tag-noDone"]').waitFor({ timeout: 60_000 });
  const json = cli<{ perIteration: { iteration: number }[] }>('compare', wb.run, baseline());
  const its = json.perIteration.map((r) => r.iteration);
  const t = cli<TagsJson>('tags', baseline(), '--from', String(its[0]), '--to', String(its[its.length - 1]));
  await br
    .locator('#jump-label', { hasText: new RegExp(`^comparison: run B, tag no done — ${t.tags.noDone!.count} of \\d+ trajectories`) })
    .waitFor({ timeout: 30_000 });
  await wb.shot('compare-tag-opened');
});

wb.journey("V5. the side-by-side view of a repeat: each side's candidates with their tags column, the repeat turns marked", async () => {
  // each side: the demo run (its row does not say "baseline"), then its trajectory
  const run = { not: 'baseline' };
  await wb.commandPick('RL Runs: Open Two Trajectories Side by Side…', run, { enter: '2 13 0' }, run, { enter: '2 13 1' });
  const sbs = webview();
  await sbs.locator('.sbs-row').first().waitFor({ timeout: 60_000 });
  const marked = sbs.locator('.sbs-cell[data-side="left"] [data-mark="repeat"]').first();
  await marked.waitFor({ timeout: 20_000 });
  await sbs.locator('.sbs-cands .tags').first().waitFor();
  await marked.scrollIntoViewIfNeeded();
  await bothThemes('side-by-side-tags');
});
