/**
 * The behaviour tags of docs/format.md section 7 against fixtures worked out by hand: each
 * tag, its edges (tolerance 20 and 21, horizon n = H and H - 1, theta exactly +-0.5, key
 * case), the index against the pure tagger, one thread against two worker processes, an
 * append, the saved index, the report, the comparison's z test and the CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { click, fixtureLog, lineOf, plain, plainLog, ROWS } from '../behaviourFixture';
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import type { IndexEngine, IndexOptions } from '../../src/core/log/creditIndex';
import { IndexStore } from '../../src/core/log/indexStore';
import { tagTrajectory } from '../../src/core/behaviour/tagTrajectory';
import { DEFAULT_BEHAVIOUR, Tag, TAG_NAMES, tagNames } from '../../src/core/behaviour/tags';
import type { TagName } from '../../src/core/behaviour/tags';
import { behaviourReport } from '../../src/core/behaviour/report';
import { behaviourComparison, twoProportions } from '../../src/core/compare/behaviour';
import { trajectoryTurnMarks } from '../../src/core/credit/turnMarks';
import { queryRows } from '../../src/core/run/query';
import { describeFilter } from '../../src/core/notebook/describeFilter';
import { DEFAULT_MATCH, sameAction, toolName } from '../../src/core/credit/actions';
import { DONE_KEY, ParsedTexts, SCROLL_KEY, StringActions } from '../../src/core/behaviour/actionSeq';
import { ByteActions } from '../../src/core/behaviour/byteActions';
import { actionWindows } from '../../src/core/behaviour/windows';

const WORKER = resolve('dist/indexWorker.js');

const EXTRA_TAGS: TagName[][] = [['cycle'], ['repeat', 'noDone', 'earlyDone']];

async function indexOf(path: string, options: IndexOptions = DEFAULT_INDEX_OPTIONS, engine: IndexEngine = {}): Promise<CreditIndex> {
  const idx = new CreditIndex(path, options, undefined, engine);
  await idx.update();
  return idx;
}

const withBehaviour = (horizon: number, theta: number): IndexOptions => ({ ...DEFAULT_INDEX_OPTIONS, behaviour: { horizon, theta } });

test('every tag of the hand-worked fixture: tolerance 20 and 21, a scroll run, a repeat of four, a done in the middle, empty, key case', async () => {
  const idx = await indexOf(fixtureLog());
  assert.equal(idx.size, ROWS.length + 2);
  assert.equal(idx.slowPathRows, 1, 'one record read by the slow path');
  const expected = [...ROWS.map((r) => r.tags), ...EXTRA_TAGS];
  for (let i = 0; i < idx.size; i++)
    assert.deepEqual(
      tagNames(idx.tags(i)),
      [...expected[i]!].sort((a, b) => TAG_NAMES.indexOf(a) - TAG_NAMES.indexOf(b)),
      `row ${i}`,
    );
});

test('the index and the pure tagger over the trajectory read whole agree on every row', async () => {
  const idx = await indexOf(fixtureLog());
  for (let i = 0; i < idx.size; i++) {
    const t = await idx.read(i);
    const pure = tagTrajectory(
      { actions: t.turns.map((u) => u.action), reward: t.reward, turns: t.turns },
      DEFAULT_MATCH,
      DEFAULT_BEHAVIOUR,
    );
    assert.equal(pure.bits, idx.tags(i), `row ${i}`);
    assert.equal(pure.collapsedTurns, idx.columns.collapsedTurns[i], `row ${i}`);
    assert.equal(pure.comparedTurns, idx.columns.comparedTurns[i], `row ${i}`);
  }
});

test('horizon edge (n = H is truncated, n = H - 1 is not), theta edge, key case off', async () => {
  const path = fixtureLog();
  const h14 = await indexOf(path, withBehaviour(14, 0.5));
  assert.deepEqual(tagNames(h14.tags(11)), ['truncated'], '14 turns at H = 14');
  assert.deepEqual(tagNames(h14.tags(10)), ['truncated'], '15 turns at H = 14');
  const h16 = await indexOf(path, withBehaviour(16, 0.5));
  assert.deepEqual(tagNames(h16.tags(10)), ['noDone'], '15 turns at H = 16');
  // theta 0.45: a mean c of exactly -0.45 with success disagrees; -0.6 with failure agrees
  const t45 = await indexOf(path, withBehaviour(15, 0.45));
  assert.deepEqual(tagNames(t45.tags(18)), ['creditDisagrees']);
  assert.deepEqual(tagNames(t45.tags(19)), ['falseDone']);
  // theta 0.51: exactly +-0.5 no longer disagrees
  const t51 = await indexOf(path, withBehaviour(15, 0.51));
  assert.deepEqual(tagNames(t51.tags(16)), []);
  assert.deepEqual(tagNames(t51.tags(17)), ['falseDone']);
  const exact = await indexOf(path, { ...DEFAULT_INDEX_OPTIONS, match: { clickTolerance: 20, keyCaseInsensitive: false } });
  assert.deepEqual(tagNames(exact.tags(9)), [], 'Enter, enter, ENTER differ with key case on');
  const tol21 = await indexOf(path, { ...DEFAULT_INDEX_OPTIONS, match: { clickTolerance: 21, keyCaseInsensitive: true } });
  assert.deepEqual(tagNames(tol21.tags(1)), ['repeat', 'falseDone'], 'a click 21 away is the same at tolerance 21');
  assert.deepEqual(tagNames(tol21.tags(ROWS.length + 1)), ['repeat', 'noDone', 'earlyDone']);
  const tol19 = await indexOf(path, { ...DEFAULT_INDEX_OPTIONS, match: { clickTolerance: 19, keyCaseInsensitive: true } });
  assert.deepEqual(tagNames(tol19.tags(0)), [], 'a click 20 away is no longer the same');
});

test('the turn marks: every turn of every repeat or cycle window, and every collapsed turn', async () => {
  const idx = await indexOf(fixtureLog());
  const marks = async (i: number): Promise<string[]> => {
    const t = await idx.read(i);
    return trajectoryTurnMarks(t.turns, t.A, DEFAULT_INDEX_OPTIONS.credit, DEFAULT_MATCH).map(
      (m) => `${m.repeat ? 'R' : ''}${m.cycle ? 'C' : ''}${m.collapsed ? 'X' : ''}` || '-',
    );
  };
  assert.deepEqual(await marks(0), ['R', 'R', 'R', '-']);
  assert.deepEqual(await marks(3), ['R', 'R', 'R', 'R'], 'a repeat of four: two windows, not a cycle');
  assert.deepEqual(await marks(4), ['C', 'C', 'C', 'C', '-']);
  assert.deepEqual(await marks(2), ['-', '-', '-', '-', '-'], 'a scroll run');
  assert.deepEqual(await marks(5), ['-', '-', '-', '-', '-'], 'a done in the middle');
  assert.deepEqual(await marks(14), ['X', '-', '-']);
  assert.deepEqual(await marks(15), ['-', '-'], 'an empty comparison set and a masked turn');
});

test('behaviourReport: the tags object of section 7, worked by hand', async () => {
  const r = behaviourReport(await indexOf(fixtureLog()), { to: 2 });
  assert.equal(r.trajectories, 21);
  const f = (count: number, tagged: number | null, untagged: number): unknown => ({
    count,
    rate: count / 21,
    successTagged: tagged,
    successUntagged: untagged,
  });
  assert.deepEqual(r.tags, {
    repeat: f(3, 2 / 3, 8 / 18),
    cycle: f(1, 1, 9 / 20),
    truncated: f(1, 0, 10 / 20),
    noDone: f(5, 1 / 5, 9 / 16),
    earlyDone: f(1, 0, 10 / 20),
    falseDone: f(5, 0, 10 / 16),
    formatFailure: f(1, 0, 10 / 20),
    collapsed: f(2, 1 / 2, 9 / 19),
    creditDisagrees: f(2, 1 / 2, 9 / 19),
    empty: f(1, 0, 10 / 20),
  });
  assert.equal(r.collapsedTurnRate, 2 / 9);
  assert.deepEqual(
    r.perIteration.map((p) => [p.iteration, p.trajectories, p.rates.repeat, p.rates.collapsed, p.collapsedTurnRate]),
    [
      [0, 10, 3 / 10, 0, null],
      [1, 3, 0, 0, null],
      [2, 8, 0, 2 / 8, 2 / 9],
    ],
  );
  assert.deepEqual(Object.keys(r.perIteration[0]!.rates), [...TAG_NAMES]);
  const one = behaviourReport(await indexOf(fixtureLog()), { from: 1, to: 1 });
  assert.equal(one.trajectories, 3);
  assert.deepEqual(one.tags.truncated, { count: 1, rate: 1 / 3, successTagged: 0, successUntagged: 1 / 2 });
  assert.deepEqual(one.tags.cycle, { count: 0, rate: 0, successTagged: null, successUntagged: 1 / 3 });
});

test('a plain run (no labeled turn): collapsed and creditDisagrees are null, never 0', async () => {
  const r = behaviourReport(await indexOf(plainLog()));
  assert.equal(r.trajectories, 3);
  assert.equal(r.tags.collapsed, null);
  assert.equal(r.tags.creditDisagrees, null);
  assert.equal(r.collapsedTurnRate, null);
  assert.deepEqual(r.tags.repeat, { count: 1, rate: 1 / 3, successTagged: 1, successUntagged: 0 });
  assert.equal(r.perIteration[0]!.rates.collapsed, null);
  assert.equal(r.perIteration[0]!.rates.earlyDone, 1 / 2);
});

test('the comparison: the pooled two-proportion z test worked by hand; q = 0 or 1 gives p null', async () => {
  // 10 of 100 against 20 of 100: q = 0.15, z = -0.1 / sqrt(0.15 * 0.85 * 0.02) = -1.980295, p = 0.047670
  const t = twoProportions(10, 100, 20, 100);
  assert.equal(t.rateA, 0.1);
  assert.equal(t.rateB, 0.2);
  assert.ok(Math.abs(t.diff! + 0.1) < 1e-15);
  assert.ok(Math.abs(t.p! - 0.04767038) < 1e-6, String(t.p));
  assert.deepEqual(twoProportions(0, 5, 0, 7), { rateA: 0, rateB: 0, diff: 0, p: null });
  assert.deepEqual(twoProportions(5, 5, 7, 7), { rateA: 1, rateB: 1, diff: 0, p: null });
  assert.deepEqual(twoProportions(1, 5, 0, 0), { rateA: null, rateB: null, diff: null, p: null });
  // the fixture against the plain run, over their common iterations 0 and 2: A 18 trajectories, B 3
  const a = await indexOf(fixtureLog());
  const b = await indexOf(plainLog());
  const c = behaviourComparison(a, b, [0, 2]);
  // B is plain: its label-tag rates, the diff and p are null; A's rate stays (2 collapsed and 2 disagreeing, all at iteration 2)
  assert.deepEqual(c.collapsed, { rateA: 2 / 18, rateB: null, diff: null, p: null });
  assert.deepEqual(c.creditDisagrees, { rateA: 2 / 18, rateB: null, diff: null, p: null });
  const r = behaviourComparison(b, a, [0, 2]);
  assert.deepEqual(r.collapsed, { rateA: null, rateB: 2 / 18, diff: null, p: null }, 'the plain run as A');
  // repeat: A 3 of 18 (iterations 0 and 2), B 1 of 3
  assert.deepEqual(c.repeat, twoProportions(3, 18, 1, 3));
  assert.equal(c.repeat.rateA, 3 / 18);
  // q = 4/21, z = (1/6 - 1/3) / sqrt(q (1 - q) (1/18 + 1/3)) = -0.680614, p = 0.496116
  assert.ok(Math.abs(c.repeat.p! - 0.4961158) < 1e-6, String(c.repeat.p));
});

test('the filter: tag: keeps the rows that have every tag named', async () => {
  const idx = await indexOf(fixtureLog());
  assert.deepEqual([...queryRows(idx, { filter: { tags: ['repeat'] }, sort: [] })], [0, 3, 9, ROWS.length + 1]);
  assert.deepEqual([...queryRows(idx, { filter: { tags: ['repeat', 'noDone'] }, sort: [] })], [3, ROWS.length + 1]);
  assert.deepEqual([...queryRows(idx, { filter: { tags: ['empty'] }, sort: [] })], [7]);
  assert.equal(idx.row(4).tags, idx.tags(4));
  assert.equal(describeFilter({ reward: 'failure', tags: ['repeat', 'noDone'] }), 'failed (reward <= 0), tagged repeat and noDone');
});

/** Many varied records: the fixture's lines again and again, groups numbered on. */
function bigLog(copies: number): string {
  const dir = tempDir();
  const path = join(dir, 'ws_credit_log.jsonl');
  const lines: string[] = [];
  for (let k = 0; k < copies; k++) for (const r of ROWS) lines.push(lineOf(r, k));
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const behaviourState = (idx: CreditIndex): unknown => ({
  size: idx.size,
  behaviour: [...idx.columns.behaviour.subarray(0, idx.size)],
  collapsed: [...idx.columns.collapsedTurns.subarray(0, idx.size)],
  compared: [...idx.columns.comparedTurns.subarray(0, idx.size)],
  tags: Array.from({ length: idx.size }, (_, i) => idx.tags(i)),
});

test('one thread and two worker processes give the same tags, cut inside a trajectory list', async () => {
  const path = bigLog(40);
  const size = readFileSync(path).length;
  const one = await indexOf(path);
  const two = await indexOf(path, DEFAULT_INDEX_OPTIONS, {
    threads: { threads: 2, minBytes: 0, workerPath: WORKER, cutNear: [Math.floor(size / 3)] },
  });
  assert.equal(two.threadedParts, 2, two.threadError);
  assert.deepEqual(behaviourState(two), behaviourState(one));
  assert.equal(behaviourReport(two).tags.repeat?.count, 3 * 40);
});

test('appended lines are tagged as a fresh read tags them', async () => {
  const path = bigLog(3);
  const text = readFileSync(path, 'utf8');
  const cut = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
  writeFileSync(path, text.slice(0, cut));
  const idx = new CreditIndex(path);
  await idx.update();
  const before = idx.size;
  appendFileSync(path, text.slice(cut));
  await idx.update();
  assert.ok(idx.size > before);
  assert.deepEqual(behaviourState(idx), behaviourState(await indexOf(path)));
});

test('the saved index holds the tags; another horizon or theta reuses it (derived when asked), without a re-read', async () => {
  const path = fixtureLog();
  const store = new IndexStore(tempDir());
  const first = await indexOf(path, DEFAULT_INDEX_OPTIONS, { store });
  assert.equal(first.cacheUse, 'none');
  const again = await indexOf(path, withBehaviour(14, 0.45), { store });
  assert.equal(again.cacheUse, 'unchanged');
  assert.deepEqual(tagNames(again.tags(11)), ['truncated']);
  assert.deepEqual(tagNames(again.tags(18)), ['creditDisagrees']);
  assert.deepEqual(behaviourState(await indexOf(path, DEFAULT_INDEX_OPTIONS, { store })), behaviourState(first));
});

test('eval episodes: the pure tagger without labels', () => {
  const t = tagTrajectory({ actions: [click(1, 1), click(1, 1), click(1, 1)], reward: 0 }, DEFAULT_MATCH, DEFAULT_BEHAVIOUR);
  assert.deepEqual(tagNames(t.bits), ['repeat', 'noDone']);
  assert.equal(t.comparedTurns, 0);
  assert.equal(tagTrajectory({ actions: [], reward: NaN }, DEFAULT_MATCH, DEFAULT_BEHAVIOUR).bits, 0, 'not counted');
  assert.deepEqual(
    tagNames(tagTrajectory({ actions: [null, null, null], reward: 1 }, DEFAULT_MATCH, DEFAULT_BEHAVIOUR).bits),
    ['noDone'],
    'turns without an action match nothing',
  );
});

test('the cached matcher answers as ActionMatcher on every ordered pair of a list, at both key cases and two tolerances', () => {
  const texts = [
    click(100, 100),
    click(120, 100),
    click(121, 100),
    '  click(point_2d=[100,100])',
    'click(point_2d=[100, 100], button="left")',
    'hover(point_2d=[100, 100])',
    'press_keys(keys=["Enter"])',
    'press_keys(keys=["enter"])',
    'press_keys(key="ENTER")',
    'write(message="Enter")',
    'write(message="enter")',
    'scroll(direction="down", amount=3)',
    'scroll(down, 3)',
    'done()',
    'done',
    'not a tool call',
    ' not a tool call ',
    '\u00a0click(point_2d=[100, 100])',
    'click(point_2d=[1e2, 100])',
    '',
  ];
  for (const match of [DEFAULT_MATCH, { clickTolerance: 0, keyCaseInsensitive: false }]) {
    for (let i = 0; i < texts.length; i++)
      for (let j = 0; j < texts.length; j++) {
        const cached = new ParsedTexts(match);
        assert.equal(cached.matches(0, texts[i]!, 1, texts[j]!), sameAction(texts[i]!, texts[j]!, match), `${texts[i]} ~ ${texts[j]}`);
      }
  }
});

test('the bytes-level reading of actions (points, names, escapes) tags as the matcher over the decoded texts', async () => {
  const texts = [
    click(100, 100),
    click(120, 120),
    click(121, 100),
    'click(point_2d=[100,100])',
    'click( point_2d = [ 100 , 100 ] )',
    'click(point_2d=[-5, 100])',
    'click(point_2d=[15, 100])',
    'click(point_2d=[1234567890, 100])',
    'click(point_2d=[100, 100.0])',
    'click(point_2d=[100, 100], x=1)',
    'click(pt=[100, 100])',
    'click(point_2d==[100, 100])',
    'click([100, 100])',
    'hover(point_2d=[100, 100])',
    'clicks(point_2d=[100, 100])',
    ' click(point_2d=[100, 100])',
    'click(point_2d=[100, 100]) ',
    'scroll(direction="down", amount=3)',
    'done()',
    ' done(response="x")',
  ];
  const dir = tempDir();
  const path = join(dir, 'log.jsonl');
  const rows: { actions: string[] }[] = [];
  for (const a of texts) for (const b of texts) rows.push({ actions: [a, b, a, b, 'wait()'] });
  writeFileSync(
    path,
    rows.map((r, k) => JSON.stringify({ iteration: 0, group: 0, rollout: k, reward: 0, A: 0, turns: plain(r.actions) })).join('\n') + '\n',
  );
  // one record written with a JSON escape in the name, read by the fast path and decoded
  const raw = readFileSync(path, 'utf8').replace('"action":"click(point_2d=[120, 120])"', '"action":"\\u0063lick(point_2d=[120, 120])"');
  writeFileSync(path, raw);
  const idx = await indexOf(path);
  assert.equal(idx.slowPathRows, 0);
  for (let i = 0; i < idx.size; i++) {
    const t = await idx.read(i);
    const pure = tagTrajectory({ actions: t.turns.map((u) => u.action), reward: t.reward }, DEFAULT_MATCH, DEFAULT_BEHAVIOUR);
    assert.equal(idx.tags(i), pure.bits, `row ${i}: ${JSON.stringify(t.turns.map((u) => u.action))}`);
  }
  // a hand-worked few: 100,100 against 120,120 is a cycle-free repeat pair; against 121,100 a cycle
  assert.deepEqual(tagNames(idx.tags(1)), ['repeat', 'noDone']);
  assert.deepEqual(tagNames(idx.tags(2)), ['cycle', 'noDone']);
});

test('the bytes-level matcher answers as ActionMatcher on every ordered pair: strings, keys, numbers, lists, argument order, escapes', () => {
  const texts = [
    'write(message="Enter")',
    'write(message="enter")',
    'write(message= "Enter" )',
    "write(message='Enter')",
    'write("Enter")',
    'write(message="Enter", x=1)',
    'write(x=1, message="Enter")',
    'write(message="Enter", message="x")',
    'write(message="x", message="Enter")',
    'write(message="café")',
    'write(message="cafe\u0301")',
    'write(message="café ")',
    'write(message="a\\"b")',
    'write(message="a\\"c")',
    'write(message="A\\"B")',
    'write(message="café \\"Le Monde\\"")',
    'write(message="café \\"Le Monde\\" ")',
    'write(message="a\\u0022b")',
    'write(message="a\\\\")',
    'write(message="a\\\\"b")',
    "write(message='a\\'b')",
    "write(message='a\\'c')",
    'write(message="a\'b")',
    "write(message='a\"b')",
    "write(message='a\\\"b')",
    'press_keys(keys=["\\"", "a"])',
    'press_keys(keys=["\\"", "A"])',
    'press_keys(key="\\"x")',
    'press_keys(key="\\"X")',
    'write(message="tab\there")',
    'write(message=True)',
    'write(message=None)',
    'write(message="x",)',
    'write(message==1)',
    'write(message="x"',
    'write(message="it\'s")',
    'write(message=\'say "hi"\')',
    'press_keys(keys=["Enter"])',
    'press_keys(keys=["ENTER"])',
    'press_keys(keys=["enter", "a"])',
    'press_keys(keys=("Enter",))',
    'press_keys(keys=["Enter",])',
    'press_keys(key="Enter")',
    'press_keys(keys="Enter")',
    'press_keys(keys=["É"])',
    'press_keys(keys=["é"])',
    'press_keys(keys=["["])',
    'press_keys(keys=["{"])',
    'press_keys(keyz=["Enter"])',
    'switch_tab(index=1)',
    'switch_tab(index=01)',
    'switch_tab(index=1.0)',
    'switch_tab(index=-0)',
    'switch_tab(index=0)',
    'switch_tab(index=+1)',
    'switch_tab(index=1e0)',
    'switch_tab(index=1-2)',
    'switch_tab(1)',
    'switch_tab(index="1")',
    'switch_tab(index=1234567890123456)',
    'switch_tab(index=1234567890123457)',
    'scroll(direction="down", amount=3)',
    'scroll(amount=3, direction="down")',
    'scroll(direction="down", amount=4)',
    'scroll(down, 3)',
    click(100, 100),
    click(120, 100),
    click(121, 100),
    'click(point_2d=(100, 100))',
    'click(point_2d=[100, 100, 1])',
    'click(point_2d=[[100, 100]])',
    'click(point_2d=[100, "a"])',
    'click(point_2d=[100,100])',
    'click(100, 100)',
    'click([100, 100])',
    'wait()',
    'wait( )',
    'wait(,)',
    'wait() x',
    'wait',
    '1click(x=1)',
    '1click(x=1 )',
    'a.b(x=1)',
    'a.b(x=1 )',
    'goto_url(url="https://a.b/c?d=1")',
    'goto_url(url="https://a.b/c?d=2")',
    'done()',
    'done(answer="x")',
    'doner()',
    '',
  ];
  const parts = texts.map((t) => JSON.stringify(t).slice(1, -1));
  // one text written with a JSON escape where none is needed, as another writer might
  parts.push(parts[0]!.replace('w', '\\u0077'), parts[1]!.replace('/', '\\/'), '\\u0064one()', 'scro\\u006cl(x=1)');
  texts.push(texts[0]!, texts[1]!, 'done()', 'scroll(x=1)');
  // an escaped quote inside a string written with a JSON escape for the quote: the same text as the plain `\\\"`
  const quoted = texts.indexOf('write(message="a\\"b")');
  parts.push(parts[quoted]!.replace('\\\\\\"b', '\\\\\\u0022b'));
  assert.match(parts.at(-1)!, /u0022/);
  texts.push(texts[quoted]!);
  let buf = Buffer.from(parts.join('|'), 'utf8');
  // two texts with broken UTF-8 (different bytes, both read as U+FFFD), and one valid beside them
  const broken = [
    Buffer.from('write(message=\\"\xff\\")', 'latin1'),
    Buffer.from('write(message=\\"\xfe\\")', 'latin1'),
    Buffer.from('write(message=\\"\u00ff\\")', 'utf8'),
  ];
  buf = Buffer.concat([buf, ...broken.flatMap((b) => [Buffer.from('|'), b])]);
  for (const b of broken) {
    parts.push(b.toString('latin1'));
    texts.push(JSON.parse(`"${b.toString('utf8')}"`) as string);
  }
  for (const match of [DEFAULT_MATCH, { clickTolerance: 0, keyCaseInsensitive: false }]) {
    const seq = new ByteActions(match);
    seq.reset(buf);
    let at = 0;
    for (const [k, p] of parts.entries()) {
      const len = k >= parts.length - broken.length ? p.length : Buffer.byteLength(p, 'utf8');
      seq.push(at, at + len);
      at += len + 1;
    }
    for (let i = 0; i < texts.length; i++)
      for (let j = 0; j < texts.length; j++)
        assert.equal(seq.same(i, j), sameAction(texts[i]!, texts[j]!, match), `${texts[i]} ~ ${texts[j]} (${JSON.stringify(match)})`);
    // the keys the windows read: done and scroll as the parser names them; two different name numbers never match
    const strings = new StringActions(texts, match);
    for (const s of [seq, strings])
      for (let i = 0; i < texts.length; i++) {
        const name = toolName(texts[i]!);
        const k = s.key(i);
        assert.equal(k === DONE_KEY, name === 'done', `done: ${texts[i]}`);
        assert.equal(k === SCROLL_KEY, name === 'scroll', `scroll: ${texts[i]}`);
        for (let j = 0; j < texts.length; j++) {
          const l = s.key(j);
          if (k >= 0 && l >= 0 && k !== l) assert.equal(sameAction(texts[i]!, texts[j]!, match), false, `${texts[i]} ~ ${texts[j]}`);
        }
      }
    assert.ok(
      texts.some((_, i) => seq.key(i) >= 0),
      'the name numbers are tried',
    );
  }
});

test('the windows ask a match of the actions only when the keys of the other pair of the window may hold', () => {
  // click write click hover click go_back: a_0 ~ a_2 and a_2 ~ a_4 may match by name, but their windows' other pairs (1, 3) and (3, 5) differ by name
  const texts = ['click(point_2d=[1, 1])', 'write(message="a")', 'click(point_2d=[500, 500])', 'hover(point_2d=[1, 1])'];
  const seq = new StringActions([...texts, texts[0]!, 'go_back()'], DEFAULT_MATCH);
  const asked: string[] = [];
  const counting = {
    length: seq.length,
    key: (i: number): number => seq.key(i),
    same: (i: number, j: number): boolean => (asked.push(`${i}~${j}`), seq.same(i, j)),
  };
  assert.equal(actionWindows(counting), 0);
  assert.deepEqual(asked, [], 'no pair asked: every window has a pair of two different names');
  const marks = new Uint8Array(seq.length);
  actionWindows(counting, marks);
  assert.deepEqual(asked, []);
  // a real cycle is still found: click write click write
  const cyc = new StringActions([texts[0]!, texts[1]!, texts[0]!, texts[1]!], DEFAULT_MATCH);
  assert.equal(actionWindows(cyc) & Tag.Cycle, Tag.Cycle);
});
