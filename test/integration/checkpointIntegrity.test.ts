import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { checkHubRepo } from '../../src/core/integrity/checkHub';
import { CLI } from '../cliRun';
import { tempDir } from '../helpers';
import { CHECKPOINT_TREE, EXPLOIT_METADATA, comparable, reference } from '../checkpointFixtures';

const REPO = 'acme/ckpt-integrity';
const EXPLOIT = 'acme/ckpt-exploit';
let emu: HubEmulator;

before(async () => {
  const exploit = tempDir('rlrb-exploit-');
  cpSync(CHECKPOINT_TREE, exploit, { recursive: true });
  copyFileSync(EXPLOIT_METADATA, join(exploit, 'resume/iter_0000030/.metadata'));
  emu = await startHubEmulator({ repos: { [REPO]: CHECKPOINT_TREE, [EXPLOIT]: exploit } });
});
after(async () => {
  await emu.close();
});

const shardBodyBytes = (): number =>
  emu.requests
    .filter((r) => /\.distcp|\.safetensors$/.test(new URL(r.url, emu.url).pathname) && r.range !== 'bytes=0-0')
    .reduce((s, r) => s + r.bytes, 0);

test('a Hub repo of 3 resume and 3 hf iterations: section 9 as torch computes it, without a shard body', async () => {
  emu.requests.length = 0;
  const t0 = performance.now();
  const r = await checkHubRepo(REPO, 'main', { endpoint: emu.url });
  const ms = performance.now() - t0;
  assert.deepEqual(comparable(r.report), reference('tree'));
  assert.deepEqual(r.report.hf['iter_0000020']!.dtypes, { BF16: 3600 });
  assert.ok(!emu.requests.some((q) => /\.distcp$/.test(new URL(q.url, emu.url).pathname)), 'no .distcp is asked for');
  const shardBytes = shardBodyBytes();
  const headerBytes = 8 * 3 + 3 * 600; // 3 shards read (iter 30's missing one decides it), headers under 600 bytes
  assert.ok(shardBytes <= headerBytes, `safetensors bytes read: ${shardBytes}`);
  const bytes = emu.requests.reduce((s, q) => s + q.bytes, 0);
  // the figure docs/integrity.md quotes
  console.log(`check cost: ${emu.requests.length} requests, ${bytes} file bytes (3 .metadata of 8580), ${ms.toFixed(0)} ms`);
});

test('an exploit .metadata on the Hub is "cannot tell" with its reason, and latest naming it fails', async () => {
  const r = await checkHubRepo(EXPLOIT, 'main', { endpoint: emu.url });
  assert.equal(r.report.resume['iter_0000030']!.complete, null);
  assert.match(r.report.resume['iter_0000030']!.reason!, /posix\.system/);
  assert.deepEqual(r.report.latest, { names: 30, namesComplete: false, lastComplete: 20 });
});

function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn('node', [CLI, ...args]);
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => done({ code: code ?? -1, out, err }));
  });
}

test('rlrb check hub:owner/name --json prints the reference and exits 1 (latest names a broken checkpoint)', async () => {
  const r = await cli('check', `hub:${REPO}`, '--endpoint', emu.url, '--json');
  assert.equal(r.code, 1, r.err);
  assert.deepEqual(comparable(JSON.parse(r.out) as ReturnType<typeof reference>), reference('tree'));
  const h = await cli('check', `hub:${REPO}`, '--endpoint', emu.url);
  assert.match(h.out, /iter_0000030 {2}incomplete: missing __3_0\.distcp, metadata\.json; short __1_0\.distcp/);
  assert.match(h.out, /latest: iteration 30 is NOT complete; the last complete one is 20/);
});

test('rlrb check on folders: exit 0 when latest names a whole checkpoint, 1 when not, 2 on bad usage', async () => {
  const dst = tempDir('rlrb-check-cli-');
  for (const d of ['iter_0000010', 'iter_0000020']) cpSync(join(CHECKPOINT_TREE, 'resume', d), join(dst, d), { recursive: true });
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(dst, 'latest_checkpointed_iteration.txt'), '20');
  const ok = await cli('check', dst, '--json');
  assert.equal(ok.code, 0, ok.err);
  assert.deepEqual((JSON.parse(ok.out) as { latest: unknown }).latest, { names: 20, namesComplete: true, lastComplete: 20 });
  assert.equal((await cli('check', CHECKPOINT_TREE)).code, 1);
  assert.equal((await cli('check', 'no/such/../thing')).code, 2);
  assert.equal((await cli('check', dst, '--bogus')).code, 2);
});
