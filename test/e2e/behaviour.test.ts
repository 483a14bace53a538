/**
 * The behaviour tags (docs/format.md section 7) wherever a run is read (issue #25 items 3-6):
 * the browser's tag flags, chips and turn marks, the
 * report's section, each against `rlrb tags --json` on the same run.
 * A real code-server and Chromium, on the demo run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { FrameLocator } from 'playwright-core';
import { workbench } from './harness';
import { formatPercent } from '../../src/shared/format';

const wb = workbench({ name: 'behaviour' });
const webview = (): FrameLocator => wb.webview();

interface TagsJson {
  trajectories: number;
  tags: Record<string, { count: number; rate: number; successTagged: number | null; successUntagged: number | null } | null>;
}
/** `rlrb tags <run> --json`: the figures every view must show. */
function cliTags(): TagsJson {
  const r = spawnSync('node', ['dist/cli.js', 'tags', wb.run, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as TagsJson;
}

wb.journey("B1. the legend's repeat tag filters the table (a visible chip); its count is the CLI's", async () => {
  await wb.openTrajectory('0 0 0');
  const wv = webview();
  await wv.locator('#detail-title', { hasText: 'iteration 0 · group 0 · rollout 0' }).waitFor({ timeout: 60_000 });
  await wv.locator('#clear-all').click();
  await wv.locator('#jump-label', { hasText: /^all \d+ trajectories$/ }).waitFor({ timeout: 20_000 });
  const cli = cliTags();
  const repeat = cli.tags['repeat'];
  assert.ok(repeat && repeat.count > 0, 'the demo run has repeats');
  await wv.locator('#tags-legend [data-tag-filter="repeat"]').click();
  await wv.locator('.chip[data-chip="tag-repeat"]').waitFor({ timeout: 20_000 });
  assert.deepEqual(await wv.locator('.chip').allTextContents(), ['tag repeat']);
  await wv
    .locator('#jump-label', { hasText: `${repeat.count} of ${cli.trajectories} trajectories · tag repeat` })
    .waitFor({ timeout: 20_000 });
  // every row shown carries the repeat flag
  await wv.locator('.trow').first().waitFor({ timeout: 20_000 });
  const rows = await wv.locator('.trow').count();
  assert.equal(await wv.locator('.trow [data-tag-filter="repeat"]').count(), rows);
  await wb.shot('repeat-chip');
});

wb.continued('B2. a repeat trajectory: its tags in the header, its repeat turns marked, Next mark reaches them', async () => {
  const wv = webview();
  await wv.locator('.trow').first().click();
  await wv.locator('#detail-tags [data-tag-filter="repeat"]').waitFor({ timeout: 20_000 });
  // the strip marks the repeat's turns, and the turns carry the mark
  assert.ok((await wv.locator('#turn-strip [data-mark="repeat"]').count()) >= 3, 'a repeat is three turns at least');
  assert.ok((await wv.locator('.turn [data-mark="repeat"]').count()) >= 3);
  // fresh, the detail starts at the first turn of the repeat (the table is filtered for it)
  await wv.locator('.turn.target [data-mark="repeat"]').waitFor({ timeout: 10_000 });
  await wv.locator('#detail').evaluate((e) => e.scrollTo(0, 0));
  const marked = await wv.locator('#turn-strip button.marked').count();
  const visited: string[] = [];
  for (let i = 0; i < marked; i++) {
    await wv.locator('#next-mark').click();
    const t = wv.locator('.turn.target');
    visited.push((await t.getAttribute('data-turn')) ?? '');
    if ((await t.locator('[data-mark="repeat"]').count()) > 0) break;
  }
  assert.ok(
    (await wv.locator('.turn.target [data-mark="repeat"]').count()) === 1,
    `Next mark reached a repeat turn (visited ${visited.join(', ')})`,
  );
  await wv.locator('.turn.target').scrollIntoViewIfNeeded();
  await wb.shot('repeat-turns');
  await wb.theme('Light Modern');
  await wb.shot('repeat-turns-light');
  await wb.theme('Dark Modern');
});

wb.continued('B3. a tag on a row is one click to its chip; removing the chip lifts the filter', async () => {
  const wv = webview();
  await wv.locator('.chip[data-chip="tag-repeat"] button').click();
  await wv.locator('#jump-label', { hasText: /^all \d+ trajectories$/ }).waitFor({ timeout: 20_000 });
  const cli = cliTags();
  const flag = wv.locator('.trow [data-tag-filter="falseDone"]').first();
  await flag.waitFor({ timeout: 20_000 });
  await flag.click();
  await wv.locator('.chip[data-chip="tag-falseDone"]').waitFor({ timeout: 20_000 });
  await wv
    .locator('#jump-label', { hasText: `${cli.tags['falseDone']!.count} of ${cli.trajectories} trajectories · tag false done` })
    .waitFor({ timeout: 20_000 });
  await wb.shot('falseDone-chip');
  await wv.locator('#clear-all').click();
  await wv.locator('#jump-label', { hasText: /^all \d+ trajectories$/ }).waitFor({ timeout: 20_000 });
});

wb.journey("B4. the report's behaviour section: each tag's figures are the CLI's; a row opens its trajectories", async () => {
  await wb.command('RL Runs: Open Run Report');
  const wv = webview();
  const row = wv.locator('#behaviour tr[data-tag="repeat"]');
  await row.waitFor({ timeout: 60_000 });
  const cli = cliTags();
  for (const [tag, f] of Object.entries(cli.tags)) {
    const r = wv.locator(`#behaviour tr[data-tag="${tag}"]`);
    assert.equal(await r.locator('[data-field="count"]').textContent(), f === null ? '—' : f.count.toLocaleString('en-US'), tag);
    assert.equal(await r.locator('[data-field="rate"]').textContent(), formatPercent(f?.rate), tag);
    assert.equal(await r.locator('[data-field="successTagged"]').textContent(), formatPercent(f?.successTagged), tag);
  }
  await row.scrollIntoViewIfNeeded();
  await wb.shot('report-behaviour');
  await wb.theme('Light Modern');
  await wb.shot('report-behaviour-light');
  await wb.theme('Dark Modern');
  await row.locator('button').click();
  const br = webview();
  await br.locator('.chip[data-chip="tag-repeat"]').waitFor({ timeout: 60_000 });
  await br
    .locator('#jump-label', { hasText: `${cli.tags['repeat']!.count} of ${cli.trajectories} trajectories · tag repeat` })
    .waitFor({ timeout: 20_000 });
});
