/** `rlrb export --dataset --push`: the dataset committed to a Hub dataset repo on the emulator, through @huggingface/hub. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { datasetFiles } from '../../src/core/hub/pushDataset';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { CLI } from '../cliRun';

const TOKEN = 'hf_pushdatasettoken123';
let emu: HubEmulator;
const root = tempDir();
const run = join(root, 'hand');
mkdirSync(join(run, 'logs'), { recursive: true });
writeFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
const cache = tempDir();

before(async () => {
  emu = await startHubEmulator({ repos: {}, validTokens: [TOKEN] });
});
after(async () => {
  await emu.close();
});

/** The CLI in a child process (the emulator runs in this one: no spawnSync). */
function rlrb(env: Record<string, string>, ...args: string[]): Promise<{ code: number; err: string }> {
  return new Promise((resolve) => {
    const p = spawn('node', [CLI, ...args], { env: { ...process.env, XDG_CACHE_HOME: cache, HF_TOKEN: '', ...env } });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code: code ?? -1, err }));
  });
}

test('push: every Parquet file and a card naming both tables, in one commit; a second push commits again', async () => {
  const ds = join(root, 'ds');
  const r = await rlrb({ HF_TOKEN: TOKEN }, 'export', run, '--dataset', ds, '--push', 'me/sweep', '--endpoint', emu.url);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /pushed \d+ files to the dataset me\/sweep/);
  const pushed = emu.datasets.get('me/sweep')!;
  const local = await datasetFiles(ds);
  assert.ok(local.length >= 4);
  assert.deepEqual([...pushed.keys()].sort(), ['README.md', ...local].sort());
  for (const p of local) assert.ok(pushed.get(p)!.equals(readFileSync(join(ds, ...p.split('/')))), p);
  assert.match(pushed.get('README.md')!.toString(), /config_name: turns/);
  const commits = emu.requests.filter((q) => q.url.includes('/commit/'));
  assert.equal(commits.length, 1);
  assert.ok(emu.requests.filter((q) => q.method === 'POST').every((q) => q.authorization === `Bearer ${TOKEN}`));
  const again = await rlrb({ HF_TOKEN: TOKEN }, 'export', run, '--dataset', ds, '--push', 'me/sweep', '--endpoint', emu.url);
  assert.equal(again.code, 0, again.err);
  assert.equal(emu.requests.filter((q) => q.url.includes('/commit/')).length, 2);
});

test('push without a token is refused before anything is written', async () => {
  const ds = join(root, 'none');
  const r = await rlrb({}, 'export', run, '--dataset', ds, '--push', 'me/other', '--endpoint', emu.url);
  assert.equal(r.code, 2);
  assert.match(r.err, /--push needs a Hub token/);
  assert.equal(emu.datasets.has('me/other'), false);
});
