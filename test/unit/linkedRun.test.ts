import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { linkedRunProblem } from '../../src/core/links/linkedRun';

test('a run= link opens a folder or a .jsonl whose first record is a JSON object, and says so otherwise', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'logs'));
  const log = join(dir, 'logs', 'ws_credit_log.jsonl');
  writeFileSync(log, '\n{"iteration": 0, "group": 0, "rollout": 0, "reward": NaN}\n');
  assert.equal(await linkedRunProblem(dir), undefined);
  assert.equal(await linkedRunProblem(log), undefined);
  // a first line longer than what is read is judged by its first byte
  const long = join(dir, 'long.jsonl');
  writeFileSync(long, `{"iteration": 0, "text": "${'x'.repeat(200_000)}"}\n`);
  assert.equal(await linkedRunProblem(long), undefined);
  const passwd = join(dir, 'passwd');
  writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\n');
  assert.equal(
    await linkedRunProblem(passwd),
    `${passwd} is not a run: a link opens a run folder or a .jsonl run log, and this is not a .jsonl file`,
  );
  const cases: [string, string, RegExp][] = [
    ['text.jsonl', 'root:x:0:0:root:/root:/bin/bash\n', /and this file does not start with a JSON object$/],
    ['array.jsonl', '[1, 2]\n', /does not start with a JSON object$/],
    ['broken.jsonl', '{"iteration": 0, oops}\n', /and this file's first line is not JSON$/],
    ['empty.jsonl', '\n\n', /and this file has no record$/],
  ];
  for (const [name, text, want] of cases) {
    const p = join(dir, name);
    writeFileSync(p, text);
    assert.match((await linkedRunProblem(p)) ?? 'opened', want, name);
  }
  assert.match((await linkedRunProblem(join(dir, 'nothing'))) ?? '', /^no RL run at .*nothing \(ENOENT\)$/);
  if (process.platform !== 'win32') assert.match((await linkedRunProblem('/dev/null')) ?? '', /is neither a folder nor a file$/);
});
