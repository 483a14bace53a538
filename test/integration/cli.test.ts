import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CLI, rlrb, rlrbJson } from '../cliRun';

const log = join(tempDir(), 'ws_credit_log.jsonl');
writeFileSync(log, jsonl(HAND_LOG) + 'not json\n');

test('report --json prints exactly the keys of section 4 plus the listed extras', () => {
  const o = rlrbJson('report', log);
  assert.deepEqual(
    Object.keys(o).sort(),
    [
      'aTMismatches',
      'auroc',
      'cMismatches',
      'creditDiagnostics',
      'creditedTurns',
      'executedIsArgmaxRate',
      'fallbackRate',
      'gate',
      'iterations',
      'labeledTurns',
      'meanC',
      'perIteration',
      'rmsBetaCOverRmsA',
      'signFlipGroups',
      'signFlipRate',
      'skippedLines',
      'trajectories',
      'twinDisagreements',
      'warnings',
    ].sort(),
  );
  const per = o['perIteration'] as Record<string, unknown>[];
  assert.deepEqual(
    Object.keys(per[0]!).sort(),
    [
      'iteration',
      'trajectories',
      'signFlipRate',
      'fallbackRate',
      'executedIsArgmaxRate',
      'meanC',
      'rmsBetaCOverRmsA',
      'gateMeanDiff',
    ].sort(),
  );
  assert.deepEqual(
    Object.keys(o['gate'] as object).sort(),
    ['firstHalfMeanDiff', 'groups', 'iterations', 'iterationsPositive', 'meanDiff', 'p', 'secondHalfMeanDiff', 'signTestP', 't'].sort(),
  );
  assert.equal(o['skippedLines'], 1);
  assert.equal(o['trajectories'], 5);
  assert.ok((o['warnings'] as string[]).some((w) => w.includes('line 6')));
});

test('report flags change the figures; a readable table without --json', () => {
  const a = JSON.parse(rlrb('report', log, '--json', '--tau', '10').out) as { cMismatches: number };
  assert.equal(a.cMismatches, 3);
  const t = rlrb('report', log);
  assert.equal(t.code, 0);
  assert.match(t.out, /sign-flip rate/);
  assert.match(t.out, /Warnings:/);
});

test('bad usage and unreadable files exit 2 with one line', () => {
  for (const args of [
    ['report'],
    ['report', '/no/such/run'],
    ['report', log, '--beta', 'abc'],
    ['report', log, '--key-case', 'maybe'],
    ['frobnicate'],
    ['show', log, '--iteration', '0'],
    ['report', log, '--map', '/no/such/map.json'],
  ]) {
    const r = rlrb(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err, /^rlrb: /);
  }
});

test('show prints one trajectory turn by turn, and as JSON', () => {
  const r = rlrb('show', log, '--iteration', '1', '--group', '0', '--rollout', '1', '--json');
  assert.equal(r.code, 0, r.err);
  const t = JSON.parse(r.out) as { turns: { c: number; At: number }[]; reward: number };
  assert.equal(t.reward, 0);
  assert.equal(t.turns[0]!.c, 1);
  assert.equal(t.turns[0]!.At, 0.2);
  const text = rlrb('show', log, '--iteration', '0', '--group', '0', '--rollout', '0');
  assert.match(text.out, /done \(dropped\)/);
  assert.match(text.out, /masked/);
  const missing = rlrb('show', log, '--iteration', '9', '--group', '0', '--rollout', '0');
  assert.equal(missing.code, 1);
});

test('a field mapping file is read and checked', () => {
  const dir = tempDir();
  const map = join(dir, 'map.json');
  writeFileSync(map, JSON.stringify({ nonsense: 'x' }));
  const r = rlrb('report', log, '--map', map);
  assert.equal(r.code, 2);
  assert.match(r.err, /not a reference field name/);
  writeFileSync(map, JSON.stringify({ reward: 'reward' }));
  assert.equal(rlrb('report', log, '--map', map, '--json').code, 0);
});

test('an unknown flag exits 2 naming it (--tua is not --tau); a negative number is still a value', () => {
  const r = rlrb('report', log, '--tua', '10');
  assert.equal(r.code, 2, r.out);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(r.err, /^rlrb: .*--tua/);
  const s = rlrb('show', log, '--iteration', '1', '--group', '0', '--rollout', '1', '--dest', 'x');
  assert.equal(s.code, 2);
  assert.match(s.err, /--dest/);
  const neg = rlrb('report', log, '--json', '--beta', '-0.4');
  assert.equal(neg.code, 0, neg.err);
  const eq = rlrb('report', log, '--json', '--tau=10');
  assert.equal((JSON.parse(eq.out) as { cMismatches: number }).cMismatches, 3);
});

test('a UTF-16 log exits 2 saying what it is', () => {
  const p = join(tempDir(), 'ws_credit_log.jsonl');
  writeFileSync(p, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(jsonl(HAND_LOG), 'utf16le')]));
  const r = rlrb('report', p);
  assert.equal(r.code, 2, r.out);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  assert.match(r.err, /UTF-16/);
});

test('terminal controls from a log (ESC, BEL, C1, bidi) are written escaped, in text and JSON', () => {
  const p = join(tempDir(), 'ws_credit_log.jsonl');
  const evil = { ...HAND_LOG[2]!, instruction: 'x\u009b31m\u202eevil', turns: [{ action: 'wait()\u001b]52;c;AAAA\u0007', A_t: -1 }] };
  writeFileSync(p, jsonl([evil]) + 'oops \u001b]0;title\u0007 {\n');
  const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;
  const rep = rlrb('report', p);
  assert.equal(rep.code, 0, rep.err);
  assert.match(rep.out, /line 2/);
  assert.doesNotMatch(rep.out, unsafe);
  for (const json of [[], ['--json']]) {
    const s = rlrb('show', p, '--iteration', '0', '--group', '0', '--rollout', '2', ...json);
    assert.equal(s.code, 0, s.err);
    assert.doesNotMatch(s.out, unsafe);
    assert.match(s.out, /\\u202e|\\u009b/);
  }
  const j = JSON.parse(rlrb('show', p, '--iteration', '0', '--group', '0', '--rollout', '2', '--json').out) as { instruction: string };
  assert.equal(j.instruction, evil.instruction);
});

test('an unreadable metrics log is a warning on stderr: report and show go on with the credit log', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  writeFileSync(join(dir, 'ws_metrics.jsonl'), Buffer.from('{"iteration": 0}\n', 'utf16le'));
  const r = rlrb('report', dir, '--json');
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /warning: .*ws_metrics\.jsonl/);
  assert.equal((JSON.parse(r.out) as { trajectories: number }).trajectories, 5);
  const s = rlrb('show', dir, '--iteration', '1', '--group', '0', '--rollout', '1');
  assert.equal(s.code, 0, s.err);
});

test('show --json gives each turn its marks and recomputedC; the text names them', () => {
  const r = rlrb('show', log, '--iteration', '1', '--group', '0', '--rollout', '1', '--json');
  const t = JSON.parse(r.out) as { turns: Record<string, unknown>[] };
  const keys = ['signFlip', 'fallback', 'clipped', 'cMismatch', 'aTMismatch', 'executedIsArgmax', 'masked', 'recomputedC'];
  const pick = (o: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, o[k]]));
  assert.deepEqual(pick(t.turns[0]!), {
    signFlip: true,
    fallback: false,
    clipped: true,
    cMismatch: false,
    aTMismatch: false,
    executedIsArgmax: true,
    masked: false,
    recomputedC: 1,
  });
  assert.equal(t.turns[1]!['aTMismatch'], true);
  const text = rlrb('show', log, '--iteration', '1', '--group', '0', '--rollout', '1').out;
  assert.match(text, /marks: sign flip, c clipped at \+-1, executed is argmax/);
  assert.match(text, /marks: A_t mismatch, executed is argmax/);
  const masked = rlrb('show', log, '--iteration', '0', '--group', '0', '--rollout', '0', '--json').out;
  assert.equal((JSON.parse(masked) as { turns: { recomputedC: number | null }[] }).turns[2]!.recomputedC, null);
});

test('download --stall-timeout takes seconds (at least 1), and a bad value exits 2 naming the flag before any connection', () => {
  const r = rlrb('download', 'o/r', '--kind', 'logs', '--dest', tempDir(), '--endpoint', 'http://127.0.0.1:9', '--stall-timeout', '0');
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /^rlrb: .*--stall-timeout/);
  const words = rlrb(
    'download',
    'o/r',
    '--kind',
    'logs',
    '--dest',
    tempDir(),
    '--endpoint',
    'http://127.0.0.1:9',
    '--stall-timeout',
    'soon',
  );
  assert.equal(words.code, 2, words.err);
  // a good value is taken: the download goes on to the (closed) endpoint and fails there, exit 1
  const ok = rlrb('download', 'o/r', '--kind', 'logs', '--dest', tempDir(), '--endpoint', 'http://127.0.0.1:9', '--stall-timeout', '5');
  assert.equal(ok.code, 1, ok.err);
  assert.doesNotMatch(ok.err, /stall-timeout/);
});

test('report saves its index in the cache folder, reads it back with the same figures, --no-cache writes none, cache clear empties it', () => {
  const fresh = tempDir();
  const env = (args: string[]) => spawnSync('node', [CLI, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: fresh } });
  const saved = () => (existsSync(join(fresh, 'rlrb')) ? readdirSync(join(fresh, 'rlrb')).filter((f) => f.endsWith('.rlrbidx')) : []);
  const none = env(['report', log, '--json', '--no-cache']);
  assert.equal(none.status, 0, none.stderr);
  assert.deepEqual(saved(), []);
  const first = env(['report', log, '--json']);
  assert.equal(saved().length, 2, 'the index and the kept report');
  const second = env(['report', log, '--json']);
  assert.equal(second.stdout, first.stdout);
  assert.equal(second.stdout, none.stdout);
  const cleared = env(['cache', 'clear']);
  assert.equal(cleared.status, 0, cleared.stderr);
  assert.deepEqual(saved(), []);
});

test('cache lists the saved indexes and the fetched ranges of Hub logs; cache clear deletes both and says so', () => {
  const fresh = tempDir();
  const env = (args: string[]) => spawnSync('node', [CLI, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: fresh } });
  assert.equal(env(['report', log, '--json']).status, 0);
  const key = join(fresh, 'rlrb', 'ranges', 'ab'.repeat(20));
  mkdirSync(key, { recursive: true });
  writeFileSync(join(key, '0-5'), 'hello');
  writeFileSync(join(key, '100-3'), 'abc');
  const listed = env(['cache']);
  assert.equal(listed.status, 0, listed.stderr);
  // the saved index and the kept report (src/core/cache/keptFigures.ts)
  assert.match(listed.stdout, /: 2 saved index\(es\), [\d.]+ MB; ranges\/: 2 fetched range\(s\) of 1 Hub log\(s\), 0\.0 MB\n$/);
  const cleared = env(['cache', 'clear']);
  assert.equal(cleared.status, 0, cleared.stderr);
  assert.match(cleared.stdout, /deleted 2 saved index\(es\), [\d.]+ MB, and 2 fetched range\(s\) of Hub logs \(ranges\/\), 0\.0 MB\n$/);
  assert.deepEqual(readdirSync(join(fresh, 'rlrb', 'ranges')), []);
  assert.match(env(['cache']).stdout, /: 0 saved index\(es\), 0\.0 MB; ranges\/: 0 fetched range\(s\) of 0 Hub log\(s\)/);
  assert.equal(env(['cache', 'bogus']).status, 2);
});
