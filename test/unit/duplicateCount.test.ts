import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, jsonl } from '../helpers';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { computeReport } from '../../src/core/report/report';

const T = (iteration: number, group: number, rollout: number): Record<string, unknown> => ({
  iteration,
  group,
  rollout,
  reward: 0,
  A: 0,
  turns: [{ action: 'wait()', A_t: 0 }],
});

async function duplicateWarning(rows: Record<string, unknown>[]): Promise<string | undefined> {
  const p = join(tempDir(), 'ws_credit_log.jsonl');
  writeFileSync(p, jsonl(rows));
  const idx = new CreditIndex(p);
  await idx.update();
  return computeReport(idx).report.warnings.find((w) => /appear more than once/.test(w));
}

test('duplicates are counted by (iteration, group, rollout), small keys and keys past the packed range alike', async () => {
  // (1, 0, 65536) and (1, 1, 0) would share a packed key if the rollout were not bounded
  const small = [T(0, 0, 0), T(0, 0, 1), T(0, 0, 0), T(1, 1, 0), T(1, 0, 1), T(1, 1, 0), T(1, 1, 0)];
  assert.match((await duplicateWarning(small)) ?? '', /\b3\b/);
  const large = [T(1, 0, 65536), T(1, 1, 0), T(2 ** 21, 0, 0), T(2 ** 21, 0, 0)];
  assert.match((await duplicateWarning(large)) ?? '', /\b1\b/);
  assert.equal(await duplicateWarning([T(0, 0, 0), T(0, 0, 1), T(0, 1, 0)]), undefined);
});
