import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';
import { figuresView } from '../../src/extension/panels/views';

async function indexOf(records: readonly Record<string, unknown>[]): Promise<CreditIndex> {
  const dir = join(tempDir(), 'run', 'logs');
  mkdirSync(dir, { recursive: true });
  const p = join(dir, 'ws_credit_log.jsonl');
  writeFileSync(p, jsonl(records));
  const idx = new CreditIndex(p);
  await idx.update();
  return idx;
}

test("the report's figures on the wire: every key of the engine's report, with its value, and nothing else", async () => {
  const { report } = computeReport(await indexOf(HAND_LOG));
  const view = figuresView(report);
  assert.deepEqual(Object.keys(view).sort(), Object.keys(report).sort());
  assert.deepEqual(Object.keys(view.gate).sort(), Object.keys(report.gate).sort());
  assert.deepEqual(JSON.parse(JSON.stringify(view)), JSON.parse(JSON.stringify(report)));
});
