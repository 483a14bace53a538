import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { targetIsLog } from '../../src/core/export/exportTarget';

test("the extension's export refuses the run's own logs as its target: the same path, another spelling, a symlink or a hard link", async () => {
  const dir = tempDir();
  const credit = join(dir, 'ws_credit_log.jsonl');
  const metrics = join(dir, 'ws_metrics.jsonl');
  writeFileSync(credit, '{"iteration": 0}\n');
  writeFileSync(metrics, '{"iteration": 0}\n');
  const logs = [credit, metrics, undefined];
  assert.equal(await targetIsLog(credit, logs), credit);
  assert.equal(await targetIsLog(join(dir, '.', 'sub', '..', 'ws_metrics.jsonl'), logs), metrics);
  symlinkSync(credit, join(dir, 'alias.jsonl'));
  assert.equal(await targetIsLog(join(dir, 'alias.jsonl'), logs), credit);
  linkSync(metrics, join(dir, 'hard.jsonl'));
  assert.equal(await targetIsLog(join(dir, 'hard.jsonl'), logs), metrics);
  writeFileSync(join(dir, 'other.jsonl'), '{"iteration": 0}\n');
  assert.equal(await targetIsLog(join(dir, 'other.jsonl'), logs), undefined);
  assert.equal(await targetIsLog(join(dir, 'new.csv'), logs), undefined, 'a file not written yet is no log');
});
