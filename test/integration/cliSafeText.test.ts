/** Terminal controls never reach the terminal: `safeText`, and `rlrb hub ls` over file names from a server. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { safeJson, safeLine, safeText } from '../../src/cli/output/safeText';
import { startHubEmulator } from '../hubEmulator/server';

test('safeText makes ESC, BEL, C1, DEL and bidi controls visible and keeps newlines and tabs', () => {
  assert.equal(safeText('a\u001b]0;t\u0007b\u009b\u007f\u202eevil\n\tx'), 'a\\x1b]0;t\\x07b\\x9b\\x7f\\u202eevil\n\tx');
  assert.equal(safeLine('a\nb\tc\rd'), 'a\\x0ab\\x09c\\x0dd');
  const v = { s: 'x\u009b\u202e\u2028y', n: 1 };
  assert.doesNotMatch(safeJson(v), /[\u007f-\u009f\u202e\u2028]/);
  assert.deepEqual(JSON.parse(safeJson(v)), v);
});

test('rlrb hub ls writes file names from the server escaped', async () => {
  const repo = tempDir();
  const evil = 'ws_\u001b]0;owned\u0007\u009b2J.jsonl';
  mkdirSync(join(repo, 'logs'), { recursive: true });
  writeFileSync(join(repo, 'logs', evil), '{}\n');
  mkdirSync(join(repo, 'resume', 'iter_0000001'), { recursive: true });
  writeFileSync(join(repo, 'resume', 'iter_0000001', 'common.pt'), 'x');
  const emu = await startHubEmulator({ repos: { 'acme/run': repo } });
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, HF_HOME: tempDir() };
    delete env['HF_TOKEN'];
    for (const json of [[], ['--json']]) {
      const child = spawn('node', [resolve('dist/cli.js'), 'hub', 'ls', 'acme/run', '--endpoint', emu.url, ...json], { env });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      assert.equal(code, 0);
      assert.match(out, /owned/);
      assert.doesNotMatch(out, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  } finally {
    await emu.close();
  }
});
