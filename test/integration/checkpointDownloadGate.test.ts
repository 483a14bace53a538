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
import { CHECKPOINT_TREE, HELDOUT_TREE } from '../checkpointFixtures';

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
  const r = await runDownload(g.plan, { endpoint: emu.url, beforeLatest: async (d, n) => (await checkBeforeLatest(d, n)).write });
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
      const b = await checkBeforeLatest(d, n);
      assert.deepEqual(b, { write: true });
      return b.write;
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
  const noMd = await checkBeforeLatest(old, 10);
  assert.equal(noMd.write, true);
  assert.match(noMd.warning!, /cannot tell .* no \.metadata/);
});

test('the check before latest: a .metadata naming os.system withholds the latest file, a cut one only warns', async () => {
  const put = (md: string): string => {
    const d = tempDir();
    cpSync(join(CHECKPOINT_TREE, 'resume/iter_0000010'), join(d, 'iter_0000010'), { recursive: true });
    cpSync(join(HELDOUT_TREE, 'resume', md, '.metadata'), join(d, 'iter_0000010/.metadata'));
    return d;
  };
  const trojan = await checkBeforeLatest(put('iter_0000035'), 10);
  assert.equal(trojan.write, false);
  assert.equal(trojan.unsafe, 'posix.system');
  assert.match(trojan.warning!, /names posix\.system, .*latest_checkpointed_iteration\.txt is not written; .*write 10 into that file/);
  assert.doesNotMatch(trojan.warning!, /\n/);
  const cut = await checkBeforeLatest(put('iter_0000025'), 10);
  assert.equal(cut.write, true);
  assert.equal(cut.unsafe, undefined);
  assert.match(cut.warning!, /cannot tell/);
});

test('the gate: an unsafe .metadata on the Hub is fetched without its latest file, the one line naming the reference', async () => {
  const emu2 = await startHubEmulator({ repos: { 'acme/heldout': HELDOUT_TREE } });
  try {
    const c = { endpoint: emu2.url };
    const listing = await listRun('acme/heldout', 'main', c);
    const dest = tempDir();
    const g = await gateResumeDownload(listing, planDownload(listing, 'resume', 35, dest), c, false);
    assert.equal(g.plan.latestFile, undefined);
    assert.equal(g.unsafe, 'posix.system');
    assert.equal(g.warnings.length, 1);
    assert.match(g.warnings[0]!, /^resume\/iter_0000035\/\.metadata names posix\.system, .*write 35 into that file yourself$/);
    // a cut .metadata keeps its latest file (cannot tell warns, does not block)
    const cut = await gateResumeDownload(listing, planDownload(listing, 'resume', 25, dest), c, false);
    assert.deepEqual(cut.plan.latestFile?.value, 25);
    assert.equal(cut.unsafe, undefined);
    assert.match(cut.warnings[0]!, /cannot tell whether resume\/iter_0000025 is complete/);
  } finally {
    await emu2.close();
  }
});
