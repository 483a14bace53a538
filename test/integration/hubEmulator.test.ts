/**
 * The Hub emulator answers as the Hub does where a client can tell: the CDN under another host name
 * (and no client of ours sends it the token), `blobs`/`expand`, links that expire, an ETag that is not
 * the sha256, 404s with `X-Repo-Commit`, refs and commits with a history that rescans extend, and
 * file faults that hit a file's first request.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countCommits, downloadFile, listCommits, pathsInfo } from '@huggingface/hub';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import { planDownload, runDownload } from '../../src/core/hub/download';

const REPO = 'acme/emu';
const TOKEN = 'hf_emulatorTestToken0123456789';
let emu: HubEmulator;
let dir: string;

const bytes = (n: number, seed: number): Buffer => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    b[i] = seed >>> 24;
  }
  return b;
};
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

before(async () => {
  dir = tempDir('rlrb-emu-');
  const it = join(dir, 'resume', 'iter_0000001');
  mkdirSync(it, { recursive: true });
  writeFileSync(join(it, '__0_0.distcp'), bytes(60_000, 1));
  writeFileSync(join(it, 'common.pt'), bytes(700, 2));
  writeFileSync(join(it, 'metadata.json'), '{"sharded_backend":"torch_dist"}');
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '1\n');
  writeFileSync(join(dir, 'README.md'), '# run\n');
  emu = await startHubEmulator({ repos: { [REPO]: dir }, validTokens: [TOKEN] });
});
after(async () => {
  await emu.close();
});

const hub = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${emu.url}${path}`, { redirect: 'manual', ...init });
const fresh = (): void => {
  for (const k of Object.keys(emu.faults)) delete (emu.faults as Record<string, unknown>)[k];
  emu.settings.xet = true;
  emu.settings.bridgeTtlSeconds = 3600;
  emu.requests.length = 0;
};

test('the CDN is served under another host name than the Hub, and the 302 points there', async () => {
  fresh();
  assert.notEqual(new URL(emu.cdnUrl).hostname, new URL(emu.url).hostname);
  for (const xet of [true, false]) {
    emu.settings.xet = xet;
    const res = await hub(`/${REPO}/resolve/main/resume/iter_0000001/__0_0.distcp`);
    assert.equal(res.status, 302);
    assert.equal(new URL(res.headers.get('location')!).hostname, new URL(emu.cdnUrl).hostname, `xet ${xet}`);
  }
  const seen = emu.requests.map((r) => `${r.origin} ${r.host}`);
  assert.ok(
    seen.every((s) => s === `hub ${new URL(emu.url).host}`),
    seen.join('\n'),
  );
});

test('no client of ours sends the token to the CDN: the downloader in both modes, @huggingface/hub in plain mode', async () => {
  fresh();
  for (const xet of [true, false]) {
    emu.settings.xet = xet;
    const listing = await listRun(REPO, 'main', { endpoint: emu.url, token: TOKEN });
    const dest = tempDir();
    await runDownload(planDownload(listing, 'resume', 1, dest), { endpoint: emu.url, token: TOKEN, stateDir: tempDir(), backoffMs: 10 });
    assert.ok(readFileSync(join(dest, 'iter_0000001', '__0_0.distcp')).equals(bytes(60_000, 1)));
  }
  // the official JavaScript client with the platform's fetch (its Xet path needs the CAS protocol, which the emulator does not speak)
  emu.settings.xet = false;
  const blob = await downloadFile({ repo: REPO, path: 'resume/iter_0000001/__0_0.distcp', hubUrl: emu.url, accessToken: TOKEN });
  assert.ok(Buffer.from(await blob!.arrayBuffer()).equals(bytes(60_000, 1)));
  const cdn = emu.requests.filter((r) => r.origin === 'cdn');
  const hubs = emu.requests.filter((r) => r.origin === 'hub');
  assert.ok(cdn.length >= 3, 'each client went to the CDN');
  assert.deepEqual(
    cdn.filter((r) => r.authorization !== undefined).map((r) => r.url),
    [],
  );
  assert.ok(
    hubs.every((r) => r.authorization === `Bearer ${TOKEN}`),
    'every Hub request carried the token',
  );
});

test('model info with blobs=true gives each sibling its size, blob id and LFS data; without it only the name', async () => {
  fresh();
  const plain = (await (await hub(`/api/models/${REPO}`)).json()) as { siblings: Record<string, unknown>[] };
  assert.deepEqual(plain.siblings[0], { rfilename: 'README.md' });
  const info = (await (await hub(`/api/models/${REPO}?blobs=true`)).json()) as { siblings: Record<string, unknown>[] };
  const shard = info.siblings.find((s) => s['rfilename'] === 'resume/iter_0000001/__0_0.distcp')!;
  assert.equal(shard['size'], 60_000);
  assert.match(String(shard['blobId']), /^[0-9a-f]{40}$/);
  assert.deepEqual(shard['lfs'], { sha256: sha256(bytes(60_000, 1)), size: 60_000, pointerSize: 134 });
  const readme = info.siblings.find((s) => s['rfilename'] === 'README.md')!;
  assert.equal(readme['size'], 6);
  assert.equal(readme['lfs'], undefined);
});

test('paths-info takes a JSON body or a form, and expand adds the last commit', async () => {
  fresh();
  const js = await pathsInfo({ repo: REPO, paths: ['README.md', 'resume'], hubUrl: emu.url, expand: true });
  assert.deepEqual(
    js.map((p) => [p.path, p.type, p.lastCommit?.id]),
    [
      ['README.md', 'file', emu.commit(REPO)],
      ['resume', 'directory', undefined],
    ],
  );
  const form = await hub(`/api/models/${REPO}/paths-info/main`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'paths=README.md&paths=resume%2Fiter_0000001%2Fcommon.pt&expand=False',
  });
  assert.equal(form.status, 200);
  const got = (await form.json()) as { path: string; lfs?: { oid: string }; lastCommit?: unknown }[];
  assert.deepEqual(
    got.map((p) => [p.path, p.lfs?.oid, p.lastCommit]),
    [
      ['README.md', undefined, undefined],
      ['resume/iter_0000001/common.pt', sha256(bytes(700, 2)), undefined],
    ],
  );
});

test('plain-mode CDN links expire as the bridge links do', async () => {
  fresh();
  emu.settings.xet = false;
  const path = `/${REPO}/resolve/main/resume/iter_0000001/__0_0.distcp`;
  const ok = await hub(path);
  assert.equal((await fetch(ok.headers.get('location')!)).status, 200);
  emu.settings.bridgeTtlSeconds = -1;
  const old = await fetch((await hub(path)).headers.get('location')!);
  assert.equal(old.status, 403);
  assert.match(await old.text(), /<Code>AccessDenied<\/Code><Message>Request has expired/);
  emu.settings.bridgeTtlSeconds = 3600;
  emu.faults.expiredRedirects = 1;
  assert.equal((await fetch((await hub(path)).headers.get('location')!)).status, 403);
  assert.equal((await fetch((await hub(path)).headers.get('location')!)).status, 200);
});

test("the CDN's ETag is an MD5-like value, not the sha256 the Hub names in X-Linked-Etag", async () => {
  fresh();
  const sum = sha256(bytes(60_000, 1));
  for (const xet of [true, false]) {
    emu.settings.xet = xet;
    const r = await hub(`/${REPO}/resolve/main/resume/iter_0000001/__0_0.distcp`);
    assert.equal(r.headers.get('x-linked-etag'), `"${sum}"`);
    const etag = (await fetch(r.headers.get('location')!, { method: 'HEAD' })).headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{32}"$/, `xet ${xet}`);
  }
});

test('404s: X-Error-Code always, X-Repo-Commit when the repo and revision exist but the entry does not', async () => {
  fresh();
  const missing = await hub(`/${REPO}/resolve/main/nope.txt`);
  assert.equal(missing.status, 404);
  assert.equal(missing.headers.get('x-error-code'), 'EntryNotFound');
  assert.equal(missing.headers.get('x-repo-commit'), emu.commit(REPO));
  const tree = await hub(`/api/models/${REPO}/tree/main/nope`);
  assert.equal(tree.headers.get('x-error-code'), 'EntryNotFound');
  assert.equal(tree.headers.get('x-repo-commit'), emu.commit(REPO));
  const rev = await hub(`/${REPO}/resolve/${'0'.repeat(40)}/README.md`);
  assert.equal(rev.headers.get('x-error-code'), 'RevisionNotFound');
  assert.equal(rev.headers.get('x-repo-commit'), null);
  const repo = await hub(`/acme/none/resolve/main/README.md`);
  assert.equal(repo.headers.get('x-error-code'), 'RepoNotFound');
  assert.equal(repo.headers.get('x-repo-commit'), null);
});

test('refs and commits: a rescan that finds a change makes a commit on top of the last; all views of the head agree', async () => {
  fresh();
  const first = emu.commit(REPO);
  emu.rescan(REPO);
  assert.equal(emu.commit(REPO), first, 'nothing changed, no commit');
  const grown: string[] = [first];
  for (let i = 2; i <= 4; i++) {
    const it = join(dir, 'resume', `iter_000000${i}`);
    mkdirSync(it, { recursive: true });
    writeFileSync(join(it, 'metadata.json'), `{"i":${i}}`);
    emu.rescan(REPO);
    grown.unshift(emu.commit(REPO));
  }
  try {
    assert.equal(new Set(grown).size, 4);
    assert.deepEqual(
      emu.commits(REPO).map((c) => [c.id, c.parent]),
      grown.map((id, i) => [id, grown[i + 1]]),
    );
    const head = emu.commit(REPO);
    const info = (await (await hub(`/api/models/${REPO}`)).json()) as { sha: string };
    const main = (await (await hub(`/api/models/${REPO}/revision/main`)).json()) as { sha: string };
    assert.deepEqual([info.sha, main.sha, (await hub(`/${REPO}/resolve/main/README.md`)).headers.get('x-repo-commit')], [head, head, head]);
    const refs = await (await hub(`/api/models/${REPO}/refs`)).json();
    assert.deepEqual(refs, { branches: [{ name: 'main', ref: 'refs/heads/main', targetCommit: head }], converts: [], tags: [] });
    // the official client's listing, two commits a page, follows the Link header to the end
    const listed: string[] = [];
    for await (const c of listCommits({ repo: REPO, hubUrl: emu.url, batchSize: 2 })) listed.push(c.oid);
    assert.deepEqual(listed, grown);
    assert.equal(await countCommits({ repo: REPO, hubUrl: emu.url }), 4);
    assert.equal(emu.requests.filter((r) => r.url.includes('/commits/main')).length, 3);
    // an older commit still lists its own files
    const old = (await (await hub(`/api/models/${REPO}/tree/${first}/resume?recursive=true`)).json()) as { path: string }[];
    assert.ok(!old.some((e) => e.path.startsWith('resume/iter_0000002')));
    const since = [];
    for await (const c of listCommits({ repo: REPO, hubUrl: emu.url, revision: grown[2]! })) since.push(c.oid);
    assert.deepEqual(since, grown.slice(2));
  } finally {
    for (let i = 2; i <= 4; i++) rmSync(join(dir, 'resume', `iter_000000${i}`), { recursive: true });
    emu.rescan(REPO);
  }
});

test('drop and corrupt fire on a file’s first request, a one-byte probe or a one-GET download', async () => {
  fresh();
  const path = `/${REPO}/resolve/main/resume/iter_0000001/metadata.json`;
  emu.faults.corrupt = 1;
  const probe = await hub(path, { headers: { Range: 'bytes=0-0' } });
  assert.equal(probe.status, 206);
  assert.notEqual((await probe.text()).charCodeAt(0), '{'.charCodeAt(0), 'the probe is corrupted');
  assert.equal(emu.faults.corrupt, 0);
  // a drop past a small file's end still cuts it short
  Object.assign(emu.faults, { dropAfterBytes: 1_000_000, dropCount: 1 });
  await assert.rejects(async () => (await hub(path)).arrayBuffer());
  assert.equal(emu.faults.dropCount, 0);
  assert.equal(await (await hub(path)).text(), '{"sharded_backend":"torch_dist"}');
});

test('faults set by another process: bad JSON is refused with 400 and the emulator keeps serving', async () => {
  fresh();
  const bad = await hub('/__emulator/faults', { method: 'POST', body: '{"corrupt":' });
  assert.equal(bad.status, 400);
  const ok = await hub('/__emulator/faults', { method: 'POST', body: '{"apiErrors":{"count":1,"status":502}}' });
  assert.deepEqual(await ok.json(), { apiErrors: { count: 1, status: 502 } });
  assert.equal((await hub(`/api/models/${REPO}`)).status, 502);
  assert.equal((await hub(`/api/models/${REPO}`)).status, 200);
});
