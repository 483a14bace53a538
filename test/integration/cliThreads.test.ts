/** `--threads N` and `RLRB_INDEX_CACHE_MB` on the CLI: checked, and the threaded report equal to the one-thread report. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { writeDemo } from '../../src/core/demo/demo';

const CLI = resolve('dist/cli.js');

function rlrb(env: Record<string, string>, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync('node', [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

test('--threads takes a whole number >= 0; RLRB_INDEX_CACHE_MB a number of megabytes', () => {
  const { creditLog } = writeDemo(tempDir(), { trajectories: 100, hubRepo: false, baseline: false });
  const env = { XDG_CACHE_HOME: tempDir() };
  for (const bad of ['x', '-1', '1.5']) {
    const r = rlrb(env, 'report', creditLog, '--threads', bad);
    assert.equal(r.code, 2, bad);
    assert.match(r.err, /--threads must be a whole number >= 0/);
  }
  const r = rlrb({ ...env, RLRB_INDEX_CACHE_MB: 'lots' }, 'report', creditLog);
  assert.equal(r.code, 2);
  assert.match(r.err, /RLRB_INDEX_CACHE_MB must be a number of megabytes/);
  const none = rlrb({ ...env, RLRB_INDEX_CACHE_MB: '0' }, 'report', creditLog, '--json');
  assert.equal(none.code, 0, none.err);
  const dir = join(env.XDG_CACHE_HOME, 'rlrb');
  const saved = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.rlrbidx')) : [];
  assert.deepEqual(saved, [], 'a limit of 0 saves nothing');
  const some = rlrb(env, 'report', creditLog, '--json');
  assert.equal(some.code, 0, some.err);
  assert.equal(
    readdirSync(dir).filter((f) => f.endsWith('.rlrbidx')).length,
    3,
    'the default limit saves both indexes (credit and metrics log) and the kept report',
  );
});

test('report of a 34 MB log: --threads 2 prints what --threads 1 prints', () => {
  const { creditLog } = writeDemo(tempDir(), { trajectories: 300, hubRepo: false, baseline: false });
  // the demo repeated up to 34 MB, with a bad line here and there: above the 32 MB floor for threads
  const text = readFileSync(creditLog, 'utf8');
  const parts: string[] = [];
  for (let n = 0; n * text.length < 34e6; n++) parts.push(text, `not json ${n}\n`);
  writeFileSync(creditLog, parts.join(''));
  const one = rlrb({}, 'report', creditLog, '--json', '--no-cache', '--threads', '1');
  assert.equal(one.code, 0, one.err);
  for (const t of ['2']) {
    const r = rlrb({}, 'report', creditLog, '--json', '--no-cache', '--threads', t);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, one.out, `--threads ${t}`);
  }
});

test('compare and export take --threads too: a whole number >= 0, and one thread gives what every core gives', () => {
  const dir = tempDir();
  const { creditLog } = writeDemo(dir, { trajectories: 100, hubRepo: false, baseline: true });
  const env = { XDG_CACHE_HOME: tempDir() };
  const base = join(dir, 'baseline');
  for (const bad of ['x', '1.5', '-1']) {
    const c = rlrb(env, 'compare', dir, base, `--threads=${bad}`);
    assert.equal(c.code, 2, `compare --threads ${bad}`);
    assert.match(c.err, /--threads must be a whole number/);
    const e = rlrb(env, 'export', creditLog, '--format', 'csv', `--threads=${bad}`);
    assert.equal(e.code, 2, `export --threads ${bad}`);
    assert.match(e.err, /--threads must be a whole number/);
  }
  const one = rlrb(env, 'compare', dir, base, '--json', '--threads', '1');
  assert.equal(one.code, 0, one.err);
  assert.equal(rlrb(env, 'compare', dir, base, '--json').out, one.out);
  const csv = rlrb(env, 'export', creditLog, '--format', 'csv', '--threads', '1');
  assert.equal(csv.code, 0, csv.err);
  assert.equal(rlrb(env, 'export', creditLog, '--format', 'csv').out, csv.out);
});
