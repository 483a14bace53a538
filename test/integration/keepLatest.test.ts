import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload } from '../../src/core/hub/download';
import { checkRepo, repoNameProblem } from '../../src/core/hub/repoCheck';

const REPO = 'acme/keep-latest';
let emu: HubEmulator;

before(async () => {
  const dir = tempDir('rlrb-keep-');
  for (const n of [10, 20]) {
    const d = join(dir, 'resume', `iter_${String(n).padStart(7, '0')}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'common.pt'), Buffer.alloc(2000 + n, n));
    writeFileSync(join(d, 'metadata.json'), `{"iteration":${n}}`);
  }
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '20\n');
  emu = await startHubEmulator({ repos: { [REPO]: dir } });
});
after(async () => {
  await emu.close();
});

test('keepLatest: an older checkpoint is fetched and verified, and the latest file is left as it was', async () => {
  const dest = tempDir();
  writeFileSync(join(dest, 'latest_checkpointed_iteration.txt'), '20');
  const l = await listRun(REPO, 'main', { endpoint: emu.url });
  const r = await runDownload(planDownload(l, 'resume', 10, dest), { endpoint: emu.url, keepLatest: true });
  assert.equal(r.latestWritten, false);
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '20', 'latest still names 20');
  assert.equal(readFileSync(join(dest, 'iter_0000010', 'metadata.json'), 'utf8'), '{"iteration":10}');
  assert.equal(readFileSync(join(dest, 'iter_0000010', 'common.pt')).length, 2010);
});

test('keepLatest into an empty destination writes no latest file at all', async () => {
  const dest = tempDir();
  const l = await listRun(REPO, 'main', { endpoint: emu.url });
  await runDownload(planDownload(l, 'resume', 10, dest), { endpoint: emu.url, keepLatest: true });
  assert.ok(existsSync(join(dest, 'iter_0000010', 'common.pt')));
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')));
});

test('checkRepo: a followed repo exists, a missing one says so, a malformed name is refused before any request', async () => {
  assert.deepEqual(await checkRepo(REPO, { endpoint: emu.url }), { state: 'found' });
  const missing = await checkRepo('XunmeiLiu/nope', { endpoint: emu.url });
  assert.equal(missing.state, 'not-found');
  const before = emu.requests.length;
  for (const bad of ['a/b/c', '../x', 'owner/', ' x/y', 'x/y?z', 'a/..', '']) {
    const r = await checkRepo(bad, { endpoint: emu.url });
    assert.equal(r.state, 'error', bad);
    assert.ok(repoNameProblem(bad), bad);
  }
  assert.equal(emu.requests.length, before, 'no request for a malformed name');
  assert.equal(repoNameProblem('XunmeiLiu/openwebrl-ws-credit-beta0.4'), undefined);
});
