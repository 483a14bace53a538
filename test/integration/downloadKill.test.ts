/**
 * `rlrb download` killed (SIGKILL) mid-file and run again: the bytes already on disk are
 * kept, but for at most the last few MB written before the kill (the progress saved since).
 * Counted from the emulator's log of what it sent after the restart.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator, SeenRequest } from '../hubEmulator/server';
import { STATE_DIR } from '../../src/core/hub/download';

const REPO = 'acme/killed';
const FILE = 'hf/iter_0000003/model.safetensors';
const SIZE = 40_000_000;
const MB = 1_000_000;
let emu: HubEmulator;
let repoDir: string;

before(async () => {
  repoDir = tempDir('rlrb-kill-repo-');
  mkdirSync(join(repoDir, 'hf', 'iter_0000003'), { recursive: true });
  writeFileSync(join(repoDir, FILE), noise(SIZE, 33));
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

/** Bytes the partials hold on disk (allocated: they are written in place, with holes). */
function onDisk(dest: string): number {
  const dir = join(dest, STATE_DIR, 'partial');
  if (!existsSync(dir)) return 0;
  let n = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) n += statSync(p).blocks * 512;
    }
  };
  walk(dir);
  return n;
}

/**
 * Bytes of the file the responses `rs` carried, each counted once: a span whose rest went to
 * another connection is cut at a range's end, but the server had sent some bytes past it.
 */
function covered(rs: SeenRequest[]): number {
  const spans = rs
    .map((r) => {
      const m = /^bytes=(\d+)-(\d*)$/.exec(r.range ?? '');
      const start = m ? Number(m[1]) : 0;
      return [start, Math.min(SIZE, start + r.bytes)] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = 0;
  for (const [start, end] of spans) {
    if (end > Math.max(start, reach)) total += end - Math.max(start, reach);
    reach = Math.max(reach, end);
  }
  return total;
}

test('a kill -9 mid-download costs at most a few MB fetched again', { timeout: 120_000 }, async (t) => {
  const dest = tempDir();
  const env = { ...process.env, HF_TOKEN: '', HF_HOME: tempDir(), XDG_STATE_HOME: tempDir(), HTTP_PROXY: '', HTTPS_PROXY: '' };
  const args = [resolve('dist/cli.js'), 'download', REPO, '--kind', 'hf', '--iteration', '3', '--dest', dest, '--endpoint', emu.url];
  emu.faults.trickleBytesPerSecond = 2 * MB;
  const p = spawn(process.execPath, args, { stdio: 'ignore', env });
  const exited = new Promise((r) => p.once('exit', r));
  const t0 = Date.now();
  // between range ends (16 MB each): a kill here loses what was not recorded since the last one
  while (onDisk(dest) < 10 * MB && Date.now() - t0 < 60_000) await delay(20);
  const kept = onDisk(dest);
  p.kill('SIGKILL');
  await exited;
  delete emu.faults.trickleBytesPerSecond;
  assert.ok(kept >= 10 * MB && kept < SIZE, `${kept} bytes on disk at the kill`);

  const from = performance.now();
  const again = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  let err = '';
  again.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise((r) => again.once('exit', r));
  assert.equal(code, 0, err);
  assert.ok(readFileSync(join(dest, 'iter_0000003', 'model.safetensors')).equals(readFileSync(join(repoDir, FILE))));
  const fetched = covered(emu.requests.filter((r) => r.origin === 'cdn' && r.startMs >= from && r.bytes > 1));
  const refetched = fetched - (SIZE - kept);
  t.diagnostic(`${(kept / MB).toFixed(1)} MB on disk at the kill, ${(refetched / MB).toFixed(1)} MB of them fetched again`);
  assert.ok(refetched <= 6 * MB, `${(refetched / MB).toFixed(1)} MB of the ${(kept / MB).toFixed(1)} MB on disk were fetched again`);
});
