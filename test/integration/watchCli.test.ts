import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb } from '../cliRun';
import { commandWords } from '../../src/cli/live/eventHook';

function handRun(): string {
  const root = join(tempDir(), 'run');
  mkdirSync(join(root, 'logs'), { recursive: true });
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  return root;
}

test('watch: a bad --interval or an empty --on-event is a one-line usage error', () => {
  const run = handRun();
  for (const [flag, value, says] of [
    ['--interval', '0', '--interval'],
    ['--interval', 'soon', '--interval'],
    ['--on-event', '  ', '--on-event'],
  ] as const) {
    const r = rlrb('watch', run, '--once', flag, value);
    assert.equal(r.code, 2, `${flag} ${value}: ${r.err}`);
    assert.match(r.err, new RegExp(says));
    assert.equal(r.err.trim().split('\n').length, 1);
  }
  const fast = rlrb('watch', run, '--once', '--interval', '1');
  // the hand log's iteration 0 falls back on a quarter of its turns: exit 1, as for cron
  assert.equal(fast.code, 1, fast.err);
  assert.match(fast.out, /^iteration 0: .*\nALERT iteration 0: credit fallback rate/);
  assert.match(fast.err, /warning: --interval 1 polls more often than every 15 s/);
});

test('--on-event is split into words with quotes, never through a shell', () => {
  assert.deepEqual(commandWords(`node "/a b/hook.js" 'x;y' $HOME`), ['node', '/a b/hook.js', 'x;y', '$HOME']);
});
