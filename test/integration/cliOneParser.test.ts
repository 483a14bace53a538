/**
 * The one parser and the one `openRun` of the CLI (issue 23 item 1): compare opens its runs as
 * report does (credit options, the saved-index store), numbers are read one strict way, every
 * command's usage errors are one line of ours (not Node's parser text), `--version`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CLI, rlrb } from '../cliRun';

function handRun(): string {
  const root = join(tempDir(), 'run');
  mkdirSync(join(root, 'logs'), { recursive: true });
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  return root;
}

function withCache(cache: string, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('node', [CLI, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cache } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('compare --tau 10: report A is what report --tau 10 prints (compare took the default options before)', () => {
  const a = handRun();
  const b = handRun();
  const report = rlrb('report', a, '--json', '--tau', '10');
  assert.equal(report.code, 0, report.err);
  const cmp = rlrb('compare', '--tau', '10', a, b, '--json');
  assert.equal(cmp.code, 0, cmp.err);
  const reportA = (JSON.parse(cmp.out) as { reportA: { cMismatches: number } }).reportA;
  assert.deepEqual(reportA, JSON.parse(report.out));
  assert.equal(reportA.cMismatches, 3, 'the figure --tau 10 changes');
  const plain = JSON.parse(rlrb('compare', a, b, '--json').out) as { reportA: { cMismatches: number } };
  assert.notEqual(plain.reportA.cMismatches, 3);
});

test('compare saves its indexes as report does, and a second compare opens them without writing them again', () => {
  const cache = tempDir();
  const a = handRun();
  const b = handRun();
  const saved = (): string[] => {
    const dir = join(cache, 'rlrb');
    // the kept figures (src/core/cache/keptFigures.ts) are JSON; a saved index is a frame
    const index = (f: string): boolean => f.endsWith('.rlrbidx') && !readFileSync(join(dir, f), 'latin1').startsWith('{"key"');
    return existsSync(dir) ? readdirSync(dir).filter(index) : [];
  };
  const first = withCache(cache, 'compare', a, b, '--json');
  assert.equal(first.code, 0, first.err);
  assert.equal(saved().length, 2, 'one saved index a run');
  assert.equal(readdirSync(join(cache, 'rlrb')).length, 3, 'and the kept comparison');
  const stat = (f: string): { ino: number; mtimeMs: number; bytes: string } => {
    const p = join(cache, 'rlrb', f);
    return { ino: statSync(p).ino, mtimeMs: statSync(p).mtimeMs, bytes: readFileSync(p).toString('base64') };
  };
  const before = saved().map(stat);
  // another window: not the kept comparison, so both runs open from their saved indexes
  const second = withCache(cache, 'compare', a, b, '--json', '--to', '999999');
  assert.equal(second.code, 0, second.err);
  assert.equal(withCache(cache, 'compare', a, b, '--json').out, first.out);
  const after = saved().map(stat);
  // the store renews a saved index's time when it loads it; a save writes a new file (a new inode) by rename
  after.forEach((x, i) => {
    assert.equal(x.ino, before[i]!.ino, 'not written again');
    assert.equal(x.bytes, before[i]!.bytes);
    assert.ok(x.mtimeMs > before[i]!.mtimeMs, 'loaded from the store');
  });
  assert.equal(withCache(cache, 'compare', a, b, '--no-cache', '--json').out, first.out, '--no-cache: the same figures');
});

test('numbers are decimal: --threads 0x10, 1e1, " 4" and "" are refused in one line naming the flag', () => {
  const a = handRun();
  for (const bad of ['0x10', '1e1', ' 4', '', '0b11', 'Infinity']) {
    for (const cmd of [
      ['report', a],
      ['compare', a, a],
      ['export', a, '--format', 'csv'],
    ]) {
      const r = rlrb(...cmd, `--threads=${bad}`, '--no-cache');
      assert.equal(r.code, 2, `${cmd[0]} --threads ${JSON.stringify(bad)}: ${r.err}`);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
      assert.match(r.err, /^rlrb: --threads must be a whole number >= 0 and <= 256/);
    }
  }
  const beta = rlrb('report', a, '--beta', '0x1', '--no-cache');
  assert.equal(beta.code, 2);
  assert.match(beta.err, /--beta must be a number/);
  assert.equal(rlrb('report', a, '--beta', '-0.4', '--no-cache', '--json').code, 0, 'a negative decimal is a number');
  assert.equal(rlrb('report', a, '--tau', '1e1', '--no-cache', '--json').code, 0, 'a real flag takes an exponent');
});

test('compare usage errors are one line of ours, not the parser text of Node', () => {
  const a = handRun();
  const cases: [string[], RegExp][] = [
    [['compare', a, a, '--frobnicate'], /^rlrb: unknown flag --frobnicate for rlrb compare \(its flags: /],
    [['compare', a, a, '--json=yes'], /^rlrb: --json takes no value$/],
    [['compare', a, a, '--from'], /^rlrb: --from needs a value$/],
    [['compare', a, a, '--from', '1', '--from', '2'], /^rlrb: --from is given twice$/],
    [['compare', a], /^rlrb: usage: rlrb compare <run A> <run B>/],
  ];
  for (const [args, message] of cases) {
    const r = rlrb(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.equal(r.err.trim().split('\n').length, 1, r.err);
    assert.match(r.err.trim(), message);
    assert.doesNotMatch(r.err, /ERR_PARSE_ARGS|To specify an option argument/);
  }
});

test('rlrb --version prints the version in package.json; every command has its usage under --help', () => {
  const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  const r = rlrb('--version');
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, `rlrb ${version}\n`);
  for (const cmd of ['demo', 'report', 'show', 'compare', 'export', 'hub', 'download', 'cache']) {
    const h = rlrb(cmd, '--help');
    assert.equal(h.code, 0, `${cmd}: ${h.err}`);
    assert.match(h.out, new RegExp(`^usage: rlrb ${cmd} `));
    assert.ok(rlrb('--help').out.includes(h.out.split('\n')[0]!.slice('usage: '.length)), `${cmd} is in the general help`);
  }
});
