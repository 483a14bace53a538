/**
 * The CLI's readable output against a hostile workspace: a run folder whose name holds a
 * newline and terminal escapes must not forge a line of `rlrb report` or `rlrb compare`
 * (every line the CLI prints from such a name is one line, its controls escaped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb } from '../cliRun';

const FORGED = 'FORGED: every figure meets its target';
/** A run folder named with a newline, a forged line and an escape that clears the screen; its credit log has a line that is not JSON (a warning naming the file). */
function hostileRun(): string {
  const root = join(tempDir(), `run\n${FORGED}\u001b[2J`);
  mkdirSync(join(root, 'logs'), { recursive: true });
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG) + 'not json\n');
  return root;
}

function assertNoForgedLine(out: string): void {
  for (const line of out.split('\n')) assert.ok(!line.startsWith(FORGED), `a forged line: ${JSON.stringify(line)}`);
  assert.doesNotMatch(out, /\u001b/);
}

test('rlrb report: a run folder named with a newline prints on one line, escaped', () => {
  const root = hostileRun();
  const r = rlrb('report', root, '--no-cache');
  assert.equal(r.code, 0, r.err);
  assertNoForgedLine(r.out);
  assert.match(r.out, /^Run report: .*run\\x0aFORGED: every figure meets its target\\x1b\[2J$/m);
});

test('rlrb compare: the run names and every warning naming their files stay one line each', () => {
  const a = hostileRun();
  const r = rlrb('compare', a, hostileRun());
  assert.equal(r.code, 0, r.err);
  assertNoForgedLine(r.out);
  assert.match(r.out, /^Compare: A = .*run\\x0aFORGED/m);
  assert.match(r.out, /^ {2}- A: .*run\\x0aFORGED.*skipped 1 line/m, 'the warning naming the log is there, escaped');
});

test('--threads above 256 is refused in one line (a billion threads ran a 46 MB log out of memory after 90 s)', () => {
  const root = join(tempDir(), 'run');
  mkdirSync(join(root, 'logs'), { recursive: true });
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  for (const args of [
    ['report', root, '--no-cache', '--threads', '1000000000'],
    ['show', root, '--iteration', '0', '--group', '0', '--rollout', '0', '--no-cache', '--threads', '257'],
    ['compare', root, root, '--threads', '257'],
    ['export', root, '--format', 'csv', '--threads', '257'],
  ]) {
    const r = rlrb(...args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, /^rlrb: (export: )?--threads must be a whole number .*256/);
    assert.equal(r.err.trim().split('\n').length, 1);
  }
  assert.equal(rlrb('report', root, '--threads', '256', '--no-cache').code, 0, 'the largest the setting allows is taken');
});
