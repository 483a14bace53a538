import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { Faults, HubEmulator, SeenRequest } from '../hubEmulator/server';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { IndexStore } from '../../src/core/log/indexStore';
import { HubRun } from '../../src/core/hub/inPlace/hubRun';
import type { InPlaceOptions } from '../../src/core/hub/inPlace/hubRun';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { NotCachedError } from '../../src/core/hub/inPlace/hubLogSource';
import { ContentError } from '../../src/core/hub/inPlace/contentCheck';
import { decodeFrame, encodeFrame } from '../../src/core/log/indexCodec';

const REPO = 'acme/in-place';
let emu: HubEmulator;
let repoDir: string;
let creditPath: string;

before(async () => {
  repoDir = tempDir('rlrb-inplace-repo-');
  const d = writeDemo(repoDir, { trajectories: 1500, hubRepo: false, baseline: false });
  creditPath = d.creditLog;
  // a hostile line in the middle: both readers skip it with the same line number
  const lines = readFileSync(creditPath, 'utf8').split('\n');
  lines.splice(700, 0, '{"iteration": 3, "not json');
  writeFileSync(creditPath, lines.join('\n'));
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

function fresh(endpoint = emu.url): InPlaceOptions {
  return { conn: { endpoint }, store: new IndexStore(tempDir('rlrb-idx-')), cache: new RangeCache(tempDir('rlrb-ranges-')) };
}

const fileRequests = (from: number): SeenRequest[] =>
  emu.requests.slice(from).filter((r) => r.method === 'GET' && (r.origin === 'cdn' || r.url.includes('/resolve/')));
/** a GET of the file with no Range header: the whole file */
const fullGets = (from: number): SeenRequest[] => fileRequests(from).filter((r) => r.range === undefined);

async function localRun(): Promise<Run> {
  const r = (await Run.open(repoDir))!;
  await r.update();
  return r;
}

/** The report, the columns and a few records of both runs are the same (paths aside). */
async function assertSameIndex(remote: Run, local: Run): Promise<void> {
  const a = remote.credit!;
  const b = local.credit!;
  assert.equal(a.size, b.size);
  assert.deepStrictEqual(a.skippedLines, b.skippedLines);
  const strip = (x: unknown, p: string): unknown => JSON.parse(JSON.stringify(x).split(p).join('LOG'));
  assert.deepStrictEqual(strip(remote.report()!.report, a.path), strip(local.report()!.report, b.path));
  assert.deepStrictEqual(remote.report()!.curve, local.report()!.curve);
  for (const k of ['offset', 'length', 'line', 'reward', 'sumC', 'flags'] as const)
    assert.deepStrictEqual(a.columns[k].subarray(0, a.size), b.columns[k].subarray(0, b.size), k);
  for (const i of [0, 1, Math.floor(a.size / 2), a.size - 1]) assert.deepStrictEqual(await a.read(i), await b.read(i));
}

test('in place: one streamed GET builds the same index as the local file, and a record is read by a range request', async () => {
  const o = fresh();
  const mark = emu.requests.length;
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.equal(hr.use, 'none');
  assert.ok(hr.run.credit!.skippedCount >= 1);
  assert.equal(fullGets(mark).length, 2, 'one plain GET for each log');
  const before = emu.requests.length;
  const local = await localRun();
  await assertSameIndex(hr.run, local);
  const ranged = fileRequests(before).filter((r) => r.range !== undefined && r.range !== 'bytes=0-0');
  assert.ok(ranged.length >= 1, 'records not in the kept edges came by range requests');
  assert.equal(fullGets(before).length, 0);
});

test('in place: a second open starts from the saved index and makes no full GET', async () => {
  const o = fresh();
  await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const mark = emu.requests.length;
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.equal(hr.use, 'unchanged');
  assert.deepStrictEqual(fullGets(mark), []);
  assert.equal(hr.credit!.bytesFetched + hr.metrics!.bytesFetched, 0, 'no byte of either log fetched');
  await assertSameIndex(hr.run, await localRun());
});

test('in place: a small (git blob) file grown at a newer commit parses only its new tail, and is fetched whole to hash it', async () => {
  const o = fresh();
  const first = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const commit = first.commit;
  const original = readFileSync(creditPath);
  const extra = original.toString('utf8').split('\n').slice(0, 200).join('\n') + '\n';
  appendFileSync(creditPath, extra);
  emu.rescan(REPO);
  try {
    const mark = emu.requests.length;
    const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    assert.notEqual(hr.commit, commit);
    assert.equal(hr.use, 'grown');
    // the git blob sha1 starts with the file's size: no hash of the old bytes continues into the new file
    assert.equal(fullGets(mark).filter((r) => r.url.includes('ws_credit')).length, 1);
    await assertSameIndex(hr.run, await localRun());
    appendFileSync(creditPath, extra);
    emu.rescan(REPO);
    const again = emu.requests.length;
    assert.equal(await hr.refresh(), 'grown');
    assert.equal(fullGets(again).filter((r) => r.url.includes('ws_credit')).length, 1);
    await assertSameIndex(hr.run, await localRun());
  } finally {
    writeFileSync(creditPath, original);
    emu.rescan(REPO);
  }
});

test('in place: an LFS file grown at a newer commit: a new process hashes it whole again; a followed one fetches only the new tail, from the last block', async () => {
  const dir = tempDir('rlrb-grown-lfs-');
  const d = writeDemo(dir, { trajectories: 600, hubRepo: false, baseline: false });
  const own = await startHubEmulator({ repos: { [REPO]: dir }, lfsPaths: /\.jsonl$/ });
  try {
    const local = async (): Promise<Run> => {
      const r = (await Run.open(dir))!;
      await r.update();
      return r;
    };
    const gets = (from: number): SeenRequest[] => own.requests.slice(from).filter((r) => r.method === 'GET' && r.origin === 'cdn');
    const o = fresh(own.url);
    const first = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    assert.equal(first.credit!.target.key.length, 64, 'an LFS sha256');
    const extra = readFileSync(d.creditLog, 'utf8').split('\n').slice(0, 100).join('\n') + '\n';
    appendFileSync(d.creditLog, extra);
    own.rescan(REPO);
    let mark = own.requests.length;
    const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    assert.equal(hr.use, 'grown');
    assert.equal(gets(mark).filter((r) => r.range === undefined).length, 1, 'the credit log streamed again to hash it whole');
    await assertSameIndex(hr.run, await local());

    // followed in this process: the sha256 continues from the last block of the commit before
    const oldSize = hr.credit!.target.size;
    appendFileSync(d.creditLog, extra);
    own.rescan(REPO);
    mark = own.requests.length;
    const fetched = hr.credit!.bytesFetched;
    assert.equal(await hr.refresh(), 'grown');
    const from = Math.floor(oldSize / 16384) * 16384;
    const added = Buffer.byteLength(extra);
    assert.deepStrictEqual(
      gets(mark).filter((r) => r.range === undefined),
      [],
      'no plain GET',
    );
    assert.ok(
      gets(mark).some((r) => r.range === `bytes=${from}-${oldSize + added - 1}`),
      `the tail from the last block by one range request: ${JSON.stringify(gets(mark).map((r) => r.range))}`,
    );
    // the tail and its last block, the two 64 KB identity checks, and the head check of the reader
    const now = hr.credit!.bytesFetched - fetched;
    assert.ok(now <= added + 16384 + 3 * 65536, `fetched ${now}`);
    await assertSameIndex(hr.run, await local());
  } finally {
    await own.close();
  }
});

test('in place: a file replaced at a newer commit is indexed again', async () => {
  const o = fresh();
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const original = readFileSync(creditPath);
  const lines = original.toString('utf8').split('\n');
  writeFileSync(creditPath, [lines[1], lines[0], ...lines.slice(2)].join('\n'));
  emu.rescan(REPO);
  try {
    const mark = emu.requests.length;
    assert.equal(await hr.refresh(), 'rebuilt');
    assert.equal(fullGets(mark).length, 1);
    await assertSameIndex(hr.run, await localRun());
  } finally {
    writeFileSync(creditPath, original);
    emu.rescan(REPO);
  }
});

test('in place: offline, a log opened before opens from its saved index and reads its cached records', async () => {
  const dir = tempDir('rlrb-offline-repo-');
  writeDemo(dir, { trajectories: 600, hubRepo: false, baseline: false });
  const own = await startHubEmulator({ repos: { [REPO]: dir } });
  const o = fresh(own.url);
  const online = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const mid = Math.floor(online.run.credit!.size / 2);
  const want = await online.run.credit!.read(mid);
  await own.close();

  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.equal(hr.use, 'offline');
  assert.match(hr.offline!, /cannot reach|dropped/);
  const local = (await Run.open(dir))!;
  await local.update();
  const strip = (x: unknown, p: string): unknown => JSON.parse(JSON.stringify(x).split(p).join('LOG'));
  assert.deepStrictEqual(strip(hr.run.report()!.report, hr.run.credit!.path), strip(local.report()!.report, local.credit!.path));
  assert.deepStrictEqual(hr.run.report()!.curve, local.report()!.curve, 'the metrics log came from the cache');
  assert.deepStrictEqual(await hr.run.credit!.read(mid), want);
  await assert.rejects(hr.run.credit!.read(mid + 1), (e: unknown) => e instanceof NotCachedError && /not cached/.test(e.message));
  const note = await hr.offlineNote();
  assert.ok(note !== undefined && !note.includes('\n'));
  let readable = 0;
  for (let i = 0; i < hr.run.credit!.size; i++)
    readable += await hr.run.credit!.read(i).then(
      () => 1,
      () => 0,
    );
  assert.ok(readable > 0 && readable < hr.run.credit!.size);
  assert.match(
    note,
    new RegExp(
      `^offline: ${hr.run.credit!.size - readable} of ${hr.run.credit!.size} records of hub:acme/in-place/logs/ws_credit_log.jsonl are not cached .*\\(all but lines `,
    ),
  );

  // never opened here: a one-line error naming the repo
  await assert.rejects(HubRun.open({ repo: 'acme/never', revision: 'main' }, o), /acme\/never was not opened here before/);
});

test('in place: a server that ignores Range, or answers a wrong Content-Range, is refused', async () => {
  const o = fresh();
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const idx = hr.run.credit!;
  try {
    emu.faults.ignoreRange = 1;
    await assert.rejects(
      idx.read(Math.floor(idx.size / 3)),
      /ignored the Range header \(HTTP 200 to a request for bytes \d+-\d+\/\d+\); refused/,
    );
    emu.faults.wrongContentRange = 1;
    await assert.rejects(idx.read(Math.floor(idx.size / 3) + 1), /answered with Content-Range "bytes .*; refused/);
  } finally {
    delete emu.faults.ignoreRange;
    delete emu.faults.wrongContentRange;
  }
  // refused bytes were never cached: with a good server the record reads
  assert.deepStrictEqual(await idx.read(Math.floor(idx.size / 3)), await (await localRun()).credit!.read(Math.floor(idx.size / 3)));
});

/** Runs the CLI without blocking this process, which serves the emulator. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn('node', [resolve('dist/cli.js'), ...args], { env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('close', (code) => res({ status: code ?? -1, stdout, stderr }));
  });
}

test('rlrb evals hub:owner/name reads logs/eval_log.jsonl in place, only when asked: the same checkpoints as the local run', async () => {
  const env = { ...process.env, XDG_CACHE_HOME: tempDir('rlrb-xdg-'), HF_HOME: tempDir(), HF_TOKEN: '' };
  const local = await runCli(['evals', repoDir, '--json'], env);
  assert.equal(local.status, 0, local.stderr);
  const want = JSON.parse(local.stdout) as { iterations: { iteration: number }[] };
  assert.ok(want.iterations.length > 0, 'the demo has evaluations');
  const mark = emu.requests.length;
  const r = await runCli(['evals', `hub:${REPO}`, '--endpoint', emu.url, '--json'], env);
  assert.equal(r.status, 0, r.stderr);
  assert.deepStrictEqual(JSON.parse(r.stdout), want);
  assert.ok(
    fileRequests(mark).some((q) => q.url.includes('eval_log.jsonl')),
    'the eval log was fetched from the Hub',
  );
});

test('rlrb report and show hub:owner/name read the logs in place: the same report as the local run, the second time from the saved index', async () => {
  const env = { ...process.env, XDG_CACHE_HOME: tempDir('rlrb-xdg-'), HF_HOME: tempDir(), HF_TOKEN: '' };
  const local = await runCli(['report', repoDir, '--json'], env);
  assert.equal(local.status, 0, local.stderr);
  const strip = (t: string, p: string): unknown => JSON.parse(t.split(JSON.stringify(p).slice(1, -1)).join('LOG'));
  const want = strip(local.stdout, join(repoDir, 'logs', 'ws_credit_log.jsonl'));
  for (const round of [1, 2]) {
    const mark = emu.requests.length;
    const r = await runCli(['report', `hub:${REPO}`, '--endpoint', emu.url, '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    assert.deepStrictEqual(strip(r.stdout, `hub:${REPO}/logs/ws_credit_log.jsonl`), want);
    assert.equal(fullGets(mark).length, round === 1 ? 2 : 0, `round ${round}`);
  }
  const args = ['--iteration', '2', '--group', '3', '--rollout', '1', '--json'];
  const a = await runCli(['show', `hub:${REPO}@main`, '--endpoint', emu.url, ...args], env);
  const b = await runCli(['show', repoDir, ...args], env);
  assert.equal(a.status, 0, a.stderr);
  assert.deepStrictEqual(JSON.parse(a.stdout), JSON.parse(b.stdout));
  const bad = await runCli(['report', 'hub:not a repo', '--endpoint', emu.url], env);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /is not a repo id/);
});

test('rlrb export and compare take hub: refs, opened as report opens them: the same figures as the local folder', async () => {
  const env = { ...process.env, XDG_CACHE_HOME: tempDir('rlrb-xdg-'), HF_HOME: tempDir(), HF_TOKEN: '' };
  const hub = `hub:${REPO}`;
  const c = await runCli(['compare', hub, repoDir, '--endpoint', emu.url, '--json', '--tau', '10'], env);
  const cl = await runCli(['compare', repoDir, repoDir, '--json', '--tau', '10'], env);
  assert.equal(c.status, 0, c.stderr);
  assert.equal(cl.status, 0, cl.stderr);
  const figures = (o: Record<string, unknown>): Record<string, unknown> => {
    const { warnings: _w, reportA: _a, reportB: _b, ...rest } = o;
    return rest;
  };
  const hubCmp = JSON.parse(c.stdout) as Record<string, unknown>;
  const localCmp = JSON.parse(cl.stdout) as Record<string, unknown>;
  assert.ok((hubCmp['tasks'] as { count: number }).count > 0, 'tasks were paired by the task column read in place');
  assert.deepStrictEqual(figures(hubCmp), figures(localCmp), 'the task column read by checked ranges equals the local pass');
  assert.deepStrictEqual(hubCmp['reportB'], localCmp['reportB']);
  const e = await runCli(['export', hub, '--endpoint', emu.url, '--format', 'csv', '--iteration-min', '3'], env);
  const l = await runCli(['export', repoDir, '--format', 'csv', '--iteration-min', '3'], env);
  assert.equal(e.status, 0, e.stderr);
  assert.ok(l.stdout.split('\r\n').length > 10);
  assert.equal(e.stdout, l.stdout, 'the same CSV from the Hub and from the folder');
});

/** Sets file faults on the credit log for one call, then clears every fault. */
async function withFaults<T>(f: Omit<Faults, 'pathContains'>, fn: () => Promise<T>): Promise<T> {
  Object.assign(emu.faults, { ...f, pathContains: 'ws_credit' });
  try {
    return await fn();
  } finally {
    for (const k of Object.keys(emu.faults) as (keyof Faults)[]) delete emu.faults[k];
  }
}

const FAST_RETRY = { backoffMs: 10, stallTimeoutMs: 400 };
const creditSize = (): number => readFileSync(creditPath).length;

test('in place: a connection cut in the middle of the indexing pass resumes from the byte reached, with the same index', async () => {
  const size = creditSize();
  const mark = emu.requests.length;
  // a cut in the middle of the pass's body, not in the probes and header reads before it
  const cut = Math.floor(size / 2);
  const hr = await withFaults({ dropAfterBytes: cut, dropCount: 1, minBodyBytes: cut + 1 }, () =>
    HubRun.open({ repo: REPO, revision: 'main' }, { ...fresh(), retry: FAST_RETRY }),
  );
  const resumed = fileRequests(mark).filter((r) => r.url.includes('ws_credit') || r.origin === 'cdn');
  assert.ok(
    resumed.some(
      (r) =>
        /^bytes=(\d+)-(\d+)$/.test(r.range ?? '') && Number(/^bytes=(\d+)-/.exec(r.range!)![1]) > 0 && r.range!.endsWith(`-${size - 1}`),
    ),
    `a Range: bytes=N- request resumed the pass: ${JSON.stringify(resumed.map((r) => r.range))}`,
  );
  await assertSameIndex(hr.run, await localRun());
});

test('in place: a stall longer than the watchdog drops the body and resumes it, with the same index', { timeout: 30_000 }, async () => {
  const size = creditSize();
  const hr = await withFaults({ stall: { afterBytes: Math.floor(size / 3), count: 1 } }, () =>
    HubRun.open({ repo: REPO, revision: 'main' }, { ...fresh(), retry: FAST_RETRY }),
  );
  await assertSameIndex(hr.run, await localRun());
});

test('in place: a 503 then success, for the pass and for a record, is retried; the retries are bounded', async () => {
  const mark = emu.requests.length;
  const o = { ...fresh(), retry: FAST_RETRY };
  const hr = await withFaults({ serverErrors: 1, serverErrorStatus: 503 }, () => HubRun.open({ repo: REPO, revision: 'main' }, o));
  assert.ok(emu.requests.slice(mark).some((r) => r.status === 503));
  const local = await localRun();
  await assertSameIndex(hr.run, local);
  const idx = hr.run.credit!;
  const i = Math.floor(idx.size / 3);
  assert.deepStrictEqual(await withFaults({ serverErrors: 1, serverErrorStatus: 503 }, () => idx.read(i)), await local.credit!.read(i));
  assert.deepStrictEqual(await withFaults({ dropAfterBytes: 10, dropCount: 1 }, () => idx.read(i + 1)), await local.credit!.read(i + 1));
  const before = emu.requests.length;
  await assert.rejects(
    // a record in blocks not read yet (a record is read as the whole 16 KB blocks around it)
    withFaults({ serverErrors: 100, serverErrorStatus: 503 }, () => idx.read(Math.floor((idx.size * 2) / 3))),
    /HTTP 503.*\(after 6 retries\)/,
  );
  assert.equal(emu.requests.slice(before).filter((r) => r.status === 503).length, 7);
});

test(
  'in place: a server that never sends the response headers, or sends them and then nothing, is dropped by the watchdog from the request on and retried, for the pass and for a record',
  { timeout: 20_000 },
  async () => {
    const mark = emu.requests.length;
    const o = { ...fresh(), retry: FAST_RETRY };
    const hr = await withFaults({ noHeaders: { count: 1, ranged: false } }, () => HubRun.open({ repo: REPO, revision: 'main' }, o));
    assert.equal(
      fullGets(mark).filter((r) => r.url.includes('ws_credit')).length,
      2,
      'the plain GET of the credit log that got no headers, then the pass again',
    );
    const local = await localRun();
    await assertSameIndex(hr.run, local);
    const idx = hr.run.credit!;
    const i = Math.floor(idx.size / 3);
    assert.deepStrictEqual(await withFaults({ noHeaders: { count: 1, ranged: true } }, () => idx.read(i)), await local.credit!.read(i));
    assert.deepStrictEqual(
      await withFaults({ stall: { afterBytes: 0, count: 1 } }, () => idx.read(i + 1)),
      await local.credit!.read(i + 1),
    );
  },
);

test('in place: a transient 5xx from the Hub API when a repo opened before is opened is retried, and the repo opens live', async () => {
  const o = { ...fresh(), retry: FAST_RETRY };
  const online = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const mark = emu.requests.length;
  emu.faults.apiErrors = { count: 2, status: 503 };
  try {
    const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    assert.equal(emu.requests.slice(mark).filter((r) => r.status === 503).length, 2);
    assert.equal(hr.offline, undefined);
    assert.equal(hr.savedIndexLine, undefined);
    assert.equal(hr.use, 'unchanged');
    assert.equal(hr.commit, online.commit);
  } finally {
    delete emu.faults.apiErrors;
  }
});

test('in place: a 5xx from the Hub that outlasts the retries, when a repo opened before is opened, falls back to its saved index, in one line naming the status and the commit', async () => {
  const o = { ...fresh(), retry: FAST_RETRY };
  const online = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const mid = Math.floor(online.run.credit!.size / 2);
  const want = await online.run.credit!.read(mid);
  const mark = emu.requests.length;
  emu.faults.apiErrors = { count: 1000, status: 503 };
  try {
    const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    assert.equal(hr.use, 'offline');
    assert.equal(emu.requests.slice(mark).filter((r) => r.status === 503).length, 7, 'the first answer and 6 retries');
    assert.equal(
      hr.savedIndexLine,
      `the Hub answered HTTP 503; hub:${REPO} opened from the saved index of commit ${online.commit.slice(0, 12)}`,
    );
    assert.deepStrictEqual(fullGets(mark), []);
    assert.deepStrictEqual(hr.run.report()!.report, online.run.report()!.report);
    assert.deepStrictEqual(await hr.run.credit!.read(mid), want, 'a record already read comes from the ranges cache');

    // the CLI retries a transient 503 with the default policy and opens live: no warning
    const env = { ...process.env, XDG_CACHE_HOME: tempDir('rlrb-xdg-'), HF_HOME: tempDir(), HF_TOKEN: '' };
    emu.faults.apiErrors.count = 0;
    assert.equal((await runCli(['report', `hub:${REPO}`, '--endpoint', emu.url], env)).status, 0);
    emu.faults.apiErrors.count = 1;
    const r = await runCli(['report', `hub:${REPO}`, '--endpoint', emu.url], env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(emu.faults.apiErrors.count, 0, 'the CLI met the 503');
    assert.doesNotMatch(r.stderr, /saved index/);
    // never opened here: the 5xx is the error
    emu.faults.apiErrors.count = 1000;
    await assert.rejects(
      HubRun.open({ repo: 'acme/never', revision: 'main' }, { ...fresh(), retry: FAST_RETRY }),
      /^HubError: the Hub answered HTTP 503; hub:acme\/never was not opened here before/,
    );
  } finally {
    delete emu.faults.apiErrors;
  }
});

test(
  'in place: a Hub API that goes silent (no headers, or headers and then nothing) is dropped after the stall timeout: a repo opened before opens from its saved index, one never opened fails in one line',
  { timeout: 20_000 },
  async () => {
    const o = { ...fresh(), retry: FAST_RETRY };
    const online = await HubRun.open({ repo: REPO, revision: 'main' }, o);
    for (const afterHeaders of [false, true]) {
      emu.faults.apiSilent = { count: 1, afterHeaders };
      try {
        const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
        assert.equal(emu.faults.apiSilent.count, 0, 'the silent answer was met');
        assert.equal(hr.use, 'offline');
        assert.equal(
          hr.savedIndexLine,
          `the Hub (${new URL(emu.url).host}) sent nothing for 0.4 s; check the network; hub:${REPO} opened from the saved index of commit ${online.commit.slice(0, 12)}`,
        );
        emu.faults.apiSilent = { count: 1, afterHeaders };
        await assert.rejects(
          HubRun.open({ repo: 'acme/never', revision: 'main' }, { ...fresh(), retry: FAST_RETRY }),
          /^HubError: .* sent nothing for 0\.4 s; check the network; hub:acme\/never was not opened here before/,
        );
      } finally {
        delete emu.faults.apiSilent;
      }
    }
  },
);

test('in place: the metrics index is saved like the credit index: a second open, even with the ranges cache emptied, makes no GET of either log', async () => {
  const o = fresh();
  const first = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  await o.cache.clear();
  const mark = emu.requests.length;
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.deepStrictEqual(
    fileRequests(mark).map((r) => `${r.url} ${r.range ?? ''}`),
    [],
  );
  assert.equal(hr.use, 'unchanged');
  assert.equal(hr.run.metrics!.rowCount, first.run.metrics!.rowCount);
  assert.deepStrictEqual(hr.run.report()!.curve, (await localRun()).report()!.curve);
  await assertSameIndex(hr.run, await localRun());
});

/** The credit log with every 0/1 reward flipped: other bytes of the same size. */
function flippedCopy(): string {
  const text = readFileSync(creditPath, 'latin1').replace(/"reward":([01])\b/g, (_m, r: string) => `"reward":${r === '1' ? '0' : '1'}`);
  const p = join(tempDir('rlrb-flipped-'), 'ws_credit_log.jsonl');
  writeFileSync(p, text, 'latin1');
  assert.equal(readFileSync(p).length, creditSize());
  return p;
}

const CREDIT_FILE = 'logs/ws_credit_log.jsonl';
const oidOf = (path: string): string => emu.files(REPO).find((f) => f.path === path)!.oid;
/** range requests of a record (not the one-byte probe the client makes before each) */
const rangeGets = (from: number): SeenRequest[] => fileRequests(from).filter((r) => r.range !== undefined && r.range !== 'bytes=0-0');

test('in place: a Hub that streams other bytes of the same size under the real oid is refused in one line naming both hashes, nothing saved; the honest Hub then indexes it afresh', async () => {
  const o = fresh();
  emu.faults.substitute = { [CREDIT_FILE]: flippedCopy() };
  try {
    await assert.rejects(HubRun.open({ repo: REPO, revision: 'main' }, o), (e: unknown) => {
      assert.ok(e instanceof ContentError);
      assert.match(
        e.message,
        new RegExp(
          `^${REPO}/${CREDIT_FILE}@[0-9a-f]{12}: the bytes the Hub sent have git blob sha1 [0-9a-f]{40}, but the Hub names ${oidOf(CREDIT_FILE)}; refused, nothing saved$`,
        ),
      );
      return true;
    });
  } finally {
    delete emu.faults.substitute;
  }
  assert.deepStrictEqual(readdirSync(o.store.dir), [], 'no saved index, no pointer');
  assert.deepStrictEqual(await o.cache.ranges(oidOf(CREDIT_FILE)), [], 'no cached range of the credit log');
  const mark = emu.requests.length;
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.equal(hr.use, 'none', 'indexed afresh');
  assert.equal(fullGets(mark).filter((r) => r.url.includes('ws_credit')).length, 1);
  await assertSameIndex(hr.run, await localRun());
});

test('in place: a corrupted byte in a later range read is refused in one line, not retried, and not cached', async () => {
  const o = { ...fresh(), retry: FAST_RETRY };
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const idx = hr.run.credit!;
  const i = Math.floor(idx.size / 2);
  const mark = emu.requests.length;
  await assert.rejects(
    withFaults({ corrupt: 1, minBodyBytes: 2 }, () => idx.read(i)),
    (e: unknown) =>
      e instanceof ContentError &&
      new RegExp(
        `^${REPO}/${CREDIT_FILE}@[0-9a-f]{12}: bytes \\d+-\\d+ are not the bytes indexed \\(sha256 [0-9a-f]{64}, indexed [0-9a-f]{64}\\); refused, not retried$`,
      ).test(e.message),
  );
  assert.equal(rangeGets(mark).length, 1, 'one range request, not retried');
  assert.deepStrictEqual(await idx.read(i), await (await localRun()).credit!.read(i), 'the good bytes on the next read');
});

test('in place: a 206 of the wrong length, or a gzip-encoded range, is refused at once (one request each)', async () => {
  const o = { ...fresh(), retry: FAST_RETRY };
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const idx = hr.run.credit!;
  let mark = emu.requests.length;
  await assert.rejects(
    withFaults({ rangeExtraByte: 1 }, () => idx.read(Math.floor(idx.size / 4))),
    /answered bytes \d+-\d+\/\d+ with Content-Length "\d+", not \d+; refused$/,
  );
  assert.equal(rangeGets(mark).length, 1);
  mark = emu.requests.length;
  await assert.rejects(
    withFaults({ gzipRange: 1 }, () => idx.read(Math.floor((idx.size * 3) / 4))),
    /answered bytes \d+-\d+\/\d+ with Content-Encoding "gzip", not the file's bytes; refused$/,
  );
  assert.equal(rangeGets(mark).length, 1);
});

test('rlrb report|show hub:…: other bytes under the real oid exit 1 with one line and save nothing; a corrupted record range exits 1 with one line', async () => {
  const env = { ...process.env, XDG_CACHE_HOME: tempDir('rlrb-xdg-'), HF_HOME: tempDir(), HF_TOKEN: '' };
  const local = await runCli(['report', repoDir, '--json'], env);
  const strip = (t: string, p: string): unknown => JSON.parse(t.split(JSON.stringify(p).slice(1, -1)).join('LOG'));
  const want = strip(local.stdout, join(repoDir, 'logs', 'ws_credit_log.jsonl'));
  emu.faults.substitute = { [CREDIT_FILE]: flippedCopy() };
  let bad;
  try {
    bad = await runCli(['report', `hub:${REPO}`, '--endpoint', emu.url, '--json'], env);
  } finally {
    delete emu.faults.substitute;
  }
  assert.equal(bad.status, 1);
  assert.equal(bad.stdout, '');
  assert.match(
    bad.stderr,
    /^rlrb: acme\/in-place\/logs\/ws_credit_log\.jsonl@[0-9a-f]{12}: the bytes the Hub sent have git blob sha1 [0-9a-f]{40}, but the Hub names [0-9a-f]{40}; refused, nothing saved\n$/,
  );
  const mark = emu.requests.length;
  const good = await runCli(['report', `hub:${REPO}`, '--endpoint', emu.url, '--json'], env);
  assert.equal(good.status, 0, good.stderr);
  assert.equal(fullGets(mark).filter((r) => r.url.includes('ws_credit')).length, 1, 'indexed afresh, not from a saved index');
  assert.deepStrictEqual(strip(good.stdout, `hub:${REPO}/logs/ws_credit_log.jsonl`), want);

  const args = ['show', `hub:${REPO}`, '--endpoint', emu.url, '--iteration', '3', '--group', '10', '--rollout', '2'];
  const shown = await withFaults({ corrupt: 1, minBodyBytes: 2 }, () => runCli(args, env));
  assert.equal(shown.status, 1, shown.stdout);
  assert.equal(shown.stdout, '');
  assert.match(
    shown.stderr,
    /^rlrb: acme\/in-place\/logs\/ws_credit_log\.jsonl@[0-9a-f]{12}: bytes \d+-\d+ are not the bytes indexed \(sha256 [0-9a-f]{64}, indexed [0-9a-f]{64}\); refused, not retried\n$/,
  );
  assert.equal((await runCli(args, env)).status, 0);
});

test('in place: a followed repo whose newer commit streams other bytes is refused and keeps the index of the commit verified before; the honest Hub is then followed', async () => {
  const o = fresh();
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const commit = hr.commit;
  const key = hr.credit!.target.key;
  const report = JSON.stringify(hr.run.report()!.report);
  const original = readFileSync(creditPath);
  appendFileSync(creditPath, original.toString('utf8').split('\n').slice(0, 50).join('\n') + '\n');
  emu.rescan(REPO);
  try {
    emu.faults.substitute = { [CREDIT_FILE]: flippedCopy() };
    try {
      await assert.rejects(hr.refresh(), (e: unknown) => e instanceof ContentError && /refused, nothing saved$/.test(e.message));
    } finally {
      delete emu.faults.substitute;
    }
    assert.equal(hr.commit, commit);
    assert.equal(hr.credit!.target.key, key);
    assert.equal(JSON.stringify(hr.run.report()!.report), report, 'the index of the commit verified before');
    const mark = emu.requests.length;
    assert.equal(await hr.refresh(), 'grown');
    assert.ok(fullGets(mark).length >= 1);
    await assertSameIndex(hr.run, await localRun());
  } finally {
    writeFileSync(creditPath, original);
    emu.rescan(REPO);
  }
});

test('in place: a saved index opens only when the hash it was verified with is the one the Hub names', async () => {
  const o = fresh();
  await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const dir = o.store.dir;
  let changed = 0;
  for (const name of readdirSync(dir)) {
    const buf = readFileSync(join(dir, name));
    const frame = decodeFrame(buf);
    const hub = frame?.header['hub'] as Record<string, unknown> | undefined;
    if (!frame || !hub || frame.header['kind'] !== 'credit') continue;
    // a saved index that says it was verified with other bytes (as one saved before the check was: none)
    const header = { ...frame.header, hub: { ...hub, verified: 'f'.repeat(String(hub['key']).length) } };
    delete (header as { sections?: unknown }).sections;
    const make = { f64: Float64Array, u32: Uint32Array, u16: Uint16Array };
    const sections = [...frame.sections].map(([n, sec]) => {
      const data = new make[sec.type](new Uint8Array(sec.bytes).buffer);
      return { name: n, count: data.length, data };
    });
    writeFileSync(join(dir, name), Buffer.concat(encodeFrame(header, sections)));
    changed++;
  }
  assert.equal(changed, 1);
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  assert.equal(hr.use, 'none', 'indexed again, not opened from it');
});

test('in place: a newer commit that looks grown (same first and last 64 KB) but changed a byte before its tail is indexed again, followed or opened anew', async () => {
  const original = readFileSync(creditPath);
  const o = fresh();
  const hr = await HubRun.open({ repo: REPO, revision: 'main' }, o);
  const extra = original.toString('utf8').split('\n').slice(0, 50).join('\n') + '\n';
  /** the log with one reward in its middle flipped, and `extra` appended */
  const changed = (): Buffer => {
    const text = original.toString('latin1');
    const at = text.indexOf('"reward":1', Math.floor(text.length / 2));
    return Buffer.from(text.slice(0, at) + '"reward":0' + text.slice(at + 10) + extra, 'latin1');
  };
  try {
    writeFileSync(creditPath, changed());
    emu.rescan(REPO);
    assert.equal(await hr.refresh(), 'rebuilt');
    await assertSameIndex(hr.run, await localRun());

    writeFileSync(creditPath, original);
    emu.rescan(REPO);
    const o2 = fresh();
    await HubRun.open({ repo: REPO, revision: 'main' }, o2);
    writeFileSync(creditPath, changed());
    emu.rescan(REPO);
    const again = await HubRun.open({ repo: REPO, revision: 'main' }, o2);
    assert.equal(again.use, 'none', 'indexed again, not continued');
    await assertSameIndex(again.run, await localRun());
  } finally {
    writeFileSync(creditPath, original);
    emu.rescan(REPO);
  }
});

test('in place: a malformed tree entry for a log is refused at once, never retried', async () => {
  const mark = emu.requests.length;
  await assert.rejects(
    withFaults({ treeOverride: { 'logs/ws_credit_log.jsonl': { oid: 'not-a-hash' } } }, () =>
      HubRun.open({ repo: REPO, revision: 'main' }, { ...fresh(), retry: { ...FAST_RETRY, retries: 6 } }),
    ),
    /refusing "logs\/ws_credit_log\.jsonl" from the Hub: its oid "not-a-hash" is not 40 lowercase hex digits$/,
  );
  assert.equal(emu.requests.slice(mark).filter((r) => r.url.includes('/paths-info/')).length, 1);
});
