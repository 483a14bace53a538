/**
 * Honest at a glance, as a researcher reads the browser and the report (issue 13, items 6-10):
 * the table's flag legend and flags at a narrow width, numbers per quantity, the group view
 * of eight rollouts with long code-like actions wrapped between tokens, "Compare side by
 * side", bidi controls made visible in the report, and a report row that opens its turns.
 * A real code-server and Chromium, on the demo run plus one hand-made group (iteration 44,
 * group 901, eight rollouts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { workbench } from './harness';
import { appendRecords, steps } from './steps';

const BETA = 0.4;
const C = 0.00544;
/** a long code-like action whose tokens (`target_element_id=`, `"search_input_field_3"`) must never break */
const typing = (r: number, t: number): string =>
  `type(text="the quick brown fox ${r} jumps over", target_element_id="search_input_field_${t}", press_enter_after=true)`;
const turn = (A: number, action: string, c = C): Record<string, unknown> => ({
  action,
  candidates: [action, 'scroll(direction="down", amount=3)'],
  scores: [0.4, 0.1],
  same: [true, false],
  c,
  A_t: A + BETA * c,
});
/** eight rollouts: 0, 3 and 6 succeed; rollout 1 has a sign flip at turn 5 (c clipped at 1); they diverge at turn 2 */
const GROUP = Array.from({ length: 8 }, (_, r) => {
  const reward = r % 3 === 0 ? 1 : 0;
  const A = reward ? 0.4472 : -0.239;
  return {
    iteration: 44,
    group: 901,
    rollout: r,
    task_id: 't\u202E901',
    instruction: 'find the \u202Eevil file and rename it',
    reward,
    A,
    labeled: true,
    'note\u202Ekey': 'an extra field whose name holds a bidi control',
    turns: Array.from({ length: 6 + (r % 3) }, (_, t) =>
      t < 2 ? turn(A, 'click(point_2d=[120, 340])') : turn(A, typing(r, t), r === 1 && t === 5 ? 1 : C),
    ),
  };
});

const wb = workbench({ name: 'browse', prepare: appendRecords(GROUP) });
const run = wb.run;
const { webview } = steps(wb);

/** The browser showing only the hand-made group, at `width` pixels of window, the split at its narrowest. */
async function browserOnGroup(width: number): Promise<FrameLocator> {
  await wb.page.setViewportSize({ width, height: 1000 });
  // the workbench sometimes closes a fresh input box when focus moves (as browser.test.ts does: ask again, at most three times)
  for (let attempt = 1; ; attempt++) {
    try {
      await wb.openTrajectory('44 901 1');
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await wb.page.keyboard.press('Escape');
    }
  }
  const wv = webview();
  await wv.locator('#detail-title', { hasText: 'iteration 44 · group 901 · rollout 1' }).waitFor({ timeout: 60_000 });
  await wv.locator('#f-group').fill('901');
  await wv.locator('#f-group').press('Enter');
  await wv.locator('.chip[data-chip="group"]').waitFor({ timeout: 20_000 });
  await wv.locator('#jump-label', { hasText: /^8 of \d+ trajectories/ }).waitFor({ timeout: 20_000 });
  return wv;
}

wb.journey(
  'B1. the table keeps its flags in view at the narrowest split, shows every column on a narrow panel, explains its flags in a visible legend, and writes numbers per quantity',
  async () => {
    const wv = await browserOnGroup(1600);
    await wv.locator('#splitter').focus();
    await wv.locator('#splitter').press('Home');
    await wv.locator('.trow[data-key="44/901/1"]').waitFor({ timeout: 20_000 });
    const flip = wv.locator('.trow[data-key="44/901/1"] [data-flag="flip"]');
    assert.equal((await flip.textContent())!.trim(), '1');
    const inTable = async (what: string): Promise<void> => {
      const table = (await wv.locator('#table').boundingBox())!;
      const box = (await flip.boundingBox())!;
      assert.ok(
        box.x >= table.x && box.x + box.width <= table.x + table.width + 0.5,
        `${what}: the flag (${box.x}+${box.width}) is in the table (${table.x}+${table.width})`,
      );
    };
    assert.ok((await wv.locator('#table').boundingBox())!.width < 420, 'the split at its narrowest');
    await inTable('narrowest split');
    await wb.shot('narrowest-split');
    // a narrow panel: the table above the detail, every column in view and none under the flags
    await wb.page.setViewportSize({ width: 1000, height: 1000 });
    await wv.locator('#splitter').waitFor({ state: 'hidden', timeout: 10_000 });
    await inTable('narrow panel');
    const meanC = (await wv.locator('.trow[data-key="44/901/1"] span:nth-child(8)').boundingBox())!;
    const flags = (await wv.locator('.trow[data-key="44/901/1"] span:nth-child(9)').boundingBox())!;
    assert.ok(meanC.x + meanC.width <= flags.x + 0.5, 'mean c is not under the flags');
    // no header label under another (each header button ends before the next begins)
    const heads = await wv.locator('.thead button').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { key: e.getAttribute('data-key'), left: Math.round(r.left), right: Math.round(r.right) };
      }),
    );
    assert.ok(
      heads.every((hd, i) => i === 0 || heads[i - 1]!.right <= hd.left),
      `header labels overlap: ${JSON.stringify(heads)}`,
    );
    // the legend is on the page, not in a tooltip
    const legend = wv.locator('#flags-legend');
    assert.ok(await legend.isVisible());
    const words = (await legend.textContent())!;
    for (const w of ['labeled', 'sign-flip turns', 'executed = argmax', 'fallback turns', 'c or A_t ≠ recomputed'])
      assert.ok(words.includes(w), w);
    assert.match((await wv.locator('.thead [data-key="flags"]').getAttribute('title'))!, /A_t has the other sign than A/);
    // numbers per quantity: A and mean c signed with three decimals, rewards whole, no scientific notation anywhere
    const cells = (n: number): Promise<string[]> => wv.locator(`.trow span:nth-child(${n})`).allTextContents();
    assert.deepEqual([...new Set(await cells(4))].sort(), ['0', '1']);
    for (const a of await cells(5)) assert.match(a, /^[+-]\d\.\d{3}$/);
    for (const c of await cells(8)) assert.match(c, /^[+-]\d\.\d{3}$/);
    assert.ok((await cells(8)).includes('+0.005'), 'mean c 0.00544 reads +0.005, not 5.44e-3');
    assert.doesNotMatch((await wv.locator('#table').textContent())!, /\de-\d/);
    await wb.shot('narrow-panel-table-legend');
  },
);

wb.continued('B2. the group view: eight rollouts side by side, long actions wrapped between tokens, A_t signed; two compared', async () => {
  const wv = webview();
  await wb.page.setViewportSize({ width: 1600, height: 1000 });
  await wv.locator('#splitter').focus();
  await wv.locator('#splitter').press('Home');
  await wv.locator('#toggle-group').click();
  await wv.locator('#siblings').waitFor();
  assert.equal(await wv.locator('#siblings .cell.head').count(), 8);
  assert.deepEqual(
    await wv.locator('#siblings .cell.diverge').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-turn')))]),
    ['2'],
  );
  // every token on one line and inside its cell: the wrap falls between tokens only
  const broken = await wv.locator('#siblings .tok').evaluateAll((els) =>
    els
      .filter((e) => {
        const cell = e.closest('.cell')!.getBoundingClientRect();
        const r = e.getBoundingClientRect();
        return e.getClientRects().length !== 1 || r.right > cell.right + 0.5 || r.left < cell.left - 0.5;
      })
      .map((e) => e.textContent),
  );
  assert.deepEqual(broken, [], 'tokens broken or cut');
  assert.ok((await wv.locator('#siblings .tok', { hasText: '"search_input_field_3",' }).count()) >= 6);
  const nums = await wv.locator('#siblings .cell .nums').allTextContents();
  assert.ok(
    nums.some((t) => /^c \+0\.005 · A_t -0\.237$/.test(t)),
    nums.slice(0, 4).join(' | '),
  );
  assert.doesNotMatch((await wv.locator('#siblings').textContent())!, /\de-\d/);
  await wv.locator('#siblings .cell.diverge').first().scrollIntoViewIfNeeded();
  await wb.shot('group-eight-rollouts');
  // Compare side by side: two ticked rollouts go to the side-by-side command (or the user is told it is not there)
  assert.equal(await wv.locator('#compare-siblings').isDisabled(), true);
  await wv.locator('input[data-compare="1"]').check();
  await wv.locator('input[data-compare="4"]').check();
  assert.equal((await wv.locator('#compare-picked').textContent())!, 'rollouts 1 and 4');
  const tabs = await wb.page.locator('.tabs-container .tab').count();
  await wv.locator('#compare-siblings').click();
  await Promise.any([
    wb.page.locator('.notification-toast', { hasText: 'side-by-side view is not available' }).waitFor({ timeout: 20_000 }),
    wb.page.locator('.tabs-container .tab').nth(tabs).waitFor({ timeout: 20_000 }),
  ]);
  await wb.shot('compare');
});

wb.journey('B3. a new trajectory opens at its top; a filled filter keeps its label', async () => {
  const wv = await browserOnGroup(1600);
  assert.match((await wv.locator('label.field', { has: wv.locator('#f-group') }).textContent())!, /group/);
  await wv.locator('.trow[data-key="44/901/2"]').click();
  await wv.locator('#detail-title', { hasText: 'rollout 2' }).waitFor({ timeout: 20_000 });
  await wv.locator('#detail').evaluate((e) => e.scrollTo(0, e.scrollHeight));
  assert.ok((await wv.locator('#detail').evaluate((e) => e.scrollTop)) > 100, 'the detail scrolled down');
  await wv.locator('.trow[data-key="44/901/5"]').click();
  await wv.locator('#detail-title', { hasText: 'rollout 5' }).waitFor({ timeout: 20_000 });
  assert.equal(await wv.locator('#detail').evaluate((e) => e.scrollTop), 0, 'the new trajectory starts at its top');
  // the detail's own log text: bidi controls as tokens
  assert.equal(await wv.locator('[data-field="task"]').textContent(), 't<U+202E>901');
  await wb.shot('detail-top');
});

wb.journey(
  'B4. the report shows bidi controls made visible; its sign-flip row opens the browser on exactly those trajectories',
  async () => {
    await wb.page.setViewportSize({ width: 1600, height: 1000 });
    await wb.command('RL Runs: Open Run Report');
    const wv = webview();
    await wv.locator('#report-table').waitFor({ timeout: 60_000 });
    const other = wv.locator('#unknown-keys');
    assert.match((await other.textContent())!, /note<U\+202E>key/);
    assert.equal(await other.locator('.bidi').count(), 1);
    await wv.locator('#report-table tr[data-key="signFlipRate"]').scrollIntoViewIfNeeded();
    await wb.shot('report-before-link');
    await wv.locator('#report-table tr[data-key="signFlipRate"] button').click();
    const tr = webview();
    await tr.locator('#jump-label', { hasText: 'run report: sign-flip turns' }).waitFor({ timeout: 30_000 });
    await tr.locator('.chip[data-chip="flag-1"]').waitFor({ timeout: 20_000 });
    const idx = new CreditIndex(join(run, 'logs', 'ws_credit_log.jsonl'));
    await idx.update();
    let flipped = 0;
    for (let i = 0; i < idx.size; i++) if (idx.row(i).signFlips > 0) flipped++;
    assert.ok(flipped > 0);
    await tr.locator('#row-count', { hasText: `${flipped} of ${idx.size} trajectories` }).waitFor({ timeout: 20_000 });
    await tr.locator('.trow').first().waitFor({ timeout: 20_000 });
    const rows = tr.locator('.trow');
    const n = await rows.count();
    assert.ok(n > 0);
    assert.equal(await tr.locator('.trow [data-flag="flip"]').count(), n, 'every row shown has the sign-flip flag');
    await wb.shot('report-link-browser');
  },
);
