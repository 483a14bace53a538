import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { MetricsIndex } from '../../src/core/log/metricsIndex';
import { parseTolerant } from '../../src/core/log/tolerantJson';
import { buildSchemaTables } from '../../src/core/record/schema';
import { csvRow, csvField, guardFormula } from '../../src/core/export/csv';
import { exportRows } from '../../src/core/export/exportRows';
import { selectRows } from '../../src/core/export/select';
import { LinkError, LINK_PATH, parseLink } from '../../src/core/links/link';
import { linkTarget } from '../../src/extension/share/linkTarget';
import { prettyRecord, turnsKeyOf } from '../../src/extension/share/prettyRecord';

import { writeAtomically } from '../../src/extension/share/atomicFile';
import { parseShareArgs, shareLink } from '../../src/extension/share/shareArgs';
import { recordLogsOrigins, runRefOf, setCommitRead } from '../../src/extension/share/runOrigin';
import type { OriginStore } from '../../src/extension/share/runOrigin';
import { parseFocusMetric } from '../../src/shared/protocol/metrics';
import { parseTrajectoriesMessage } from '../../src/shared/protocol/trajectories';
import { tempDir } from '../helpers';

const turn = (c: number): Record<string, unknown> => ({
  action: 'click(1, 2)',
  scores: [1, 2],
  same: [true, false],
  done: [false, false],
  c,
  A_t: 0.5,
});
const rec = (iteration: number, group: number, rollout: number, turns = 2): Record<string, unknown> => ({
  iteration,
  group,
  rollout,
  reward: rollout === 0 ? 1 : 0,
  A: rollout === 0 ? 0.5 : -0.5,
  instruction: `task ${iteration}/${group}/${rollout}`,
  turns: Array.from({ length: turns }, (_, i) => turn(i / 10)),
});

async function run(): Promise<{ dir: string; credit: CreditIndex; metrics: MetricsIndex }> {
  const dir = tempDir();
  const lines: string[] = [];
  for (const it of [0, 1, 3]) for (let g = 0; g < 2; g++) for (let r = 0; r < 3; r++) lines.push(JSON.stringify(rec(it, g, r, r + 1)));
  writeFileSync(join(dir, 'ws_credit_log.jsonl'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'ws_metrics.jsonl'), '{"iteration": 0, "ws/c_mean": 0.1}\n{"iteration": 1, "ws/c_mean": 0.2, "reward": 1}\n');
  const credit = new CreditIndex(join(dir, 'ws_credit_log.jsonl'));
  await credit.update();
  const metrics = new MetricsIndex(join(dir, 'ws_metrics.jsonl'));
  await metrics.update();
  return { dir, credit, metrics };
}

const view = (q: string): ReturnType<typeof parseLink>['view'] => parseLink(LINK_PATH, `run=/x&${q}`).view;

test('a link naming what the run holds opens its iteration, group, trajectory and turn', async () => {
  const { credit, metrics } = await run();
  const r = { name: 'demo', credit, metrics };
  const t = linkTarget(r, view('iteration=3&group=1&rollout=2&turn=2') as never);
  assert.equal(t.kind, 'trajectories');
  if (t.kind !== 'trajectories') return;
  assert.deepEqual(t.select, { iteration: 3, group: 1, rollout: 2 });
  assert.equal(t.row, credit.find(3, 1, 2));
  assert.equal(t.turn, 2);
  assert.deepEqual(t.query.filter, { iterationMin: 3, iterationMax: 3, group: 1 });
  const it = linkTarget(r, view('iteration=1') as never);
  assert.deepEqual(it, { kind: 'trajectories', query: { filter: { iterationMin: 1, iterationMax: 1 }, sort: [] } });
  assert.deepEqual(linkTarget(r, view('metric=ws%2Fc_mean') as never), { kind: 'metric', metric: 'ws/c_mean' });
  assert.deepEqual(linkTarget(r, { kind: 'run' }), { kind: 'run' });
});

test('a link naming what the run does not hold is refused with one line saying which', async () => {
  const { credit, metrics } = await run();
  const r = { name: 'demo', credit, metrics };
  const cases: [string, RegExp][] = [
    ['iteration=99', /^iteration 99 is not in run demo$/],
    ['iteration=2', /^iteration 2 is not in run demo$/],
    ['iteration=9007199254740991', /^iteration 9007199254740991 is not in run demo$/],
    ['iteration=3&group=2', /^group 2 is not in iteration 3 of run demo$/],
    ['iteration=3&group=1&rollout=3', /^rollout 3 is not in iteration 3, group 1 of run demo$/],
    ['iteration=3&group=1&rollout=0&turn=1', /^turn 1 is not in iteration 3 · group 1 · rollout 0 of run demo \(it has 1 turn, from 0\)$/],
    ['metric=ws%2Fnope', /^metric "ws\/nope" is not in run demo$/],
  ];
  for (const [q, re] of cases)
    assert.throws(
      () => linkTarget(r, view(q) as never),
      (e: unknown) => e instanceof LinkError && re.test(e.message),
      q,
    );
  assert.throws(() => linkTarget({ name: 'm', credit: undefined, metrics }, view('iteration=0') as never), /run m has no credit log/);
  assert.throws(() => linkTarget({ name: 'c', credit, metrics: undefined }, view('metric=x') as never), /run c has no metrics log/);
  assert.throws(() => linkTarget({ name: 'a\u202eb', credit, metrics }, view('iteration=7') as never), /run a\\u202eb$/);
});

test('CSV: a text field that a spreadsheet would run as a formula gets a leading quote', () => {
  for (const s of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")'])
    assert.equal(guardFormula(s), `'${s}`, JSON.stringify(s));
  // after any Unicode space or format character (space, NBSP, U+3000, ZWSP, BOM, LF), and in fullwidth (issue 22)
  for (const s of [
    ' =1',
    '\u00a0=1',
    '\u3000=1',
    '\u200b=1',
    '\ufeff=1',
    '\n=1',
    ' \u200b\u00a0@x',
    '\uff1d1+1',
    '\uff20SUM(A1)',
    '\uff0b1',
  ])
    assert.equal(guardFormula(s), `'${s}`, JSON.stringify(s));
  for (const s of ['', 'plain', "'=1", 'a=b', '1-2', ' plain', '\u3000x']) assert.equal(guardFormula(s), s, JSON.stringify(s));
  const row = {
    row: 0,
    iteration: 1,
    group: 2,
    rollout: 3,
    reward: -1,
    A: -0.5,
    labeled: true,
    turns: 1,
    labeledTurns: 1,
    creditedTurns: 1,
    meanC: -0.25,
    signFlips: 0,
    argmaxTurns: 0,
    fallbackTurns: 0,
    flags: 0,
    line: 4,
  };
  const line = csvRow(row, { taskId: '@id', instruction: '=cmd|"/c calc"!A1, then "go"' });
  // text columns guarded (and then quoted as RFC 4180 asks); numbers as they are, minus signs kept
  assert.equal(line, `1,2,3,'@id,"'=cmd|""/c calc""!A1, then ""go""",-1,-0.5,true,1,1,1,-0.25,0,0,0,4\r\n`);
  assert.equal(csvField('-1'), '-1', 'csvField itself does not guard: numbers keep their sign');
});

test('the formatted record keeps NaN and Infinity as logged and knows the line of each turn', () => {
  const text =
    '{"iteration": 1, "reward": NaN, "A": -Infinity, "steps": [{"action": "a", "c": Infinity}, {"action": "NaN"}, 7], "__proto__": {"x": []}}';
  const obj = parseTolerant(text) as Record<string, unknown>;
  const key = turnsKeyOf(obj, buildSchemaTables());
  assert.equal(key, 'steps');
  const p = prettyRecord(obj, key);
  const lines = p.text.split('\n');
  assert.match(p.text, /"reward": NaN,/);
  assert.match(p.text, /"A": -Infinity,/);
  assert.match(p.text, /"c": Infinity/);
  assert.match(p.text, /"action": "NaN"/, 'a string "NaN" stays a string');
  assert.match(p.text, /"__proto__": \{\n {4}"x": \[\]\n {2}\}/);
  assert.equal(p.turnLines.length, 3);
  assert.equal(lines[p.turnLines[0]!], '    {');
  assert.equal(lines[p.turnLines[0]! + 1], '      "action": "a",');
  assert.equal(lines[p.turnLines[1]! + 1], '      "action": "NaN"');
  assert.equal(lines[p.turnLines[2]!], '    7');
  const mapped = turnsKeyOf({ turns: 'no', moves: [] }, buildSchemaTables({ turns: 'moves' }));
  assert.equal(mapped, 'moves');
  assert.deepEqual(prettyRecord({ a: 1 }, undefined).turnLines, []);
});

test('share arguments from a webview are checked: a key needs three whole numbers, a turn needs a key', () => {
  const q = { filter: { group: 1 }, sort: [] };
  assert.deepEqual(parseShareArgs({ root: '/r', key: { iteration: 1, group: 2, rollout: 3 }, turn: 4, query: q }), {
    root: '/r',
    key: { iteration: 1, group: 2, rollout: 3 },
    turn: 4,
    query: q,
  });
  assert.deepEqual(parseShareArgs({ root: '/r', key: { iteration: -1, group: 2, rollout: 3 }, turn: 4 }), {
    root: '/r',
    key: null,
    turn: null,
    query: { filter: {}, sort: [] },
  });
  assert.equal(parseShareArgs(undefined), undefined);
  assert.equal(parseShareArgs({ root: '' }), undefined);
  const ok = { type: 'trajectories/share', action: 'copyLink', key: { iteration: 1, group: 2, rollout: 3 }, turn: 0, query: q };
  assert.deepEqual(parseTrajectoriesMessage(ok), ok);
  for (const bad of [
    { ...ok, action: 'rm' },
    { ...ok, turn: -1 },
    { ...ok, turn: 1.5 },
    { ...ok, key: { iteration: 1, group: 2 } },
    { ...ok, query: { filter: { text: 5 }, sort: [] } },
  ])
    assert.equal(parseTrajectoriesMessage(bad), undefined, JSON.stringify(bad));
});

test('an export is written whole or not at all: a cancel leaves no file and no partial file', async () => {
  const { dir, credit } = await run();
  const out = join(dir, 'out.jsonl');
  const rows = await selectRows(credit, { iterationMin: 1, iterationMax: 3, group: 1 });
  const r = await writeAtomically(out, (sink) => exportRows(credit, rows, 'jsonl', sink));
  assert.equal(r.rows, 6);
  const src = readFileSync(join(dir, 'ws_credit_log.jsonl'), 'utf8').split('\n');
  const want = src.filter((l) => l && /"group":1,/.test(l) && !/"iteration":0,/.test(l));
  assert.equal(readFileSync(out, 'utf8'), want.join('\n') + '\n');
  const ac = new AbortController();
  const cancelled = join(dir, 'cancelled.csv');
  await assert.rejects(
    writeAtomically(cancelled, (sink) =>
      exportRows(credit, rows, 'csv', sink, {
        signal: ac.signal,
        chunk: 16,
        onProgress: () => ac.abort(),
      }).then(async (x) => {
        ac.abort();
        ac.signal.throwIfAborted();
        return x;
      }),
    ),
    /abort/i,
  );
  const left = readdirSync(dir).filter((f) => f.includes('cancelled'));
  assert.deepEqual(left, [], 'neither the file nor its partial is left');
  // a failure after some bytes were written also leaves the old file as it was
  writeFileSync(join(dir, 'kept.csv'), 'old');
  await assert.rejects(
    writeAtomically(join(dir, 'kept.csv'), async (sink) => {
      await sink.write(Buffer.from('new bytes'));
      throw new Error('disk full');
    }),
    /disk full/,
  );
  assert.equal(readFileSync(join(dir, 'kept.csv'), 'utf8'), 'old');
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.partial')),
    [],
  );
});

test("Copy Link: the editor's own scheme, an absolute run path, the trajectory and turn; it parses back to the same", () => {
  const a = { root: '/data/runs/my run@1', key: { iteration: 12, group: 7, rollout: 3 }, turn: 5, query: { filter: {}, sort: [] } };
  for (const scheme of ['vscode', 'code-oss', 'vscode-insiders']) {
    const link = shareLink(a, scheme);
    assert.ok(link.startsWith(`${scheme}://rl-run-browser.rl-run-browser/open?run=/data/runs/my%2520run@1&`), link);
    // as VS Code hands it to the URI handler: the query percent-decoded once
    const uri = new URL(link.replace(/^[^:]+:/, 'https:'));
    const parsed = parseLink(uri.pathname, decodeURIComponent(uri.search.slice(1)).replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    assert.deepEqual(parsed, {
      run: { kind: 'local', path: a.root },
      view: { kind: 'trajectories', iteration: 12, group: 7, rollout: 3, turn: 5 },
    });
  }
  assert.match(shareLink({ ...a, key: null, turn: null }, 'vscode'), /\/open\?run=\/data\/runs\/my%2520run@1$/);
  assert.throws(() => shareLink(a, 'java script:'), /not a URI scheme/);
  assert.throws(() => shareLink({ ...a, root: 'relative/run' }, 'vscode'), /must be absolute/);
});

/** A memento in memory. */
function memento(): OriginStore {
  const m = new Map<string, unknown>();
  return {
    get: <T>(k: string, d?: T): T | undefined => (m.has(k) ? (m.get(k) as T) : d),
    update: (k: string, v: unknown): Promise<void> => (m.set(k, v), Promise.resolve()),
  };
}

test('Copy Link on a run from the Hub names its repo and revision, not a path: read in place, or its downloaded logs', async () => {
  const a = {
    root: 'hub:XunmeiLiu/openwebrl-ws-credit-beta0.4',
    key: { iteration: 1, group: 2, rollout: 3 },
    turn: null,
    query: { filter: {}, sort: [] },
  };
  const inPlace = shareLink(a, 'vscode');
  assert.match(inPlace, /\/open\?repo=XunmeiLiu\/openwebrl-ws-credit-beta0\.4&revision=main&iteration=1&group=2&rollout=3$/);
  assert.doesNotMatch(inPlace, /run=/);
  assert.deepEqual(runRefOf('hub:o/n@v1.2'), { kind: 'hub', repo: 'o/n', revision: 'v1.2' });
  const store = memento();
  let fire: (r: { repo: string; kind: string; dest: string; ok: boolean }) => void = () => undefined;
  const downloads = { onDidFinish: (f: typeof fire) => ((fire = f), { dispose: () => undefined }) };
  const hub = { state: () => ({ listing: { commit: 'c0ffee' } }) };
  recordLogsOrigins(store, downloads as never, hub as never);
  assert.deepEqual(runRefOf('/data/dl/logs', store), { kind: 'local', path: '/data/dl/logs' }, 'before the download: its path');
  fire({ repo: 'o/n', kind: 'resume', dest: '/data/dl/ckpt', ok: true });
  fire({ repo: 'o/n', kind: 'logs', dest: '/data/dl/failed', ok: false });
  fire({ repo: 'o/n', kind: 'logs', dest: '/data/dl/logs', ok: true });
  await Promise.resolve();
  assert.deepEqual(runRefOf('/data/dl/logs', store), { kind: 'hub', repo: 'o/n', revision: 'c0ffee' });
  assert.deepEqual(runRefOf('/data/dl/ckpt', store), { kind: 'local', path: '/data/dl/ckpt' }, 'a checkpoint is not a run of logs');
  assert.deepEqual(runRefOf('/data/dl/failed', store), { kind: 'local', path: '/data/dl/failed' }, 'a failed download records nothing');
  assert.match(shareLink({ ...a, root: '/data/dl/logs' }, 'vscode'), /\/open\?repo=o\/n&revision=c0ffee&iteration=1/);
});

test('a run read in place links to the commit it read, not to the branch it was opened at', () => {
  const sha = 'a'.repeat(40);
  setCommitRead((root) => (root === 'hub:o/n' ? sha : undefined));
  try {
    assert.deepEqual(runRefOf('hub:o/n'), { kind: 'hub', repo: 'o/n', revision: sha });
    assert.deepEqual(
      runRefOf('hub:o/other'),
      { kind: 'hub', repo: 'o/other', revision: 'main' },
      'no commit known: the revision asked for',
    );
    const a = { root: 'hub:o/n', key: null, turn: null, query: { filter: {}, sort: [] } };
    assert.match(shareLink(a, 'code-oss'), new RegExp(`^code-oss://rl-run-browser\\.rl-run-browser/open\\?repo=o/n&revision=${sha}$`));
  } finally {
    setCommitRead(() => undefined);
  }
});

test('every link is built by runLink, with the scheme of the editor (no panel builds its own or defaults to vscode://)', () => {
  const src = join(__dirname, '../../../src');
  const files = readdirSync(src, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'));
  const builders = files.filter((f) => /\bbuildLink\(/.test(readFileSync(join(src, f), 'utf8'))).sort();
  assert.deepEqual(
    builders,
    ['core/links/link.ts', 'extension/share/runOrigin.ts'].map((f) => f.split('/').join(sep)),
  );
  const callers = files.filter((f) => /\brunLink\(/.test(readFileSync(join(src, f), 'utf8')) && !f.endsWith('runOrigin.ts'));
  assert.ok(callers.length >= 3, callers.join());
  for (const f of callers) {
    const text = readFileSync(join(src, f), 'utf8');
    for (const call of text.match(/\brunLink\([^;]*;/g) ?? []) assert.match(call, /uriScheme|scheme\)/, `${f}: ${call}`);
  }
});

test('the dashboard takes a focus on a metric only as a short string', () => {
  assert.deepEqual(parseFocusMetric({ type: 'metrics/focus', metric: 'reward/mean' }), { type: 'metrics/focus', metric: 'reward/mean' });
  for (const bad of [
    { type: 'metrics/focus' },
    { type: 'metrics/focus', metric: '' },
    { type: 'metrics/focus', metric: 3 },
    { type: 'metrics/focus', metric: 'x'.repeat(5000) },
    { type: 'metrics/data', metric: 'a' },
    null,
  ])
    assert.equal(parseFocusMetric(bad), undefined, JSON.stringify(bad));
});
