/**
 * Issue 22, the CLI's cases: an export to a bad path or stopped by a signal leaves nothing and
 * says one line; what export prints from a log is escaped on a terminal; `--map`, `--stall-timeout`
 * and `demo --trajectories` are bounded; repo ids refuse `.`/`..` parts as links do; an endpoint's
 * credentials are never printed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CLI, rlrb } from '../cliRun';
import { writeDemo } from '../../src/core/demo/demo';
import { exportToFile, partialPath } from '../../src/cli/output/exportFile';
import { terminalSink } from '../../src/cli/output/terminalSink';
import { UsageError } from '../../src/cli/args';

function handRun(extra = ''): { root: string; log: string } {
  const root = join(tempDir(), 'run');
  mkdirSync(join(root, 'logs'), { recursive: true });
  const log = join(root, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(log, jsonl(HAND_LOG) + extra);
  return { root, log };
}

const oneLine = (err: string): void => assert.equal(err.trim().split('\n').length, 1, err);

test('export --out into a missing folder: one line, exit 2, nothing left (was an unhandled stream error)', () => {
  const { root } = handRun();
  const out = join(root, 'no', 'such', 'x.jsonl');
  const r = rlrb('export', root, '--format', 'jsonl', '--out', out, '--no-cache');
  assert.equal(r.code, 2, r.err);
  oneLine(r.err);
  assert.match(r.err, /^rlrb: --out .*x\.jsonl: the folder .* cannot be used \(ENOENT\)/);
  assert.doesNotMatch(r.err, /at .*\.js:\d+/, 'no stack');
  const file = join(root, 'x.jsonl', 'y.csv');
  writeFileSync(join(root, 'x.jsonl'), 'a file, not a folder');
  const f = rlrb('export', root, '--format', 'csv', '--out', file, '--no-cache');
  assert.equal(f.code, 2, f.err);
  assert.match(f.err, /is not a folder/);
  assert.deepEqual(
    readdirSync(root).filter((n) => n.includes('partial')),
    [],
  );
});

test('an export whose write fails on the way (a full disk) rejects with one line and removes the partial file', async () => {
  const dir = tempDir();
  const out = join(dir, 'x.csv');
  let writes = 0;
  const full = async (path: string, flags: string) => {
    const { open } = await import('node:fs/promises');
    const fh = await open(path, flags);
    return {
      write: ((...args: Parameters<typeof fh.write>) => {
        if (++writes > 1) return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        return fh.write(...args);
      }) as typeof fh.write,
      close: () => fh.close(),
    };
  };
  await assert.rejects(
    exportToFile(
      out,
      async (sink) => {
        await sink.write(Buffer.from('a,b\r\n'));
        assert.ok(existsSync(partialPath(out)), 'written to the partial file first');
        await sink.write(Buffer.from('1,2\r\n'));
      },
      full,
    ),
    (e: Error) => e.message === `cannot write ${out}: ENOSPC`,
  );
  assert.deepEqual(readdirSync(dir), [], 'neither the file nor the partial file');
  await assert.rejects(
    exportToFile(join('/proc/self', 'x.csv'), async () => undefined),
    (e: unknown) => e instanceof UsageError && /cannot write in \/proc\/self/.test(e.message),
  );
});

/** A log long enough that an export is still writing when the signal comes: written once, read by each signal's export. */
let longLog: string | undefined;

for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
  test(`export stopped by ${signal} removes its partial file (as Ctrl-C does)`, async () => {
    longLog ??= writeDemo(tempDir(), { trajectories: 20000, hubRepo: false, baseline: false }).creditLog;
    const creditLog = longLog;
    const dir = tempDir();
    const out = join(dir, 'all.jsonl');
    const child = spawn('node', [CLI, 'export', creditLog, '--format', 'csv', '--out', out, '--no-cache'], { stdio: 'ignore' });
    const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    const partial = (): boolean => readdirSync(dir).some((n) => n.endsWith('.partial'));
    for (let i = 0; i < 4000 && !partial() && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 2));
    assert.ok(partial(), 'the export had begun writing');
    child.kill(signal);
    const code = await exit;
    assert.equal(code, { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 }[signal]);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('partial') || n === 'all.jsonl'),
      [],
    );
  });
}

test('export: log text on stderr is escaped (an OSC title sequence in a skipped line)', () => {
  const { root } = handRun('oops \u001b]0;owned\u0007 {\n');
  const r = rlrb('export', root, '--format', 'csv', '--no-cache');
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /skipped 1 line/);
  assert.doesNotMatch(r.err, /[\u001b\u0007]/);
});

test('export to a terminal: controls from the log are escaped and CRLF is a line end; to a pipe the bytes are raw', async () => {
  const got: Buffer[] = [];
  const tty = new Writable({
    write(c: Buffer, _e, cb) {
      got.push(c);
      cb();
    },
  });
  const sink = terminalSink(tty);
  const text = Buffer.from('a,"x\u001b]0;t\u0007\u202e"\r\n\u00e9\r\n', 'utf8');
  // split between CR and LF, and inside the é
  const cr = text.indexOf(0x0d) + 1;
  const e = text.indexOf(0xc3) + 1;
  for (const part of [text.subarray(0, cr), text.subarray(cr, e), text.subarray(e)]) await sink.write(part);
  assert.equal(Buffer.concat(got).toString('utf8'), 'a,"x\\x1b]0;t\\x07\\u202e"\n\u00e9\n');
  const { root } = handRun();
  const piped = rlrb('export', root, '--format', 'csv', '--no-cache');
  assert.match(piped.out, /\r\n/, 'a pipe gets the CSV as it is');
});

test('--map: a file that is not regular (/dev/zero) or larger than 1 MB is refused in one line', () => {
  const { root } = handRun();
  const big = join(tempDir(), 'big.json');
  writeFileSync(big, `{"reward": "reward", "x": "${'y'.repeat(1024 * 1024)}"}`);
  for (const [map, message] of [
    ['/dev/zero', /the mapping file \/dev\/zero is not a regular file/],
    [big, /the mapping file .*big\.json is larger than 1 MB/],
  ] as const) {
    for (const cmd of [
      ['report', root],
      ['export', root, '--format', 'csv'],
    ]) {
      const r = rlrb(...cmd, '--map', map, '--no-cache');
      assert.equal(r.code, 2, r.err);
      oneLine(r.err);
      assert.match(r.err, message);
    }
  }
});

test('download --stall-timeout above 2^31 ms is refused naming the flag and the bound (it became a 1 ms timer)', () => {
  const r = rlrb(
    'download',
    'o/r',
    '--kind',
    'logs',
    '--dest',
    tempDir(),
    '--endpoint',
    'http://127.0.0.1:9',
    '--stall-timeout',
    '2147484',
  );
  assert.equal(r.code, 2, r.err);
  oneLine(r.err);
  assert.match(r.err, /^rlrb: --stall-timeout must be a number >= 1 and <= 2147483, not "2147484"/);
});

test('repo ids with a "." or ".." part are refused before any request, as the link parser refuses them', () => {
  for (const args of [
    ['hub', 'ls', '../x'],
    ['hub', 'ls', 'o/..'],
    ['hub', 'ls', './x'],
    ['download', 'o/.', '--kind', 'logs', '--dest', tempDir()],
    ['report', 'hub:o/..'],
    ['report', 'hub:../x'],
  ]) {
    const r = rlrb(...args, '--endpoint', 'http://127.0.0.1:9');
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    oneLine(r.err);
    assert.match(r.err, /is not a Hub repo id \(owner\/name\)/);
  }
});

test('the credentials in --endpoint are never printed', () => {
  for (const args of [
    ['hub', 'ls', 'o/r'],
    ['download', 'o/r', '--kind', 'logs', '--dest', tempDir()],
  ]) {
    const r = rlrb(...args, '--endpoint', 'http://alice:s3cret@127.0.0.1:9');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /127\.0\.0\.1:9/, 'the endpoint is named');
    assert.doesNotMatch(r.err + r.out, /s3cret|alice/);
  }
  const bad = rlrb('hub', 'ls', 'o/r', '--endpoint', 'ftp://bob:hunter2@example.com');
  assert.equal(bad.code, 2);
  assert.doesNotMatch(bad.err, /hunter2/);
});

test('demo --trajectories is capped (1e12 wrote without bound) and takes decimal digits only', () => {
  for (const n of ['1e12', '1000001', '0x10']) {
    const dir = tempDir();
    const r = rlrb('demo', dir, '--trajectories', n);
    assert.equal(r.code, 2, `${n}: ${r.err}`);
    oneLine(r.err);
    assert.match(r.err, /--trajectories must be a whole number >= 1 and <= 1000000/);
    assert.deepEqual(readdirSync(dir), [], 'nothing written');
  }
});
