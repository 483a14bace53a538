/**
 * The trajectory browser as a researcher uses it (issue: honest at a glance): chips for
 * every filter, marks on the turns, the group side by side, skeletons, the split, bidi
 * controls made visible. A real code-server and Chromium, on the demo run plus one
 * hand-made group (iteration 44, group 900) whose marks are known.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';
import { settled, until, workbench } from './harness';
import { appendRecords, steps } from './steps';

const A1 = -0.239;
const plain = (A: number, x: number): Record<string, unknown> => ({
  action: `click(point_2d=[${x}, 10])`,
  candidates: [`click(point_2d=[${x}, 10])`, 'click(point_2d=[900, 900])'],
  scores: [0.1, 0.2],
  same: [true, false],
  c: -0.005,
  A_t: A + 0.4 * -0.005,
});
/** rollout 1: eight plain turns, then a sign flip (A -0.2390 -> A_t +0.1610, c clipped at 1), then a masked done */
const GROUP = [
  {
    iteration: 44,
    group: 900,
    rollout: 0,
    task_id: 't900',
    instruction: 'open the file',
    reward: 1,
    A: 0.5,
    labeled: true,
    turns: [plain(0.5, 10), plain(0.5, 20)],
  },
  {
    iteration: 44,
    group: 900,
    rollout: 1,
    task_id: 't900',
    instruction: 'rename \u202Elive.txt',
    reward: 0,
    A: A1,
    labeled: true,
    turns: [
      ...Array.from({ length: 8 }, (_, i) => plain(A1, i === 1 ? 20 : 10 + i * 100)),
      { action: 'done()', candidates: ['done()', 'scroll(dy=3)'], scores: [40, 0], same: [true, false], c: 1, A_t: A1 + 0.4 },
      {
        action: 'done()',
        candidates: ['done()', 'done()'],
        scores: [0.1, 0.2],
        same: [true, true],
        done: [true, true],
        masked: true,
        c: null,
        A_t: A1,
      },
    ],
  },
  {
    iteration: 44,
    group: 900,
    rollout: 2,
    task_id: 't900',
    instruction: 'open the file',
    reward: 0,
    A: A1,
    labeled: true,
    turns: [plain(A1, 10), { ...plain(A1, 10), action: 'scroll(dy=3)', candidates: ['scroll(dy=3)', 'done()'] }],
  },
];

const wb = workbench({ name: 'browser', prepare: appendRecords(GROUP) });
const run = wb.run;
const { shot, webview, command } = steps(wb);

/** The palette command that opens one trajectory, answered with "iteration group rollout". */
async function openTrajectory(key: string): Promise<void> {
  // the workbench sometimes closes a fresh input box when focus moves (a webview
  // redrawing after a live update): ask again, at most three times
  for (let attempt = 1; ; attempt++) {
    try {
      await command('RL Runs: Open Trajectory by Iteration/Group/Rollout…');
      const input = wb.page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(key, { timeout: 10_000 });
      await input.press('Enter');
      // an answer the box took closes it; one that did not arrive leaves it open and empty: ask again
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await wb.page.keyboard.press('Escape');
    }
  }
}

wb.journey(
  '1. a flag filter is a chip; the detail of a trajectory outside the table says so; opening one for a flag scrolls to its first flagged turn',
  async () => {
    await openTrajectory('44 900 0');
    const wv = webview();
    await wv.locator('#detail-title', { hasText: 'iteration 44 · group 900 · rollout 0' }).waitFor({ timeout: 60_000 });
    await wv.locator('#f-group').fill('900');
    await wv.locator('#f-group').press('Enter');
    await wv.locator('#f-flip').check();
    await wv.locator('.chip[data-chip="flag-1"]').waitFor({ timeout: 20_000 });
    // the open command's own filter (its iteration, by rollout) is a chip too
    assert.deepEqual(await wv.locator('.chip').allTextContents(), ['iteration 44', 'group 900', 'has sign flip', 'sort rollout ↑']);
    // the labelled input keeps its label once filled
    assert.match((await wv.locator('label.field', { has: wv.locator('#f-group') }).textContent())!, /group/);
    await wv.locator('#detail-outside').waitFor({ timeout: 20_000 });
    await wv
      .locator('#jump-label', { hasText: /^1 of \d+ trajectories · iteration 44 · group 900 · has sign flip$/ })
      .waitFor({ timeout: 20_000 });
    await shot('chips-outside');
    await wv.locator('.trow[data-key="44/900/1"]').click();
    await wv.locator('#detail-title', { hasText: 'rollout 1' }).waitFor({ timeout: 20_000 });
    assert.equal(await wv.locator('#detail-outside').count(), 0, 'a row of the table is not "outside the table"');
    const target = wv.locator('.turn.target[data-turn="8"]');
    await target.waitFor({ timeout: 10_000 });
    const pane = (await wv.locator('#detail').boundingBox())!;
    const box = (await target.boundingBox())!;
    assert.ok(box.y >= pane.y - 1 && box.y < pane.y + pane.height, `turn 8 is scrolled into view (${box.y} in ${pane.y}+${pane.height})`);
    await pageNotScrolled('scrolled to turn 8');
    await shot('flip-scrolled');
  },
);

wb.continued(
  '2. the sign flip, the clip and the masked turn are marked on the turns; agreeing c is a check; the strip lists every turn',
  async () => {
    const wv = webview();
    const flip = wv.locator('.turn[data-turn="8"]');
    assert.equal(await flip.locator('[data-mark="signFlip"]').count(), 1);
    assert.equal(await flip.locator('[data-mark="clipped"]').count(), 1);
    assert.equal(await flip.locator('[data-mark="cMismatch"], [data-mark="aTMismatch"]').count(), 0);
    assert.equal(await flip.locator('[data-field="A-line"]').textContent(), 'A -0.2390 → A_t +0.1610');
    const plainTurn = wv.locator('.turn[data-turn="0"]');
    assert.equal(await plainTurn.locator('[data-field="c-agrees"]').count(), 1, 'a check, not a second number');
    assert.equal(await plainTurn.locator('[data-field="c-recomputed"]').count(), 0);
    const masked = wv.locator('.turn[data-turn="9"]');
    assert.equal(await masked.locator('[data-field="c"]').textContent(), 'masked');
    assert.deepEqual(await masked.locator('[data-field="d"]').allTextContents(), ['', '']);
    assert.equal(await masked.locator('[data-mark="masked"]').count(), 1);
    assert.equal(await wv.locator('#turn-strip button').count(), 10);
    assert.equal(await wv.locator('#turn-strip button.marked').count(), 1);
    assert.ok((await wv.locator('#marks-legend').textContent())!.includes('sign flip'));
    // bidi controls in the log are shown as tokens
    assert.equal(await wv.locator('#instruction').textContent(), 'rename <U+202E>live.txt');
    assert.equal(await wv.locator('#instruction .bidi').count(), 1);
    await wv.locator('#detail').evaluate((e) => e.scrollTo(0, 0));
    await shot('marks-strip');
  },
);

wb.continued('3. the group view: a column per rollout, the first diverging turn, the gate difference from the report', async () => {
  const wv = webview();
  await wv.locator('#toggle-group').click();
  await wv.locator('#siblings').waitFor();
  assert.equal(await wv.locator('#siblings .cell.head').count(), 3);
  // turn 0 is the same click everywhere; turn 1: click at 20 (0 and 1) against scroll (2)
  assert.deepEqual(await wv.locator('#siblings .cell.diverge').evaluateAll((els) => els.map((e) => e.getAttribute('data-turn'))), [
    '1',
    '1',
    '1',
  ]);
  const idx = new CreditIndex(join(run, 'logs', 'ws_credit_log.jsonl'));
  await idx.update();
  const g = computeReport(idx).gateGroups.find((x) => x.iteration === 44 && x.group === 900);
  assert.ok(g, 'the group counts for the gate');
  assert.match((await wv.locator('#group-gate').textContent())!, /^counts for the gate/);
  assert.equal(await wv.locator('#group-gate [data-field="gate-diff"]').textContent(), (g.diff >= 0 ? '+' : '') + g.diff.toFixed(4));
  await wv.locator('#group-gate').scrollIntoViewIfNeeded();
  await shot('group');
  await wv.locator('#toggle-group').click();
});

wb.continued('4. removing chips, zero matches, Clear all; the header never keeps a stale filter', async () => {
  const wv = webview();
  await wv.locator('.chip[data-chip="flag-1"] button').click();
  await wv.locator('#jump-label', { hasText: /^3 of \d+ trajectories · iteration 44 · group 900$/ }).waitFor({ timeout: 20_000 });
  await wv.locator('#f-iterationMin').fill('40');
  await wv.locator('#f-iterationMin').press('Enter');
  await wv.locator('#f-iterationMax').fill('30');
  await wv.locator('#f-iterationMax').press('Enter');
  await wv.locator('#zero-matches').waitFor({ timeout: 20_000 });
  // the detail's trajectory is in no row now: the detail says so, never shown as if the list held it
  await wv
    .locator('#detail-outside[data-why="filtered"]', { hasText: 'not in the table under the current filters' })
    .waitFor({ timeout: 20_000 });
  await shot('zero');
  await wv.locator('#zero-clear').click();
  await wv.locator('#jump-label', { hasText: /^all \d+ trajectories$/ }).waitFor({ timeout: 20_000 });
  await wv.locator('#detail-outside').waitFor({ state: 'detached', timeout: 20_000 });
  assert.equal(await wv.locator('#f-iterationMin').inputValue(), '');
  // "Clear all filters" keeps the sort, still shown as its chip; the toolbar's Clear all drops it too
  assert.deepEqual(await wv.locator('.chip').allTextContents(), ['sort rollout ↑']);
  await wv.locator('#clear-all').click();
  await wv.locator('.chip').first().waitFor({ state: 'detached', timeout: 20_000 });
});

/** Only the browser's scrollers scrolled: not its page, nor the workbench around the webview (its banner would be cut off). */
async function pageNotScrolled(what: string): Promise<void> {
  // strings: the tests compile without the DOM's types
  const page = await webview().locator('body').evaluate<number, undefined>(`document.scrollingElement.scrollTop`);
  assert.equal(page, 0, `${what}: the page itself is not scrolled`);
  // every webview frame's ancestors, scrolled or not (the workbench scrolls none of them itself)
  const around = await wb.page.evaluate<number>(
    `Math.max(0, ...[...document.querySelectorAll('iframe.webview')].map((f) => { let n = 0; for (let e = f.parentElement; e; e = e.parentElement) n += e.scrollTop; return n; }))`,
  );
  assert.equal(around, 0, `${what}: the workbench around the webview is not scrolled`);
}

/** The detail's trajectory as the table keys it ("iteration/group/rollout"). */
async function detailKey(): Promise<string> {
  const t = (await webview().locator('#detail-title').textContent()) ?? '';
  const m = /iteration (\d+) · group (\d+) · rollout (\d+)/.exec(t);
  assert.ok(m, `the detail's title: ${t}`);
  return `${m[1]}/${m[2]}/${m[3]}`;
}

/** The table's highlighted row is the detail's trajectory, and it lies inside the table's viewport. */
/** Whether the highlighted row is inside the table's view. */
async function selectionInView(): Promise<boolean> {
  const wv = webview();
  if ((await wv.locator('.trow.sel').count()) !== 1) return false;
  const row = await wv.locator('.trow.sel').boundingBox();
  const view = await wv.locator('#table').boundingBox();
  return !!row && !!view && row.y >= view.y - 1 && row.y + row.height <= view.y + view.height + 1;
}

async function selectionShown(what: string): Promise<void> {
  const wv = webview();
  const key = await detailKey();
  const sel = wv.locator('.trow.sel');
  await sel.waitFor({ timeout: 20_000 });
  assert.equal(await sel.count(), 1, `${what}: one highlighted row`);
  assert.equal(await sel.getAttribute('data-key'), key, `${what}: the highlighted row is the detail's`);
  const row = (await sel.boundingBox())!;
  const view = (await wv.locator('#table').boundingBox())!;
  assert.ok(
    row.y >= view.y - 1 && row.y + row.height <= view.y + view.height + 1,
    `${what}: the row is scrolled into view (row ${row.y}+${row.height}, table ${view.y}+${view.height})`,
  );
  assert.equal(await sel.getAttribute('aria-selected'), 'true', `${what}: the highlighted row is the grid's selected one`);
  await pageNotScrolled(what);
}

/** Waits until the detail shows the trajectory `key` ("iteration/group/rollout"), drawn. */
async function detailShows(key: string): Promise<void> {
  const wv = webview();
  const [iteration, group, rollout] = key.split('/');
  const title = new RegExp(`iteration ${iteration} · group ${group} · rollout ${rollout}\\b`);
  await wv.locator('#detail-title', { hasText: title }).waitFor({ timeout: 20_000 });
  await wv.locator('#detail-skeleton').waitFor({ state: 'detached', timeout: 20_000 });
}

/** `chord` (the workbench's previous / next trajectory) moves the detail and the highlighted row to row `index`. */
async function moveTo(chord: string, index: number, what: string): Promise<void> {
  const wv = webview();
  const key = (await wv.locator(`.trow[data-index="${index}"]`).getAttribute('data-key', { timeout: 20_000 })) ?? '';
  await wb.page.keyboard.press(chord);
  await wv.locator(`.trow.sel[data-index="${index}"]`).waitFor({ timeout: 20_000 });
  await detailShows(key);
  await selectionShown(what);
}

/** Opens row `index`, at an end of the table, where `chord` (which would leave it) keeps the detail and the highlighted row. */
async function staysAt(chord: string, index: number, what: string): Promise<void> {
  const wv = webview();
  const row = wv.locator(`.trow[data-index="${index}"]`);
  const key = (await row.getAttribute('data-key', { timeout: 20_000 })) ?? '';
  await row.click();
  await detailShows(key);
  await wb.page.keyboard.press(chord);
  // the one fixed wait left: that nothing happens has no state to wait on (the chord's answer comes
  // from the extension host and changes nothing; a Next Turn sent after it as an ack raced the redraw)
  await wb.page.waitForTimeout(800);
  assert.equal(await detailKey(), key, `${what}: the detail stays`);
  assert.equal(await wv.locator('.trow.sel').getAttribute('data-index'), String(index), `${what}: the highlighted row stays`);
  assert.equal(await wv.locator('#detail-skeleton').count(), 0, `${what}: the detail is drawn, not waiting`);
  await selectionShown(what);
}

wb.continued("4b. after Clear all focus stays in the table; the detail's row is always highlighted and in view", async () => {
  const wv = webview();
  const focused = (): Promise<string> =>
    wv
      .locator('body')
      .evaluate<string, undefined>(`document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : ''`);
  await wv.locator('.thead [data-key="turns"]').click();
  await wv.locator('.chip', { hasText: 'sort turns' }).waitFor({ timeout: 20_000 });
  await wv.locator('#clear-all').click();
  await wv.locator('.chip').first().waitFor({ state: 'detached', timeout: 20_000 });
  assert.equal(await focused(), 'table', 'Clear all leaves focus in the table, not on the page body');
  // the keys, upwards (the detail's trajectory, of group 900, is the table's last row):
  // up, up, Enter opens the row (the detail shows another trajectory: the one before had a title too)
  const before = await detailKey();
  await wb.page.keyboard.press('ArrowUp');
  await wb.page.keyboard.press('ArrowUp');
  await wb.page.keyboard.press('Enter');
  await until(async () => (await detailKey().catch(() => before)) !== before, 'Enter opens the highlighted row', 20_000);
  const opened = await wv.locator('.trow.sel').getAttribute('data-key');
  await wv.locator('#detail-title', { hasText: new RegExp(`rollout ${opened?.split('/')[2]}\\b`) }).waitFor({ timeout: 20_000 });
  await selectionShown('Enter');
  // Alt+Up / Alt+Down (the workbench's previous / next trajectory) move the highlighted row with the
  // detail and keep it in view (the page's own Alt+arrow, a page-long scroll, carried the table away)
  const at = Number(await wv.locator('.trow.sel').getAttribute('data-index'));
  await moveTo('Alt+ArrowUp', at - 1, 'Alt+Up');
  await moveTo('Alt+ArrowDown', at, 'Alt+Down');
  // a sort moves the trajectory far down the table: it is highlighted there and scrolled to
  await wv.locator('.thead [data-key="turns"]').click();
  await wv.locator('.chip', { hasText: 'sort turns' }).waitFor({ timeout: 20_000 });
  // the sorted page comes from the host, then the highlighted row is scrolled to
  await until(selectionInView, 'a new sort: the highlighted row in view', 20_000);
  await selectionShown('a new sort');
  // scrolling far down fetches other pages: the table stays where it was scrolled (no jump back to the selection)
  const far = 450 * 22;
  // strings: the tests compile without the DOM's types
  await wv.locator('#table').evaluate<void, undefined>(`void (document.getElementById('table').scrollTop = ${far})`);
  await wv.locator('.trow[data-index="455"]').waitFor({ timeout: 20_000 });
  // the fetched page drawn: a jump back to the selection would have happened by now
  await settled(wb.page);
  const top = await wv.locator('#table').evaluate<number, undefined>(`document.getElementById('table').scrollTop`);
  assert.ok(Math.abs(top - far) < 30, `the table stays scrolled where the user put it (${top} against ${far})`);
  await wb.shot('selection-after-clear');
  // the table's first and last rows: Alt+Up / Alt+Down past them keep the row, the other way moves on
  await wv.locator('#table').evaluate<void, undefined>(`void (document.getElementById('table').scrollTop = 0)`);
  await staysAt('Alt+ArrowUp', 0, 'Alt+Up on the first row');
  await moveTo('Alt+ArrowDown', 1, 'Alt+Down from the first row');
  const total = Number(/^(\d+) of/.exec((await wv.locator('#row-count').textContent()) ?? '')?.[1]);
  assert.ok(total > 2, `the table's rows (${total})`);
  await wv.locator('#table').evaluate<void, undefined>(`void (document.getElementById('table').scrollTop = 1e9)`);
  await staysAt('Alt+ArrowDown', total - 1, 'Alt+Down on the last row');
  await moveTo('Alt+ArrowUp', total - 2, 'Alt+Up from the last row');
  await wv.locator('#clear-all').click();
  await wv.locator('.chip').first().waitFor({ state: 'detached', timeout: 20_000 });
});

wb.continued('5. the split resizes by keyboard and is remembered; a hidden tab comes back drawn, never blank', async () => {
  const wv = webview();
  const split = wv.locator('#splitter');
  const before = Number(await split.getAttribute('aria-valuenow'));
  await split.focus();
  for (let i = 0; i < 5; i++) await split.press('ArrowLeft');
  assert.equal(Number(await split.getAttribute('aria-valuenow')), before - 10);
  // the split is kept with the panel's state (a message to the workbench) once the page has settled
  await settled(wb.page);
  await command('RL Runs: Open Metrics');
  await webview().locator('.chart-card').first().waitFor({ timeout: 60_000 });
  await wb.page.locator('.tabs-container .tab', { hasText: 'Trajectories' }).click();
  const back = webview();
  await back.locator('#splitter').waitFor({ timeout: 20_000 });
  await shot('tab-back');
  assert.ok((await back.locator('.trow, #table-skeleton').count()) > 0, 'rows or their skeleton, at once');
  assert.ok((await back.locator('#detail-title, #detail-skeleton').count()) > 0, 'the detail or its skeleton, at once');
  assert.equal(Number(await back.locator('#splitter').getAttribute('aria-valuenow')), before - 10);
});

/** Opens a checkpoint's eval episodes from the RL Runs view (its Evaluations node), in the browser already open. */
async function openEvalEpisodes(iteration: number): Promise<void> {
  const page = wb.page;
  const icon = page.locator('.activitybar .action-item', { has: page.locator('a[aria-label^="RL Runs"]') });
  if (!(await icon.getAttribute('class'))?.includes('checked')) await icon.locator('a').click();
  const runRow = page.locator('.monaco-list-row', { hasText: /^run\s*(\d+ data problems? · )?\d+ trajectories/ });
  await runRow.waitFor({ timeout: 60_000 });
  const evalsRow = page.locator('.monaco-list-row', { hasText: /^Evaluations$/ }).first();
  if (!(await evalsRow.isVisible())) await runRow.click();
  await evalsRow.waitFor({ timeout: 30_000 });
  await evalsRow.click();
  const node = page.locator('.monaco-list-row', { hasText: `iter ${iteration}` }).first();
  await node.waitFor({ timeout: 30_000 });
  await node.click();
}

/** The browser at `width` px in the current theme, laid out again, as a screenshot. */
async function shotAt(width: number, name: string): Promise<void> {
  await wb.page.setViewportSize({ width, height: 1000 });
  await settled(wb.page);
  await shot(name);
}

wb.continued(
  '6. a text search marks where it matched, in the row and in the turns; eval episodes beside a trajectory say it is not listed',
  async () => {
    const wv = webview();
    await wv.locator('#f-group').fill('900');
    await wv.locator('#f-group').press('Enter');
    // the search field is the controls' text field: its input is in its shadow root
    await wv.locator('#f-text input').fill('dy=3');
    const found = (key: string): ReturnType<typeof wv.locator> => wv.locator(`.trow[data-key="${key}"] .match-cell`);
    await found('44/900/2').locator('mark.hit').waitFor({ timeout: 30_000 });
    assert.equal(await wv.locator('.trow').count(), 2, 'rollouts 1 and 2 hold the text');
    assert.equal(await wv.locator('.thead .match-head').textContent(), 'found');
    // where, and the text around the hit, the hit marked (as text: no markup from the log)
    assert.equal(await found('44/900/2').textContent(), 'turn 1 scroll(dy=3)');
    assert.equal(await found('44/900/1').textContent(), 'turn 8 candidate 1 scroll(dy=3)');
    assert.deepEqual(await wv.locator('.match-cell mark.hit').allTextContents(), ['dy=3', 'dy=3']);
    await wv.locator('.trow[data-key="44/900/2"]').click();
    await detailShows('44/900/2');
    // the turn's action and its candidate marked, the turn flagged in the strip and scrolled to; turn 0 has none
    // (a hit across a token's break is two marks side by side: one field's marks read the text)
    const marked = wv.locator('#detail .turn[data-turn="1"] [data-field]', { has: wv.locator('mark.hit') });
    assert.deepEqual(await marked.evaluateAll((els) => els.map((e) => e.getAttribute('data-field'))), ['action', 'candidate']);
    assert.equal((await wv.locator('#detail .turn[data-turn="1"] [data-field="action"] mark.hit').allTextContents()).join(''), 'dy=3');
    assert.equal(await wv.locator('#detail .turn[data-turn="0"] mark.hit').count(), 0);
    assert.equal(await wv.locator('#turn-strip button.hit').getAttribute('data-turn'), '1');
    await wv.locator('#detail .turn.target[data-turn="1"]').waitFor({ timeout: 10_000 });
    assert.equal(await wv.locator('#search-hits').textContent(), 'search dy=3: found in turn 1');
    await shotAt(1600, 'search-1600-dark');
    await shotAt(820, 'search-820-dark');
    await wb.theme('Light Modern');
    await shotAt(820, 'search-820-light');
    await shotAt(1600, 'search-1600-light');
    await wb.theme('Dark Modern');
    // a text no trajectory holds: no row, and the detail says its trajectory is not in the list
    await wv.locator('#f-text input').fill('no trajectory says this');
    await wv.locator('#zero-matches').waitFor({ timeout: 30_000 });
    await wv.locator('#detail-outside[data-why="filtered"]').waitFor({ timeout: 20_000 });
    assert.equal(await wv.locator('#detail [data-field] mark.hit').count(), 0, 'the marks follow the text searched now');
    // eval episodes opened while a training trajectory is shown: the detail says the list does not hold it
    await openEvalEpisodes(39);
    await wv.locator('#row-count', { hasText: 'evaluation episodes' }).waitFor({ timeout: 60_000 });
    await wv
      .locator('#detail-outside[data-why="otherSource"]', { hasText: 'which lists the evaluation episodes of iteration 39' })
      .waitFor({ timeout: 20_000 });
    assert.match((await wv.locator('#detail-title').textContent()) ?? '', /iteration 44 · group 900 · rollout 2/);
    await shot('eval-beside-trajectory');
    // (its first cell: the middle of an episode's row can be a tag, which filters)
    await wv.locator('.trow[data-index="0"] [role="gridcell"]').first().click();
    await wv.locator('#no-candidates').waitFor({ timeout: 30_000 });
    assert.equal(await wv.locator('#detail-outside').count(), 0, 'an episode of the list is in the list');
    // back to the training rollouts: the episode is not among them, and says so
    await wv.locator('#chips [data-chip="eval"] button').click();
    await wv
      .locator('#detail-outside[data-why="otherSource"]', { hasText: 'which lists training trajectories' })
      .waitFor({ timeout: 30_000 });
  },
);
