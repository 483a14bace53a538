import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { locateRun, runName } from '../../src/core/run/runLocator';
import { defaultDest } from '../../src/extension/downloads/destinations';

test('downloaded logs (the default <owner>__<name>/logs destination, files under logs/) are a run named after the repo', async () => {
  const base = tempDir();
  for (const repo of ['XunmeiLiu/openwebrl-ws-credit-beta0.4', 'solo-run']) {
    const dest = defaultDest(base, repo, 'logs')!;
    mkdirSync(join(dest, 'logs'), { recursive: true });
    writeFileSync(join(dest, 'logs', 'ws_metrics.jsonl'), '{"iteration":0,"ws/c_mean":0.1}\n');
    const loc = await locateRun(dest);
    assert.equal(loc?.root, dest);
    assert.equal(loc?.name, repo);
  }
});

test('a run folder keeps its own name; a logs/ folder inside a run names the run', async () => {
  const base = tempDir();
  const run = join(base, 'my_run');
  mkdirSync(join(run, 'logs'), { recursive: true });
  writeFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), '');
  assert.equal((await locateRun(run))?.name, 'my_run');
  assert.equal((await locateRun(join(run, 'logs')))?.name, 'my_run');
  assert.equal(runName('/x/logs'), 'x');
  assert.equal(runName('/logs'), 'logs');
  assert.equal(runName('/a/logs/logs'), 'logs');
  assert.equal(runName('/a/owner__'), 'owner__');
});
