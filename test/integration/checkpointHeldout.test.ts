/**
 * Section 9 on checkpoints the reader was not written on (test/fixtures/checkpoints/make.py heldout, torch 2.13):
 * DTensors sharded over 3 gloo ranks, a file per tensor, non-tensor objects, other dtypes; a shard a byte short and
 * common.pt never uploaded (named by latest), a .metadata cut mid-upload, a real torch Metadata carrying an
 * os.system payload; safetensors cut in the body or missing a shard. Against reference.py (torch and safetensors
 * themselves): `rlrb check` on the Hub, on the folder and on a download destination, and the refused download.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { tempDir } from '../helpers';
import { HELDOUT_TREE, comparable, reference } from '../checkpointFixtures';
import type { CheckReport } from '../../src/core/integrity/types';

const REPO = 'acme/heldout';
let emu: HubEmulator;

before(async () => {
  emu = await startHubEmulator({ repos: { [REPO]: HELDOUT_TREE } });
});
after(async () => {
  await emu.close();
});

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function cli(...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, HF_HOME: tempDir(), XDG_STATE_HOME: tempDir(), XDG_CACHE_HOME: tempDir() };
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'HF_TOKEN']) delete env[k];
  const p = spawn(process.execPath, [resolve('dist/cli.js'), ...args], { env });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((r) => p.on('close', (code) => r({ code, out, err })));
}

/** Where section 9 leaves `complete` null, the report says why. */
function reasonsGiven(r: CheckReport): void {
  for (const [k, v] of [...Object.entries(r.resume), ...Object.entries(r.hf)])
    if (v.complete === null) assert.ok(v.reason && v.reason.length > 0, `${k} cannot tell, with no reason`);
}

const distcpAsked = (): number => emu.requests.filter((q) => new URL(q.url, emu.url).pathname.endsWith('.distcp')).length;

test('rlrb check hub:owner/name on held-out torch checkpoints: the reference, no shard body, the payload named, exit 1', async () => {
  emu.requests.length = 0;
  const r = await cli('check', `hub:${REPO}`, '--endpoint', emu.url, '--json');
  assert.equal(r.code, 1, r.err);
  const got = JSON.parse(r.out) as CheckReport;
  assert.deepEqual(comparable(got), reference('heldout'));
  reasonsGiven(got);
  assert.match(got.resume['iter_0000035']!.reason!, /posix\.system/);
  assert.equal(got.resume['iter_0000035']!.unsafe, 'posix.system');
  assert.equal(got.resume['iter_0000025']!.unsafe, undefined, 'a cut .metadata is not unsafe');
  assert.equal(distcpAsked(), 0, 'no .distcp is asked for');
});

test('rlrb check on the held-out folder and on a download destination of its resume iterations: the reference', async () => {
  const folder = await cli('check', HELDOUT_TREE, '--json');
  assert.equal(folder.code, 1, folder.err);
  const got = JSON.parse(folder.out) as CheckReport;
  assert.deepEqual(comparable(got), reference('heldout'));
  reasonsGiven(got);
  // a destination: iter_XXXXXXX/ and the latest file at its top, reported under resume, hf empty
  const dest = tempDir('rlrb-heldout-dest-');
  cpSync(join(HELDOUT_TREE, 'resume'), dest, { recursive: true });
  const d = await cli('check', dest, '--json');
  assert.equal(d.code, 1, d.err);
  const want = reference('heldout');
  assert.deepEqual(comparable(JSON.parse(d.out) as CheckReport), { resume: want.resume, hf: {}, latest: want.latest });
});

test('a resume download of the held-out latest is refused before its first shard byte, naming what the reference says is missing', async () => {
  const want = reference('heldout').resume['iter_0000015']!;
  assert.deepEqual([want.missing, want.short], [['common.pt'], ['__2_7.distcp']]);
  emu.requests.length = 0;
  const dest = tempDir('rlrb-heldout-dl-');
  const r = await cli('download', REPO, '--kind', 'resume', '--dest', dest, '--endpoint', emu.url);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /resume\/iter_0000015 is incomplete on the Hub: missing common\.pt; short __2_7\.distcp/);
  assert.equal(distcpAsked(), 0, 'no shard requested');
  assert.deepEqual(readdirSync(dest), []);
  // allowed: what is there is fetched, and the latest file is never written
  const allowed = await cli('download', REPO, '--kind', 'resume', '--dest', dest, '--endpoint', emu.url, '--allow-incomplete');
  assert.equal(allowed.code, 0, allowed.err);
  assert.ok(existsSync(join(dest, 'iter_0000015', '__2_7.distcp')));
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')));
  // the cut .metadata does not block (cannot tell): it warns, the bytes come and latest names it
  const cut = tempDir('rlrb-heldout-unknown-');
  const u = await cli('download', REPO, '--kind', 'resume', '--iteration', '25', '--dest', cut, '--endpoint', emu.url);
  assert.equal(u.code, 0, u.err);
  assert.match(u.err, /warning: cannot tell whether resume\/iter_0000025 is complete/);
  assert.equal(readFileSync(join(cut, 'latest_checkpointed_iteration.txt'), 'utf8'), '25');
  // the trojaned one: fetched, but never named latest (the launcher would pickle.load it), in one line naming the payload
  const troj = tempDir('rlrb-heldout-trojan-');
  const t = await cli('download', REPO, '--kind', 'resume', '--iteration', '35', '--dest', troj, '--endpoint', emu.url, '--json');
  assert.equal(t.code, 0, t.err);
  assert.ok(existsSync(join(troj, 'iter_0000035', '.metadata')));
  assert.ok(!existsSync(join(troj, 'latest_checkpointed_iteration.txt')), 'no latest file names the trojaned checkpoint');
  const line = t.err.split('\n').find((l) => l.includes('posix.system'));
  assert.match(line ?? '', /^warning: resume\/iter_0000035\/\.metadata names posix\.system, .*not written; .*write 35 into that file/);
  const j = JSON.parse(t.out) as { latestWritten: boolean; unsafeMetadata: string | null; warnings: string[] };
  assert.equal(j.latestWritten, false);
  assert.equal(j.unsafeMetadata, 'posix.system');
  assert.match(j.warnings.join('\n'), /names posix\.system/);
});
