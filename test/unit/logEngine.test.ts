import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, appendFileSync, mkdirSync, truncateSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { MetricsIndex } from '../../src/core/log/metricsIndex';
import { computeReport } from '../../src/core/report/report';
import { locateRun } from '../../src/core/run/runLocator';
import type { IndexChange } from '../../src/core/log/creditIndex';

function logFile(text: string | Buffer): string {
  const dir = tempDir();
  const p = join(dir, 'ws_credit_log.jsonl');
  writeFileSync(p, text);
  return p;
}

const T = (it: number, g = 0, r = 0, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  iteration: it,
  group: g,
  rollout: r,
  reward: 0,
  A: 0,
  turns: [{ action: 'wait()', A_t: 0 }],
  ...extra,
});

test('blank lines, a BOM, CRLF endings and bad lines: each bad line skipped and reported by number', async () => {
  const lines = [
    JSON.stringify(T(0)),
    '',
    '   ',
    '{"iteration": 1, "group": 0',
    '[1, 2]',
    'null',
    JSON.stringify(T(1)),
    '"text"',
    JSON.stringify(T(2)),
  ];
  const p = logFile(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n')]));
  const idx = new CreditIndex(p);
  await idx.update();
  assert.equal(idx.size, 3);
  assert.deepEqual(
    [0, 1, 2].map((i) => idx.row(i).iteration),
    [0, 1, 2],
  );
  assert.deepEqual(
    idx.skippedLines.map((s) => s.line),
    [4, 5, 6, 8],
  );
  assert.match(idx.skippedLines[0]!.message, /not JSON/);
  assert.match(idx.skippedLines[1]!.message, /not a JSON object/);
  assert.equal(idx.row(1).line, 7);
  // each record reads back from its offset
  const t = await idx.read(2);
  assert.equal(t.iteration, 2);
});

test('what Python json writes: NaN, Infinity, escapes, non-ASCII; unknown fields are kept', async () => {
  const line =
    '{"iteration": 3, "group": 1, "rollout": 2, "reward": NaN, "A": -Infinity, "note": "caf\\u00e9 \\"q\\"", "turns": [{"action": "write(message=\\"\\u6771\\u4eac\\")", "scores": [1.5, NaN, Infinity, -2e1], "A_t": 0, "extra_turn": [1, {"x": null}]}], "meta": {"a": [true, false]}}';
  const p = logFile(line + '\n');
  const idx = new CreditIndex(p);
  await idx.update();
  assert.equal(idx.size, 1);
  assert.equal(idx.skippedCount, 0);
  const r = idx.row(0);
  assert.equal(r.iteration, 3);
  assert.ok(Number.isNaN(r.reward));
  assert.equal(r.A, -Infinity);
  const v = await idx.read(0);
  assert.equal(v.turns[0]!.action, 'write(message="東京")');
  assert.deepEqual(v.turns[0]!.scores, [1.5, null, null, -20]);
  assert.deepEqual(v.extras['meta'], { a: [true, false] });
  assert.equal(v.extras['note'], 'café "q"');
  assert.deepEqual(v.turns[0]!.extras['extra_turn'], [1, { x: null }]);
  const check = idx.schemaCheck();
  assert.deepEqual(check.unknownTrajectoryKeys.map((k) => k.name).sort(), ['meta', 'note']);
  assert.deepEqual(
    check.unknownTurnKeys.map((k) => k.name),
    ['extra_turn'],
  );
});

test('the schema check names missing fields and the aliases used', async () => {
  const p = logFile(jsonl([{ step: 0, group_id: 0, member: 0, score: 1, turns: [{ executed_action: 'wait()' }] }]));
  const idx = new CreditIndex(p);
  await idx.update();
  const check = idx.schemaCheck();
  assert.ok(check.notFound.includes('A'));
  // a turn without A_t has A_t = A (format section 2): not a missing field
  assert.ok(!check.notFound.includes('turn.A_t'));
  const it = check.fields.find((f) => f.field === 'iteration')!;
  assert.deepEqual(it.foundAs, [{ name: 'step', count: 1, alias: true }]);
  const report = computeReport(idx).report;
  assert.ok(
    report.warnings.some((w) => /expected fields not found: .*A/.test(w)),
    report.warnings.join('\n'),
  );
});

test('fast and slow readers agree on every summary of the hand log and of odd spacing', async () => {
  const pretty = HAND_LOG.map((t) => JSON.stringify(t, null, 0).replace(/,/g, ' ,  ').replace(/:/g, ' : ')).join('\n') + '\n';
  const a = new CreditIndex(logFile(jsonl(HAND_LOG)));
  const b = new CreditIndex(logFile(pretty));
  await a.update();
  await b.update();
  assert.equal(a.slowPathRows, 0);
  assert.equal(b.size, a.size);
  for (let i = 0; i < a.size; i++) assert.deepEqual({ ...b.row(i), line: 0 }, { ...a.row(i), line: 0 });
  // a record the fast reader refuses (a string where a number belongs) is read by the slow path
  const odd = new CreditIndex(logFile(jsonl([{ ...T(5), group: '7' }])));
  await odd.update();
  assert.equal(odd.size, 1);
  assert.equal(odd.row(0).group, 7);
});

test('follow: appended lines are read incrementally; a partial last line is picked up once complete', async () => {
  const p = logFile(jsonl([T(0), T(1)]));
  const idx = new CreditIndex(p);
  const events: IndexChange[] = [];
  idx.onDidChange((e) => events.push(e));
  await idx.update();
  assert.equal(idx.size, 2);
  const bytesAfterFirst = idx.bytesIndexed;
  appendFileSync(p, jsonl([T(2)]));
  const r = await idx.update();
  assert.equal(r.kind, 'append');
  assert.equal(r.bytesRead, jsonl([T(2)]).length, 'only the new bytes are read');
  assert.equal(idx.size, 3);
  assert.ok(idx.bytesIndexed > bytesAfterFirst);
  // a line still being written
  const full = JSON.stringify(T(3));
  appendFileSync(p, full.slice(0, 20));
  await idx.update();
  assert.equal(idx.size, 3);
  assert.equal(idx.skippedCount, 0, 'a partial last line is not an error');
  assert.ok(idx.pendingTail);
  appendFileSync(p, full.slice(20) + '\n');
  await idx.update();
  assert.equal(idx.size, 4);
  assert.equal(idx.row(3).iteration, 3);
  assert.ok(!idx.pendingTail);
  // a complete record without its newline is shown provisionally, and not twice once finished
  appendFileSync(p, JSON.stringify(T(4)));
  await idx.update();
  assert.equal(idx.size, 5);
  appendFileSync(p, '\n' + JSON.stringify(T(5)) + '\n');
  await idx.update();
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [0, 1, 2, 3, 4, 5],
  );
  assert.ok(events.every((e) => e.kind === 'append'));
  assert.equal(events.reduce((s, e) => s + e.count, 0) >= 6, true);
});

test('follow: a truncated or replaced file is indexed again', async () => {
  const p = logFile(jsonl([T(0), T(1), T(2)]));
  const idx = new CreditIndex(p);
  const kinds: string[] = [];
  idx.onDidChange((e) => kinds.push(e.kind));
  await idx.update();
  truncateSync(p, 0);
  writeFileSync(p, jsonl([T(9)]));
  const r = await idx.update();
  assert.equal(r.kind, 'reset');
  assert.equal(idx.size, 1);
  assert.equal(idx.row(0).iteration, 9);
  assert.ok(kinds.includes('reset'));
  // replaced by rename with a longer file whose head differs
  const other = p + '.new';
  writeFileSync(other, jsonl([T(7), T(8), T(9), T(10), T(11)]));
  renameSync(other, p);
  const r2 = await idx.update();
  assert.equal(r2.kind, 'reset');
  assert.deepEqual(
    Array.from({ length: idx.size }, (_, i) => idx.row(i).iteration),
    [7, 8, 9, 10, 11],
  );
});

test('metrics: every numeric field is a series; a repeated iteration keeps the later row and is reported', async () => {
  const dir = tempDir();
  const p = join(dir, 'ws_metrics.jsonl');
  writeFileSync(
    p,
    [
      '{"iteration": 0, "ws/c_mean": 0.1, "train/loss": 1, "note": "x"}',
      '{"iteration": 1, "ws/c_mean": NaN, "train/loss": 2}',
      '{"iteration": 2, "ws/c_mean": 0.3}',
      'garbage',
      '{"rollout_id": 1, "ws/c_mean": 0.25, "train/loss": 5}',
    ].join('\n') + '\n',
  );
  const m = new MetricsIndex(p);
  await m.update();
  const t = m.getTable();
  assert.deepEqual(t.iterations, [0, 1, 2]);
  const c = t.values('ws/c_mean')!;
  assert.deepEqual(Array.from(c), [0.1, 0.25, 0.3]);
  const loss = t.values('train/loss')!;
  assert.ok(Number.isNaN(loss[2]!), 'a missing value is a gap');
  assert.equal(loss[1], 5);
  assert.ok(!t.names.includes('note'));
  assert.equal(t.values('note'), undefined);
  assert.deepEqual(m.duplicates(), [{ iteration: 1, lines: [2, 5] }]);
  assert.deepEqual(
    m.skippedLines.map((s) => s.line),
    [4],
  );
  assert.equal(t.names[0], 'ws/c_mean', 'ws/ metrics first');
});

test('a run is found from its folder, its logs folder, or one file', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'ws_credit_log.jsonl'), '');
  writeFileSync(join(dir, 'logs', 'ws_metrics.jsonl'), '');
  for (const p of [dir, join(dir, 'logs'), join(dir, 'logs', 'ws_credit_log.jsonl')]) {
    const r = await locateRun(p);
    assert.equal(r?.root, dir, p);
    assert.equal(r?.creditLog, join(dir, 'logs', 'ws_credit_log.jsonl'));
    assert.equal(r?.metricsLog, join(dir, 'logs', 'ws_metrics.jsonl'));
  }
  assert.equal(await locateRun(join(dir, 'nowhere')), undefined);
});

test('the run report is cached, and recomputed when the log grows or a bad line arrives', async () => {
  const { Run } = await import('../../src/core/run/run');
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  const p = join(dir, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(p, jsonl([T(0), T(1)]));
  const run = (await Run.open(dir))!;
  await run.update();
  const first = run.report()!;
  assert.equal(first.report.trajectories, 2);
  assert.equal(run.report(), first, 'unchanged logs: the same report object');
  appendFileSync(p, jsonl([T(2)]));
  await run.update();
  assert.equal(run.report()!.report.trajectories, 3);
  appendFileSync(p, 'not json\n');
  await run.update();
  assert.equal(run.report()!.report.skippedLines, 1);
});

test('queries: filters, several sort keys in order, ties kept in file order, pages', async () => {
  const { Run } = await import('../../src/core/run/run');
  const { queryRows, page } = await import('../../src/core/run/query');
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  // reward and A chosen so that the second key decides among equal first keys
  const recs = [
    T(0, 0, 0, { reward: 1, A: 0.5 }),
    T(0, 0, 1, { reward: 0, A: -0.5 }),
    T(0, 1, 0, { reward: 1, A: 0.9 }),
    T(1, 0, 0, { reward: 0, A: -0.1 }),
    T(1, 0, 1, { reward: 1, A: 0.5 }),
    T(1, 1, 0, { reward: 0, A: -0.5 }),
  ];
  writeFileSync(join(dir, 'logs', 'ws_credit_log.jsonl'), jsonl(recs));
  const run = (await Run.open(dir))!;
  await run.update();
  const idx = run.credit!;
  const keys = (rows: Int32Array): string[] => page(idx, rows, 0, 100).map((r) => `${r.iteration}/${r.group}/${r.rollout}`);
  assert.deepEqual(
    keys(queryRows(idx, { filter: {}, sort: [] })),
    ['0/0/0', '0/0/1', '0/1/0', '1/0/0', '1/0/1', '1/1/0'],
    'no sort: file order',
  );
  assert.deepEqual(keys(queryRows(idx, { filter: {}, sort: [{ key: 'reward', descending: true }, { key: 'A' }] })), [
    '0/0/0',
    '1/0/1',
    '0/1/0',
    '0/0/1',
    '1/1/0',
    '1/0/0',
  ]);
  assert.deepEqual(
    keys(queryRows(idx, { filter: {}, sort: [{ key: 'A' }] })),
    ['0/0/1', '1/1/0', '1/0/0', '0/0/0', '1/0/1', '0/1/0'],
    'ties in file order',
  );
  assert.deepEqual(keys(queryRows(idx, { filter: { iterationMin: 1, reward: 'failure' }, sort: [{ key: 'A', descending: true }] })), [
    '1/0/0',
    '1/1/0',
  ]);
  assert.deepEqual(
    page(idx, queryRows(idx, { filter: {}, sort: [] }), 4, 10).map((r) => r.rollout),
    [1, 0],
  );
});
