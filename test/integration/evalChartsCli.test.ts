/** `rlrb compare`'s warning about a missing evaluation log, the CLI run as a user runs it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';
import { missingEvalsWarning } from '../../src/core/compare/compareRuns';

test('rlrb compare warns, in the text and in --json warnings, which run has no logs/eval_log.jsonl when evaluation is null', () => {
  assert.equal(
    missingEvalsWarning([{ name: 'B', root: '/b' }]),
    'run B (/b) has no logs/eval_log.jsonl: `evaluation` is null, no checkpoint verdict (docs/format.md section 8)',
  );
  const root = tempDir();
  const a = join(root, 'a');
  const b = join(root, 'b');
  for (const d of [a, b]) mkdirSync(join(d, 'logs'), { recursive: true });
  writeFileSync(join(a, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  writeFileSync(join(b, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  const none = rlrbJson('compare', a, b);
  assert.equal(none['evaluation'], null);
  const w = none['warnings'] as string[];
  assert.ok(
    w.includes(
      `run A (${a}) and run B (${b}) have no logs/eval_log.jsonl: \`evaluation\` is null, no checkpoint verdict (docs/format.md section 8)`,
    ),
    w.join('\n'),
  );
  writeFileSync(join(a, 'logs', 'eval_log.jsonl'), jsonl([{ iteration: 1, task_id: 't', reward: 1 }]));
  const oneSide = rlrbJson('compare', a, b);
  const w1 = oneSide['warnings'] as string[];
  assert.ok(
    w1.some((x) => x.startsWith(`run B (${b}) has no logs/eval_log.jsonl`)),
    w1.join('\n'),
  );
  assert.ok(!w1.some((x) => x.startsWith(`run A (${a})`) && x.includes('eval_log')), w1.join('\n'));
  const text = rlrb('compare', a, b);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /Warnings:\n(.*\n)*  - run B \(.*\) has no logs\/eval_log\.jsonl: `evaluation` is null/);
  writeFileSync(join(b, 'logs', 'eval_log.jsonl'), jsonl([{ iteration: 1, task_id: 't', reward: 0 }]));
  const both = rlrbJson('compare', a, b);
  assert.notEqual(both['evaluation'], null);
  assert.ok(!(both['warnings'] as string[]).some((x) => x.includes('eval_log')));
});
