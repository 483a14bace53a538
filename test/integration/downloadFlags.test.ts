/**
 * `rlrb download`'s flags as a user runs them (the built CLI against the emulator):
 * `--include`/`--exclude` that keep the resume layout's promise (the latest file only for a
 * whole, verified iteration), `--dry-run` (a plan, no file fetched), `--token`/`--token-file`
 * (never echoed), `--json`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';

const REPO = 'acme/flags';
const TOKEN = 'hf_FlagsTest_1234567890abcdef';
let emu: HubEmulator;
let repoDir: string;
const ITER = 'resume/iter_0000004';
const LATEST = 'latest_checkpointed_iteration.txt';

before(async () => {
  repoDir = tempDir('rlrb-flags-repo-');
  mkdirSync(join(repoDir, ITER), { recursive: true });
  writeFileSync(join(repoDir, ITER, '__0_0.distcp'), noise(200_000, 1));
  writeFileSync(join(repoDir, ITER, '__0_1.distcp'), noise(150_000, 2));
  writeFileSync(join(repoDir, ITER, 'common.pt'), noise(5_000, 3));
  writeFileSync(join(repoDir, ITER, 'meta.json'), '{"iteration":4}');
  writeFileSync(join(repoDir, 'resume', LATEST), '4\n');
  emu = await startHubEmulator({ repos: { [REPO]: repoDir }, requiredToken: TOKEN, validTokens: [TOKEN] });
});
after(async () => {
  await emu.close();
});

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** The built CLI; its manifest goes to `state`. */
function cli(args: string[], state: string, env: Record<string, string> = { HF_TOKEN: TOKEN }): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, HF_HOME: tempDir(), XDG_STATE_HOME: state };
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'HF_TOKEN']) delete base[k];
  const p = spawn(process.execPath, [resolve('dist/cli.js'), ...args], { env: { ...base, ...env } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((r) => p.on('close', (code) => r({ code, out, err })));
}
const download = (dest: string, ...more: string[]): string[] => [
  'download',
  REPO,
  '--kind',
  'resume',
  '--iteration',
  '4',
  '--dest',
  dest,
  '--endpoint',
  emu.url,
  ...more,
];
const here = (dest: string, f: string): boolean =>
  existsSync(join(dest, 'iter_0000004', f)) && readFileSync(join(dest, 'iter_0000004', f)).equals(readFileSync(join(repoDir, ITER, f)));
/**
 * Requests for the iteration's files (the resolve route, the CDN) since `from` (the listing
 * reads the small latest file itself, as `rlrb hub ls` does: it is not one of the plan's files).
 */
const fileRequests = (from: number): string[] =>
  emu.requests
    .slice(from)
    .filter((r) => (r.origin === 'cdn' || r.url.includes('/resolve/')) && !r.url.includes(LATEST))
    .map((r) => `${r.origin} ${r.url}`);

test('--include/--exclude fetch only the files they keep; the latest file waits for the whole iteration', async () => {
  const dest = tempDir();
  const state = tempDir();
  const first = await cli(download(dest, '--include', '*.distcp', '--exclude', '__0_1.*'), state);
  assert.equal(first.code, 0, first.err);
  assert.ok(here(dest, '__0_0.distcp'));
  for (const f of ['__0_1.distcp', 'common.pt', 'meta.json']) assert.ok(!existsSync(join(dest, 'iter_0000004', f)), f);
  assert.ok(!existsSync(join(dest, LATEST)), 'the latest file named an incomplete iteration');
  assert.match(first.err, /latest_checkpointed_iteration\.txt is left as it is: 3 of the iteration's 4 files are left out and not here/);

  // the rest, with what is already here left out: every file is here and verified, so the latest file is written
  const from = emu.requests.length;
  const second = await cli(download(dest, '--exclude', '__0_0.distcp', '--json'), state);
  assert.equal(second.code, 0, second.err);
  const res = JSON.parse(second.out) as Record<string, unknown>;
  assert.equal(res['latestWritten'], true);
  assert.equal(res['files'], 4);
  assert.equal(res['alreadyComplete'], 1);
  assert.equal(readFileSync(join(dest, LATEST), 'utf8').trim(), '4');
  for (const f of ['__0_0.distcp', '__0_1.distcp', 'common.pt', 'meta.json']) assert.ok(here(dest, f), f);
  assert.ok(!emu.requests.slice(from).some((r) => r.url.includes('__0_0.distcp') && r.origin === 'cdn'), 'an excluded file was fetched');

  const none = await cli(download(dest, '--include', '*.bin'), state);
  assert.equal(none.code, 1);
  // the last line; the line before it is the checkpoint check's "cannot tell" (this repo's files are not a real torch_dist checkpoint)
  assert.match(none.err.trim(), /\nrlrb: --include \*\.bin leaves none of the 4 files to download$/);
});

test('--dry-run prints the plan, what is here and verified, what would be fetched, and fetches nothing', async () => {
  const dest = tempDir();
  const state = tempDir();
  assert.equal((await cli(download(dest, '--include', 'common.pt'), state)).code, 0);
  const from = emu.requests.length;
  const r = await cli(download(dest, '--dry-run'), state);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(fileRequests(from), [], 'a dry run asked for file bytes');
  assert.match(r.out, /^plan \(dry run, nothing fetched\): acme\/flags @ [0-9a-f]{12} resume iteration 4 into /);
  assert.match(r.out, /5\.00 KB {2}iter_0000004\/common\.pt {2}here, verified/);
  assert.match(r.out, /200 KB {2}iter_0000004\/__0_0\.distcp {2}fetch/);
  assert.match(r.out, /4 files, 355 KB: 1 here and verified, 350 KB to fetch/);
  assert.match(r.out, /latest_checkpointed_iteration\.txt would name 4 once all is verified/);
  assert.ok(!existsSync(join(dest, 'iter_0000004', '__0_0.distcp')));
  writeFileSync(join(dest, LATEST), '3\n');
  const conflict = await cli(download(dest, '--dry-run'), state);
  assert.match(conflict.out, /would name 4 once all is verified; it names iteration 3 now: the download would stop before fetching/);
  rmSync(join(dest, LATEST));

  const j = await cli(download(dest, '--dry-run', '--json', '--exclude', 'meta.json'), state);
  assert.equal(j.code, 0, j.err);
  const plan = JSON.parse(j.out) as { files: { target: string; state: string; bytes: number }[]; bytesToFetch: number; latest: unknown };
  assert.deepEqual(
    plan.files.map((f) => [f.target, f.state]),
    [
      ['iter_0000004/__0_0.distcp', 'missing'],
      ['iter_0000004/__0_1.distcp', 'missing'],
      ['iter_0000004/common.pt', 'verified'],
    ],
  );
  assert.equal(plan.bytesToFetch, 350_000);
  assert.deepEqual(plan.latest, {
    file: LATEST,
    written: false,
    note: "latest_checkpointed_iteration.txt is left as it is: 1 of the iteration's 4 files are left out and not here (resume/iter_0000004/meta.json)",
  });
  assert.deepEqual(fileRequests(from), []);
});

test('--token-file and --token: used, never printed; a file others can read is warned about; not both', async () => {
  const dir = tempDir();
  const file = join(dir, 'token');
  writeFileSync(file, `${TOKEN}\n`);
  chmodSync(file, 0o644);
  const dest = tempDir();
  const r = await cli(download(dest, '--include', 'meta.json', '--token-file', file), tempDir(), {});
  assert.equal(r.code, 0, r.err);
  assert.ok(here(dest, 'meta.json'));
  assert.match(r.err, /warning: --token-file .*token can be read by other users \(mode 644\); chmod 600 it/);
  chmodSync(file, 0o600);
  const quiet = await cli(download(tempDir(), '--include', 'meta.json', '--token-file', file), tempDir(), {});
  assert.equal(quiet.code, 0, quiet.err);
  assert.doesNotMatch(quiet.err, /warning: --token-file/);

  const bad = await cli(download(tempDir(), '--token', 'hf_Wrong_1234567890abcdef'), tempDir(), {});
  assert.equal(bad.code, 1);
  assert.match(bad.err, /rejected the token \(from --token\)|not found .* or the token cannot read it/);
  const both = await cli(download(tempDir(), '--token', TOKEN, '--token-file', file), tempDir(), {});
  assert.equal(both.code, 2);
  assert.match(both.err.trim(), /^rlrb: give --token or --token-file, not both$/);
  for (const x of [r, quiet, bad, both]) assert.ok(!(x.out + x.err).includes(TOKEN) && !(x.out + x.err).includes('Wrong_1234'));
});
