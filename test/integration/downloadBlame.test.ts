/**
 * What a failed or slowed download says, against the emulator: which host answered what (a
 * CDN's 500 is the CDN's, a transfer cut short says how far it came), and what a stalled
 * connection costs with the default watch (a new connection at once, not a long wait).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload } from '../../src/core/hub/download';
import type { DownloadOptions } from '../../src/core/hub/download';
import { errorMessage } from '../../src/core/errorMessage';

const REPO = 'acme/blame';
const FILE = 'hf/iter_0000001/model.safetensors';
let emu: HubEmulator;
let repoDir: string;

before(async () => {
  repoDir = tempDir('rlrb-blame-repo-');
  mkdirSync(join(repoDir, 'hf', 'iter_0000001'), { recursive: true });
  writeFileSync(join(repoDir, FILE), noise(2_000_000, 21));
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

const resetFaults = (): void => {
  for (const k of Object.keys(emu.faults)) delete (emu.faults as Record<string, unknown>)[k];
};
const cdnHost = (): string => new URL(emu.cdnUrl).host;
async function download(extra: Partial<DownloadOptions> = {}): Promise<{ dest: string; events: string[] }> {
  const l = await listRun(REPO, 'main', { endpoint: emu.url });
  const dest = tempDir();
  const events: string[] = [];
  await runDownload(planDownload(l, 'hf', 1, dest), {
    endpoint: emu.url,
    stateDir: tempDir(),
    backoffMs: 10,
    onProgress: (p) => void (p.event && events.push(p.event)),
    ...extra,
  });
  return { dest, events };
}
const failure = async (extra: Partial<DownloadOptions>): Promise<string> => {
  try {
    await download(extra);
  } catch (e) {
    return errorMessage(e);
  }
  assert.fail('the download did not fail');
};

test("a CDN's 500 is the CDN's, named with its host and the file", async () => {
  resetFaults();
  emu.faults.serverErrors = 1;
  emu.faults.serverErrorStatus = 500;
  const msg = await failure({ retries: 0 });
  assert.ok(msg.includes(`the CDN (${cdnHost()}) answered HTTP 500 for ${REPO}/${FILE}`), msg);
  assert.doesNotMatch(msg, /the Hub/);
});

test('a transfer cut short says whose connection closed and how far it came, not "cannot reach"', async () => {
  resetFaults();
  emu.faults.dropAfterBytes = 700_000;
  emu.faults.dropCount = 1;
  const msg = await failure({ retries: 0 });
  assert.ok(msg.includes(`the connection to the CDN (${cdnHost()}) closed after `), msg);
  assert.match(msg, /closed after 0\.\d MB of 2\.0 MB of hf\/iter_0000001\/model\.safetensors/);
  assert.doesNotMatch(msg, /cannot reach|check the network/);
});

test(
  'a connection that stalls after its first bytes costs seconds, not the 30 s watch: a new one resumes at once',
  { timeout: 60_000 },
  async () => {
    resetFaults();
    emu.faults.stall = { afterBytes: 300_000, count: 1 };
    const t0 = performance.now();
    const { dest, events } = await download();
    const s = (performance.now() - t0) / 1000;
    resetFaults();
    assert.ok(readFileSync(join(dest, 'iter_0000001', 'model.safetensors')).equals(readFileSync(join(repoDir, FILE))));
    assert.ok(s < 25, `the stall cost ${s.toFixed(1)} s`);
    const line = events.find((e) => /no byte for/.test(e)) ?? '';
    assert.match(line, new RegExp(`no byte for 10\\.0 s from the CDN \\(${cdnHost().replace(/\./g, '\\.')}\\); .*retrying in 0\\.0 s`));
    assert.ok(!events.some((e) => /pushed back/.test(e)), events.join('\n'));
  },
);
