/** The downloader's stall watchdog runs from the request on: a server that never sends the response headers is dropped and retried. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload } from '../../src/core/hub/download';

const REPO = 'acme/no-headers';
let emu: HubEmulator;
let repoDir: string;

before(async () => {
  repoDir = tempDir('rlrb-noheaders-repo-');
  const r = join(repoDir, 'resume', 'iter_0000003');
  mkdirSync(r, { recursive: true });
  writeFileSync(join(r, '__0_0.distcp'), randomBytes(80_000));
  writeFileSync(join(r, 'common.pt'), randomBytes(900));
  writeFileSync(join(repoDir, 'resume', 'latest_checkpointed_iteration.txt'), '3');
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

test(
  'download: a file request that never gets its response headers is dropped after stallTimeoutMs and retried',
  { timeout: 20_000 },
  async () => {
    const dest = tempDir('rlrb-noheaders-dest-');
    const l = await listRun(REPO, 'main', { endpoint: emu.url });
    emu.faults.noHeaders = { count: 1, ranged: false };
    emu.faults.pathContains = '__0_0';
    const seen: string[] = [];
    let left: number | undefined;
    try {
      await runDownload(planDownload(l, 'resume', 3, dest), {
        endpoint: emu.url,
        backoffMs: 10,
        stallTimeoutMs: 300,
        onProgress: (p: { event?: string }) => void (p.event && seen.push(p.event)),
      });
      left = emu.faults.noHeaders.count;
    } finally {
      delete emu.faults.noHeaders;
      delete emu.faults.pathContains;
    }
    assert.equal(left, 0, 'the request that got no headers was made');
    assert.ok(
      seen.some((e) => /no byte for 0\.3 s/.test(e)),
      seen.join('\n'),
    );
    for (const f of ['__0_0.distcp', 'common.pt'])
      assert.ok(readFileSync(join(dest, 'iter_0000003', f)).equals(readFileSync(join(repoDir, 'resume', 'iter_0000003', f))), f);
  },
);

test(
  "download: a range's first request waits the shorter first-answer watch, the request made again the whole stall timeout",
  { timeout: 20_000 },
  async () => {
    const dest = tempDir('rlrb-noheaders-dest-');
    const l = await listRun(REPO, 'main', { endpoint: emu.url });
    emu.faults.noHeaders = { count: 2, ranged: false };
    emu.faults.pathContains = '__0_0';
    const seen: string[] = [];
    try {
      await runDownload(planDownload(l, 'resume', 3, dest), {
        endpoint: emu.url,
        backoffMs: 10,
        stallTimeoutMs: 1500,
        firstAnswerStallMs: 300,
        onProgress: (p: { event?: string }) => void (p.event && seen.push(p.event)),
      });
    } finally {
      delete emu.faults.noHeaders;
      delete emu.faults.pathContains;
    }
    const stalls = seen.filter((e) => /no byte for/.test(e));
    assert.equal(stalls.length, 2, seen.join('\n'));
    assert.match(stalls[0]!, /no byte for 0\.3 s/, 'the first request is dropped after the first-answer watch');
    assert.match(stalls[1]!, /no byte for 1\.5 s/, 'the request made again is given the whole stall timeout');
    assert.ok(
      readFileSync(join(dest, 'iter_0000003', '__0_0.distcp')).equals(
        readFileSync(join(repoDir, 'resume', 'iter_0000003', '__0_0.distcp')),
      ),
    );
  },
);
