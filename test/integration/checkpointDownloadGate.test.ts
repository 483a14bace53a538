import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload, DownloadError } from '../../src/core/hub/download';
import { checkBeforeLatest, gateResumeDownload } from '../../src/core/integrity/downloadGate';
import { tempDir } from '../helpers';
import { CHECKPOINT_TREE } from '../checkpointFixtures';

const REPO = 'acme/ckpt-gate';
let emu: HubEmulator;

before(async () => {
  emu = await startHubEmulator({ repos: { [REPO]: CHECKPOINT_TREE } });
});
after(async () => {
  await emu.close();
});

const distcpRequests = (): number => emu.requests.filter((q) => q.url.includes('.distcp')).length;

test('a resume download of the incomplete latest is refused before its first shard byte, naming what is missing', async () => {
  const c = { endpoint: emu.url };
  const listing = await listRun(REPO, 'main', c);
  emu.requests.length = 0;
  await assert.rejects(gateResumeDownload(listing, planDownload(listing, 'resume', 'latest', tempDir()), c, false), (e: Error) => {
    assert.ok(e instanceof DownloadError);
    assert.match(e.message, /resume\/iter_0000030 is incomplete on the Hub: missing __3_0\.distcp, metadata\.json; short __1_0\.distcp/);
    assert.match(e.message, /--allow-incomplete/);
    return true;
  });
  assert.equal(distcpRequests(), 0, 'no shard requested');
});

test('allowing it fetches what is there and never writes the latest file', async () => {
  const c = { endpoint: emu.url };
  const listing = await listRun(REPO, 'main', c);
  const dest = tempDir();
  const g = await gateResumeDownload(listing, planDownload(listing, 'resume', 30, dest), c, true);
  assert.equal(g.plan.latestFile, undefined);
  assert.match(g.warnings[0]!, /latest file is left as it is/);
  const r = await runDownload(g.plan, { endpoint: emu.url, beforeLatest: async (d, n) => void (await checkBeforeLatest(d, n)) });
  assert.equal(r.latestWritten, false);
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')));
  assert.deepEqual(readdirSync(join(dest, 'iter_0000030')).sort(), [
    '.metadata',
    '__0_0.distcp',
    '__1_0.distcp',
    '__2_0.distcp',
    'common.pt',
  ]);
});

test('a complete iteration passes the gate and is checked on disk before latest is written', async () => {
  const c = { endpoint: emu.url };
  const listing = await listRun(REPO, 'main', c);
  const dest = tempDir();
  const g = await gateResumeDownload(listing, planDownload(listing, 'resume', 20, dest), c, false);
  assert.deepEqual(g.warnings, []);
  let checked = 0;
  const r = await runDownload(g.plan, {
    endpoint: emu.url,
    beforeLatest: async (d, n) => {
      checked++;
      assert.equal(await checkBeforeLatest(d, n), undefined);
    },
  });
  assert.equal(checked, 1);
  assert.equal(r.latestWritten, true);
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '20');
});

test('the check before latest: a short shard on disk throws (latest stays unwritten), no .metadata only warns', async () => {
  const dest = tempDir();
  cpSync(join(CHECKPOINT_TREE, 'resume/iter_0000010'), join(dest, 'iter_0000010'), { recursive: true });
  truncateSync(join(dest, 'iter_0000010/__2_0.distcp'), 100);
  await assert.rejects(checkBeforeLatest(dest, 10), /incomplete after the download \(short __2_0\.distcp\)/);
  const old = tempDir();
  cpSync(join(CHECKPOINT_TREE, 'resume/iter_0000010'), join(old, 'iter_0000010'), { recursive: true });
  const { rmSync } = await import('node:fs');
  rmSync(join(old, 'iter_0000010/.metadata'));
  assert.match((await checkBeforeLatest(old, 10))!, /cannot tell .* no \.metadata/);
});
