/**
 * The official Python client (huggingface_hub, in the virtual environment `npm run setup` makes) is
 * the judge of the emulator: it lists a repo, reads model info and paths-info, lists refs and
 * commits, and downloads a small and an LFS file byte-identically, with and without a token (a
 * private repo needs one), in Xet and in plain mode. The emulator's request log then shows the token
 * never went to the CDN origin and every request went where the real Hub would send it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator, SeenRequest } from '../hubEmulator/server';

const PUBLIC = 'acme/open';
const PRIVATE = 'acme/closed';
const TOKEN = 'hf_conformanceToken0123456789';
const SMALL = 'resume/iter_0000001/metadata.json';
const LFS = 'resume/iter_0000001/__0_0.distcp';
const SCRIPT = resolve('test/hubEmulator/conformance.py');

/** The interpreter of the environment `npm run setup` made for the pinned huggingface_hub. */
function python(): string {
  const version = readFileSync(resolve('scripts/hf-hub-version.txt'), 'utf8').trim();
  const venv = join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'rl-run-browser', `venv-hf-${version}`);
  if (!existsSync(join(venv, '.complete')))
    throw new Error(`huggingface_hub ${version} is not installed in ${venv}: run \`npm run setup\``);
  return join(venv, 'bin', 'python');
}

interface Read {
  files: string[];
  sha: string;
  siblings: Record<string, [number, string | null]>;
  paths: Record<string, [number, string | null]>;
  small: string;
  lfs: string;
  refs: [string, string][];
  commits: string[];
}

let emu: HubEmulator;
let dir: string;

before(async () => {
  dir = tempDir('rlrb-conf-');
  const it = join(dir, 'resume', 'iter_0000001');
  mkdirSync(it, { recursive: true });
  const big = Buffer.alloc(300_000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) >>> 3;
  writeFileSync(join(it, '__0_0.distcp'), big);
  writeFileSync(join(it, 'metadata.json'), '{"sharded_backend":"torch_dist"}');
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '1\n');
  emu = await startHubEmulator({ repos: { [PUBLIC]: dir, [PRIVATE]: dir }, privateRepos: [PRIVATE], validTokens: [TOKEN] });
});
after(async () => {
  await emu.close();
});

async function runOfficialClient(): Promise<{ public: Read; private: Read; privateWithout: string }> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: tempDir(),
    HF_HOME: tempDir(),
    // the emulator serves Xet files over the bridge's HTTP, not the CAS protocol hf_xet speaks
    HF_HUB_DISABLE_XET: '1',
    HF_HUB_DISABLE_TELEMETRY: '1',
    HF_HUB_DISABLE_PROGRESS_BARS: '1',
    NO_PROXY: '127.0.0.1,localhost',
  };
  const args = [SCRIPT, emu.url, PUBLIC, PRIVATE, TOKEN, SMALL, LFS, tempDir()];
  const { stdout } = await promisify(execFile)(python(), args, { env, timeout: 120_000, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as { public: Read; private: Read; privateWithout: string };
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** Where the real Hub sends a client: its API and file routes on the Hub's origin, signed object URLs on the CDN's. */
function whereTheHubSends(r: SeenRequest): boolean {
  const path = new URL(r.url, 'http://x').pathname;
  if (r.origin === 'cdn') return /^\/(xet-bridge-us\/[0-9a-f]{64}|repos\/[^/]+\/[0-9a-f]{64})$/.test(path) && r.status < 400;
  const api = /^\/api\/models\/acme\/(open|closed)(\/(revision|tree|paths-info|commits)\/[^/]+(\/.*)?|\/refs)?$/;
  const file = /^\/acme\/(open|closed)\/resolve\/[^/]+\/.+$/;
  return api.test(path) || file.test(path);
}

for (const xet of [true, false]) {
  const mode = xet ? 'in Xet mode' : 'in plain mode';
  test(`the official Python client reads and downloads ${mode}, and no token reaches the CDN`, async () => {
    emu.settings.xet = xet;
    emu.requests.length = 0;
    const got = await runOfficialClient();
    const files = emu.files(PUBLIC);
    for (const key of ['public', 'private'] as const) {
      const r = got[key];
      assert.deepEqual(r.files, files.map((f) => f.path).sort(), key);
      assert.equal(r.sha, emu.commit(PUBLIC), key);
      for (const f of files) assert.deepEqual(r.siblings[f.path], [f.size, f.lfs ?? null], `${key} ${f.path}`);
      assert.deepEqual(r.paths[LFS], [300_000, sha256(readFileSync(join(dir, LFS)))], key);
      assert.deepEqual(r.paths[SMALL], [32, null], key);
      assert.ok(readFileSync(r.small).equals(readFileSync(join(dir, SMALL))), `${key}: the small file byte-identical`);
      assert.ok(readFileSync(r.lfs).equals(readFileSync(join(dir, LFS))), `${key}: the LFS file byte-identical`);
      assert.deepEqual(r.refs, [['main', emu.commit(PUBLIC)]], key);
      assert.deepEqual(r.commits, [emu.commit(PUBLIC)], key);
    }
    assert.equal(got.privateWithout, 'RepositoryNotFoundError', 'the private repo needs the token');
    const log = emu.requests;
    const cdn = log.filter((r) => r.origin === 'cdn');
    assert.ok(cdn.length >= 2, 'the LFS file came from the CDN');
    assert.deepEqual(
      cdn.filter((r) => r.authorization !== undefined).map((r) => r.url),
      [],
      'no token at the CDN',
    );
    assert.ok(
      cdn.every((r) => r.host === new URL(emu.cdnUrl).host),
      'the CDN under its own host name',
    );
    const privateSeen = log.filter((r) => r.origin === 'hub' && r.url.includes(PRIVATE));
    assert.ok(
      privateSeen.some((r) => r.authorization === `Bearer ${TOKEN}`),
      'the token went to the Hub',
    );
    assert.ok(
      log.filter((r) => r.url.includes(PUBLIC)).every((r) => r.authorization === undefined),
      'no token where none was given',
    );
    assert.deepEqual(
      log.filter((r) => !whereTheHubSends(r)).map((r) => `${r.origin} ${r.method} ${r.url} ${r.status}`),
      [],
      'every request went where the Hub sends it',
    );
    assert.deepEqual(
      log.filter((r) => r.status >= 400).map((r) => `${r.origin} ${r.method} ${r.url} ${r.status}`),
      [`hub GET /api/models/${PRIVATE} 401`],
      'the one refusal: the private repo without the token',
    );
  });
}
