/**
 * Logs a third audit broke: invalid UTF-8 (two task keys that differ only in bad bytes would merge
 * as U+FFFD), an evaluation line nested past the credit log's limit, and `rlrb tags` that read
 * past skipped lines without a word.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { EvalLog } from '../../src/core/eval/evalLog';
import { MAX_DEPTH } from '../../src/core/log/fastScan';
import { rlrb, rlrbJson } from '../cliRun';

function file(bytes: Buffer | string, name: string): string {
  const p = join(tempDir(), name);
  writeFileSync(p, bytes);
  return p;
}

const line = (s: string): Buffer => Buffer.from(s + '\n', 'utf8');

test('an evaluation line with invalid UTF-8 is skipped by number, not read as U+FFFD (two tasks would merge)', async () => {
  const bad = (b: number): Buffer =>
    Buffer.concat([Buffer.from('{"iteration": 1, "task_id": "t'), Buffer.from([b]), Buffer.from('", "reward": 1}\n')]);
  const p = file(Buffer.concat([line('{"iteration": 1, "task_id": "ok", "reward": 0}'), bad(0xff), bad(0xfe)]), 'eval_log.jsonl');
  const log = new EvalLog(p);
  await log.update();
  assert.equal(log.episodes.length, 1);
  assert.deepEqual(
    log.skippedLines.map((s) => [s.line, s.message]),
    [
      [2, 'not valid UTF-8'],
      [3, 'not valid UTF-8'],
    ],
  );
});

test('a credit log line with invalid UTF-8 is skipped by number', async () => {
  const rec = '{"iteration": 0, "group": 0, "rollout": 1, "reward": 1, "A": 0.5, "task_id": "x\xff", "turns": []}';
  const p = file(Buffer.concat([line(JSON.stringify(HAND_LOG[0])), Buffer.from(rec + '\n', 'latin1')]), 'ws_credit_log.jsonl');
  const idx = new CreditIndex(p);
  await idx.update();
  assert.equal(idx.size, 1);
  assert.deepEqual(idx.skippedLines, [{ line: 2, message: 'not valid UTF-8' }]);
});

test('an evaluation line nested deeper than the credit log allows is skipped, naming the limit', async () => {
  const deep = `${'['.repeat(MAX_DEPTH + 10)}${']'.repeat(MAX_DEPTH + 10)}`;
  const p = file(
    line('{"iteration": 1, "task_id": "a", "reward": 1}').toString() + `{"iteration": 1, "task_id": "b", "reward": 1, "x": ${deep}}\n`,
    'eval_log.jsonl',
  );
  const log = new EvalLog(p);
  await log.update();
  assert.equal(log.episodes.length, 1);
  assert.deepEqual(log.skippedLines, [{ line: 2, message: `nested deeper than ${MAX_DEPTH} levels (${MAX_DEPTH + 11})` }]);
});

test('rlrb tags reports skipped lines as rlrb report does: in --json and as a warning', () => {
  const root = tempDir();
  mkdirSync(join(root, 'logs'));
  writeFileSync(join(root, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG) + 'not json\n');
  const j = rlrbJson('tags', root, '--no-cache') as { skippedLines: number; warnings: string[] };
  assert.equal(j.skippedLines, 1);
  assert.equal(j.warnings.length, 1);
  assert.match(j.warnings[0]!, /ws_credit_log\.jsonl: skipped 1 line\(s\) that are not records: line 6 \(not JSON/);
  const text = rlrb('tags', root, '--no-cache');
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^Warnings:\n {2}- .*skipped 1 line\(s\) that are not records: line 6/m);
});
