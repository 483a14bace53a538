import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { downloadCommandLine, shellQuote } from '../../src/extension/shellCommand';

const HOSTILE = [
  '$(touch PWNED)',
  '`touch PWNED`',
  '/tmp/x; touch PWNED',
  "it's here'; touch PWNED; echo '",
  '"$(touch PWNED)"',
  '/a b\n touch PWNED',
  '$HOME && touch PWNED | cat',
  "''",
  '',
];

test('shell quoting: a POSIX shell gives back each hostile word as it was, and runs none of it', () => {
  const cwd = tempDir();
  for (const w of HOSTILE) {
    const out = execFileSync('/bin/sh', ['-c', `printf '%s' ${shellQuote(w)}`], { cwd, encoding: 'utf8' });
    assert.equal(out, w);
    assert.ok(!existsSync(join(cwd, 'PWNED')), `ran code from ${JSON.stringify(w)}`);
  }
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
});

test('the copied download command: its words reach the program unchanged, the destination and endpoint never run', () => {
  const cwd = tempDir();
  for (const w of HOSTILE) {
    const line = downloadCommandLine({ repo: 'o/r', kind: 'resume', iteration: 39, dest: w, endpoint: `http://127.0.0.1:1/${w}` });
    assert.ok(line.startsWith(`npx rlrb download 'o/r' --kind 'resume' --iteration '39' --dest '`), line);
    // the shell's view of the words: `npx` swapped for a printer of its arguments
    const args = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${line.slice('npx '.length)}`], { cwd, encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    assert.deepEqual(args, [
      'rlrb',
      'download',
      'o/r',
      '--kind',
      'resume',
      '--iteration',
      '39',
      '--dest',
      w,
      '--endpoint',
      `http://127.0.0.1:1/${w}`,
    ]);
    assert.ok(!existsSync(join(cwd, 'PWNED')), `ran code from ${JSON.stringify(w)}`);
  }
  assert.equal(downloadCommandLine({ repo: 'o/r', kind: 'logs', dest: './logs' }), `npx rlrb download 'o/r' --kind 'logs' --dest './logs'`);
});
