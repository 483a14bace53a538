/**
 * A hostile or unlucky Hub and destination, over HTTP against the emulator with the real
 * `@huggingface/hub` client: locks, hashes used as paths, odd tree entries, partials,
 * size limits, pagination loops, ranges ignored, echoed tokens, symlinks, odd names, and
 * the Xet-backed Hub (bridge redirects that expire, stalls, RateLimit headers).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload, STATE_DIR } from '../../src/core/hub/download';

const REPO = 'acme/trust';
let emu: HubEmulator;
let repoDir: string;

function bytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    b[i] = seed >>> 24;
  }
  return b;
}

function makeRepo(dir: string): void {
  const r = join(dir, 'resume', 'iter_0000005');
  mkdirSync(r, { recursive: true });
  writeFileSync(join(r, '__0_0.distcp'), bytes(60_000, 1));
  writeFileSync(join(r, '__0_1.distcp'), bytes(50_000, 2));
  writeFileSync(join(r, 'common.pt'), bytes(700, 3));
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '5');
  const h = join(dir, 'hf', 'iter_0000005');
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, 'config.json'), '{"a":1}');
  writeFileSync(join(h, 'model.safetensors'), bytes(40_000, 4));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'ws_metrics.jsonl'), '{"iteration":0}\n');
}

before(async () => {
  repoDir = tempDir('rlrb-trust-repo-');
  makeRepo(repoDir);
  emu = await startHubEmulator({ repos: { [REPO]: repoDir }, pageSize: 4 });
});
after(async () => {
  await emu.close();
});

const conn = (): { endpoint: string } => ({ endpoint: emu.url });
const resetFaults = (): void => {
  for (const k of Object.keys(emu.faults)) delete (emu.faults as Record<string, unknown>)[k];
};
const lockFiles = (dest: string): string[] =>
  existsSync(join(dest, STATE_DIR)) ? readdirSync(join(dest, STATE_DIR)).filter((f) => /^lock.*\.json$/.test(f)) : [];
const sameFile = (a: string, b: string): boolean => readFileSync(a).equals(readFileSync(b));

/** Starts the CLI downloading into `dest` and kills it (SIGKILL) once it holds the lock: a stale lock is left. */
async function staleLockBy(dest: string): Promise<void> {
  emu.faults.trickleBytesPerSecond = 20_000;
  const p: ChildProcess = spawn(
    'node',
    [resolve('dist/cli.js'), 'download', REPO, '--kind', 'hf', '--iteration', '5', '--dest', dest, '--endpoint', emu.url],
    { stdio: 'ignore', env: { ...process.env, HF_TOKEN: '', HF_HOME: tempDir() } },
  );
  const t0 = Date.now();
  while (lockFiles(dest).length === 0 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 20));
  p.kill('SIGKILL');
  await new Promise((r) => p.once('exit', r));
  resetFaults();
  assert.ok(lockFiles(dest).length > 0, 'the killed download left its lock');
}

test('two downloads into one folder over a stale lock: exactly one runs, the files are right', { timeout: 120_000 }, async () => {
  resetFaults();
  const l = await listRun(REPO, 'main', conn());
  for (let round = 0; round < 4; round++) {
    const dest = tempDir();
    await staleLockBy(dest);
    emu.faults.trickleBytesPerSecond = 200_000;
    const plan = planDownload(l, 'hf', 5, dest);
    const results = await Promise.allSettled([runDownload(plan, conn()), runDownload(plan, conn())]);
    resetFaults();
    const ok = results.filter((r) => r.status === 'fulfilled');
    const busy = results.filter((r) => r.status === 'rejected' && /another download into this folder is running/.test(String(r.reason)));
    assert.equal(ok.length, 1, `round ${round}: ${results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok')).join(' | ')}`);
    assert.equal(busy.length, 1);
    for (const f of ['config.json', 'model.safetensors'])
      assert.ok(sameFile(join(dest, 'iter_0000005', f), join(repoDir, 'hf', 'iter_0000005', f)), `round ${round}: ${f}`);
  }
});

test('a lock whose PID now belongs to another process is stale', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  await staleLockBy(dest);
  // the PID is reused by a process started long after the lock was taken
  const other = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    for (const f of lockFiles(dest)) {
      const p = join(dest, STATE_DIR, f);
      const rec = JSON.parse(readFileSync(p, 'utf8') || '{}') as Record<string, unknown>;
      writeFileSync(p, JSON.stringify({ ...rec, pid: other.pid, started: new Date(Date.now() - 3600_000).toISOString() }));
    }
    const l = await listRun(REPO, 'main', conn());
    const res = await runDownload(planDownload(l, 'hf', 5, dest), conn());
    assert.equal(res.files, 2);
  } finally {
    other.kill();
  }
});
