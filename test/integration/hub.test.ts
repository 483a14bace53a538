import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun, shapeListing } from '../../src/core/hub/model';
import { planDownload, runDownload, DownloadError, STATE_DIR } from '../../src/core/hub/download';
import { HubError } from '../../src/core/hub/errors';
import { resolveEndpoint, resolveToken } from '../../src/core/hub/config';
import { errorMessage } from '../../src/core/errorMessage';

const REPO = 'acme/run-1';
const TOKEN = 'hf_integrationTestToken123456';
let emu: HubEmulator;
let repoDir: string;

/** A repo with the run layout and deterministic contents, a few bigger files among them. */
function makeRepo(dir: string): void {
  let seed = 7;
  const bytes = (n: number): Buffer => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      b[i] = seed >>> 24;
    }
    return b;
  };
  for (const n of [10, 20]) {
    const d = join(dir, 'resume', `iter_${String(n).padStart(7, '0')}`);
    mkdirSync(d, { recursive: true });
    for (let a = 0; a < 4; a++) for (let b = 0; b < 2; b++) writeFileSync(join(d, `__${a}_${b}.distcp`), bytes(150_000 + a * 1000 + b));
    writeFileSync(join(d, '.metadata'), bytes(3000));
    writeFileSync(join(d, 'common.pt'), bytes(500));
    writeFileSync(join(d, 'metadata.json'), '{"sharded_backend":"torch_dist"}');
  }
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '20\n');
  const h = join(dir, 'hf', 'iter_0000020');
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, 'config.json'), '{"a":1}');
  writeFileSync(join(h, 'model-00001-of-00001.safetensors'), bytes(40_000));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'ws_metrics.jsonl'), '{"iteration":0,"ws/c_mean":0.1}\n');
}

before(async () => {
  repoDir = tempDir('rlrb-repo-');
  makeRepo(repoDir);
  emu = await startHubEmulator({
    repos: { [REPO]: repoDir, 'acme/private': repoDir },
    pageSize: 5,
    validTokens: [TOKEN],
    privateRepos: ['acme/private'],
  });
});
after(async () => {
  await emu.close();
});

const conn = (extra: Record<string, unknown> = {}): { endpoint: string; token?: string } => ({ endpoint: emu.url, ...extra });
const resetFaults = (): void => {
  for (const k of Object.keys(emu.faults)) delete (emu.faults as Record<string, unknown>)[k];
};

function sameTree(a: string, b: string): void {
  const files = readdirSync(b);
  assert.deepEqual(
    readdirSync(a)
      .filter((f) => f !== STATE_DIR)
      .sort(),
    files.sort(),
  );
  for (const f of files) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs`);
}

test('the listing follows pagination to the end and shapes iterations, sizes and latest', async () => {
  const before = emu.requests.length;
  const l = await listRun(REPO, 'main', conn());
  const treeCalls = emu.requests.slice(before).filter((r) => r.url.includes('/tree/'));
  assert.ok(treeCalls.length > 3, `pagination: ${treeCalls.length} pages`);
  assert.equal(l.files.length, emu.files(REPO).length);
  assert.deepEqual(
    l.resume.map((i) => i.iteration),
    [10, 20],
  );
  assert.deepEqual(
    l.hf.map((i) => i.iteration),
    [20],
  );
  assert.equal(l.latest, 20, 'a trailing newline is accepted');
  assert.ok(l.resume[1]!.isLatest && !l.resume[0]!.isLatest);
  assert.equal(l.resume[0]!.files.length, 11);
  assert.equal(
    l.resume[0]!.bytes,
    emu
      .files(REPO)
      .filter((f) => f.path.startsWith('resume/iter_0000010/'))
      .reduce((s, f) => s + f.size, 0),
  );
  assert.equal(l.commit, emu.commit(REPO));
  assert.ok(
    l.resume[0]!.files.every((f) => f.path.endsWith('.json') || f.lfsSha256),
    'LFS hashes listed',
  );
});

test('a resume download is byte-identical and writes the latest file last', async () => {
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  const plan = planDownload(l, 'resume', 'latest', dest);
  let latestSeenBeforeEnd = false;
  const res = await runDownload(plan, {
    ...conn(),
    onProgress: (p) => {
      if (p.event !== 'done' && existsSync(join(dest, 'latest_checkpointed_iteration.txt'))) latestSeenBeforeEnd = true;
    },
  });
  assert.equal(res.files, 11);
  assert.ok(!latestSeenBeforeEnd, 'the latest file appeared only at the end');
  sameTree(join(dest, 'iter_0000020'), join(repoDir, 'resume', 'iter_0000020'));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '20');
  // exactly the launcher's layout: no state of ours is left in the checkpoint folder
  assert.deepEqual(readdirSync(dest).sort(), ['iter_0000020', 'latest_checkpointed_iteration.txt']);
  // a second run fetches nothing
  const again = await runDownload(plan, conn());
  assert.equal(again.bytesFetched, 0);
  assert.equal(again.skipped, 11);
});

for (const [name, faults] of [
  ['dropped connections', { dropAfterBytes: 40_000, dropCount: 6 }],
  ['5xx answers', { serverErrors: 4 }],
  ['corrupted bytes', { corrupt: 1, pathContains: '__1_0' }],
  ['a slow trickle', { trickleBytesPerSecond: 2_000_000, pathContains: '__0_' }],
] as const) {
  test(`fault: ${name} ends in byte-identical files`, async () => {
    resetFaults();
    Object.assign(emu.faults, faults);
    const dest = tempDir();
    const l = await listRun(REPO, 'main', conn());
    const events: string[] = [];
    // flushes to disk in the background every 16 KB, so that links drop with one in flight
    await runDownload(planDownload(l, 'resume', 10, dest), {
      ...conn(),
      backoffMs: 20,
      flushEveryBytes: 16_384,
      onProgress: (p) => {
        if (p.event) events.push(p.event);
      },
    });
    resetFaults();
    sameTree(join(dest, 'iter_0000010'), join(repoDir, 'resume', 'iter_0000010'));
    if (name === 'corrupted bytes')
      assert.ok(
        events.some((e) => e.includes('checksum mismatch')),
        events.join('\n'),
      );
    if (name !== 'a slow trickle')
      assert.ok(
        events.some((e) => e.includes('retrying') || e.includes('mismatch')),
        events.join('\n'),
      );
  });
}

test('fault: 429 honours Retry-After', async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  emu.faults.rateLimit = { count: 1, retryAfter: 1 };
  const t0 = Date.now();
  const events: string[] = [];
  await runDownload(planDownload(l, 'hf', 20, dest), {
    ...conn(),
    concurrency: 1,
    onProgress: (p) => {
      if (p.event) events.push(p.event);
    },
  });
  assert.ok(Date.now() - t0 >= 1000, 'waited as asked');
  assert.ok(
    events.some((e) => /rate-limited.*wait 1 s/.test(e)),
    events.join('\n'),
  );
  sameTree(join(dest, 'iter_0000020'), join(repoDir, 'hf', 'iter_0000020'));
});

test('a file that keeps failing fails the download with its name and reason; nothing wrong is in place, latest not written', async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  Object.assign(emu.faults, { corrupt: 1000, pathContains: '__3_1' });
  await assert.rejects(runDownload(planDownload(l, 'resume', 20, dest), { ...conn(), backoffMs: 5 }), (e: unknown) => {
    assert.ok(e instanceof DownloadError);
    assert.match(errorMessage(e), /__3_1\.distcp: checksum mismatch twice/);
    return true;
  });
  resetFaults();
  assert.ok(!existsSync(join(dest, 'iter_0000020', '__3_1.distcp')), 'no corrupt file in place');
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')), 'latest never names an unfinished iteration');
  for (const f of readdirSync(join(dest, 'iter_0000020')))
    assert.ok(readFileSync(join(dest, 'iter_0000020', f)).equals(readFileSync(join(repoDir, 'resume', 'iter_0000020', f))), f);
  Object.assign(emu.faults, { serverErrors: 1000, pathContains: 'common.pt' });
  const dest2 = tempDir();
  await assert.rejects(
    runDownload(planDownload(l, 'resume', 20, dest2), { ...conn(), backoffMs: 1, retries: 2 }),
    /common\.pt: the (Hub|CDN) \([^)]+\) answered HTTP 5\d\d for .*after 2 retries/,
  );
  resetFaults();
  assert.ok(!existsSync(join(dest2, 'latest_checkpointed_iteration.txt')));
  // a file whose size changed on the Hub since the listing: named once, not retried
  const stale = planDownload(l, 'resume', 20, tempDir());
  const first = stale.items.find((i) => i.path.endsWith('common.pt'))!;
  first.size += 1;
  await assert.rejects(runDownload(stale, conn()), (e: unknown) => {
    assert.ok(e instanceof DownloadError);
    assert.equal(
      errorMessage(e),
      `${first.path}: the Hub now says ${first.size - 1} bytes, the listing said ${first.size}; refresh and try again`,
    );
    return true;
  });
});

test('a verified file that cannot be put in place fails the download with its name; its bytes are kept, latest not written', async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  // a directory where a file belongs: the rename into place fails after the file was fetched and verified
  mkdirSync(join(dest, 'iter_0000020', 'common.pt', 'in-the-way'), { recursive: true });
  await assert.rejects(runDownload(planDownload(l, 'resume', 20, dest), conn()), (e: unknown) => {
    assert.ok(e instanceof DownloadError);
    assert.match(errorMessage(e), /common\.pt: cannot put the verified file in place/);
    return true;
  });
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')), 'latest never names an unfinished iteration');
  const parts = readdirSync(join(dest, STATE_DIR, 'partial', 'iter_0000020'));
  assert.deepEqual(parts, ['common.pt.part'], 'the verified bytes stay in the partial folder');
  assert.equal(statSync(join(dest, STATE_DIR, 'partial', 'iter_0000020', parts[0]!)).size, 500);
  // out of the way, a second run moves it into place without fetching it again
  rmSync(join(dest, 'iter_0000020', 'common.pt'), { recursive: true });
  const res = await runDownload(planDownload(l, 'resume', 20, dest), conn());
  assert.equal(res.bytesFetched, 0);
  sameTree(join(dest, 'iter_0000020'), join(repoDir, 'resume', 'iter_0000020'));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '20');
});

test('cancel, then run again: it completes and fetches no completed byte twice', async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  const plan = planDownload(l, 'resume', 20, dest);
  const total = plan.items.reduce((s, i) => s + i.size, 0);
  emu.faults.trickleBytesPerSecond = 400_000;
  const ac = new AbortController();
  let fetched1 = 0;
  await assert.rejects(
    runDownload(plan, {
      ...conn(),
      signal: ac.signal,
      concurrency: 2,
      flushEveryBytes: 16_384,
      onProgress: (p) => {
        fetched1 = p.bytesDone;
        if (p.bytesDone > total / 3) ac.abort();
      },
    }),
    (e: unknown) => e instanceof HubError && e.kind === 'cancelled',
  );
  resetFaults();
  assert.ok(fetched1 > 0 && fetched1 < total);
  assert.ok(!existsSync(join(dest, 'latest_checkpointed_iteration.txt')));
  // what the first run left: complete files and partial ones
  const size = (p: string): number => (existsSync(p) ? statSync(p).size : 0);
  const done = readdirSync(join(dest, 'iter_0000020')).reduce((a, f) => a + size(join(dest, 'iter_0000020', f)), 0);
  const partDir = join(dest, STATE_DIR, 'partial', 'iter_0000020');
  const partial = existsSync(partDir) ? readdirSync(partDir).reduce((a, f) => a + size(join(partDir, f)), 0) : 0;
  assert.ok(done + partial > 0);
  const startReq = emu.requests.length;
  const res = await runDownload(plan, conn());
  assert.equal(res.bytesFetched, total - done - partial, 'no byte on disk is fetched again');
  const second = emu.requests.slice(startReq).filter((r) => r.method === 'GET' && r.range !== 'bytes=0-0');
  if (partial > 0)
    assert.ok(
      second.some((r) => r.range !== undefined && !r.range.startsWith('bytes=0-')),
      'a partial file resumed with a range',
    );
  sameTree(join(dest, 'iter_0000020'), join(repoDir, 'resume', 'iter_0000020'));
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '20');
});

test('a destination that names another iteration as latest needs permission', async () => {
  resetFaults();
  const dest = tempDir();
  writeFileSync(join(dest, 'latest_checkpointed_iteration.txt'), '20');
  const l = await listRun(REPO, 'main', conn());
  await assert.rejects(runDownload(planDownload(l, 'resume', 10, dest), conn()), /names iteration 20/);
  assert.ok(!existsSync(join(dest, 'iter_0000010')));
  await runDownload(planDownload(l, 'resume', 10, dest), { ...conn(), latestConflict: 'overwrite' });
  assert.equal(readFileSync(join(dest, 'latest_checkpointed_iteration.txt'), 'utf8'), '10');
});

test('listed paths that would land outside the destination are refused before anything is written', async () => {
  const dest = tempDir();
  const bad = shapeListing(
    'x/y',
    'main',
    'c0ffee',
    [
      { path: 'resume/iter_0000001/ok.bin', size: 1, oid: 'a' },
      { path: 'resume/iter_0000001/../../../evil.sh', size: 1, oid: 'b' },
    ],
    1,
  );
  const plan = planDownload(bad, 'resume', 1, dest);
  await assert.rejects(runDownload(plan, conn()), /refusing .*evil\.sh.*outside/);
  assert.deepEqual(readdirSync(dest), []);
  const abs = { ...plan, items: [{ path: 'logs/x', target: '/etc/passwd', size: 1, oid: 'c' }] };
  await assert.rejects(runDownload(abs, conn()), /refusing "\/etc\/passwd"/);
});

test('one download per destination; a lock left by a dead process is taken over', async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  const plan = planDownload(l, 'hf', 20, dest);
  emu.faults.trickleBytesPerSecond = 40_000;
  const first = runDownload(plan, conn());
  const locked = (): boolean =>
    existsSync(join(dest, STATE_DIR)) && readdirSync(join(dest, STATE_DIR)).some((f) => /^lock\.\d+\.json$/.test(f));
  while (!locked()) await new Promise((r) => setTimeout(r, 10));
  try {
    await assert.rejects(runDownload(plan, conn()), /another download into this folder is running/);
  } finally {
    resetFaults();
    await first;
  }
  mkdirSync(join(dest, STATE_DIR), { recursive: true });
  writeFileSync(join(dest, STATE_DIR, 'lock.json'), JSON.stringify({ pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname() }));
  const res = await runDownload(plan, conn());
  assert.equal(res.skipped, plan.items.length);
});

test('the token reaches the endpoint, never the CDN origin; clear errors for private, bad token, revision, rate limit, offline', async () => {
  resetFaults();
  await assert.rejects(
    listRun('acme/private', 'main', conn()),
    (e: unknown) => e instanceof HubError && e.kind === 'not-found' && /private: sign in/.test(e.message),
  );
  await assert.rejects(
    listRun('acme/private', 'main', conn({ token: 'hf_wrongwrongwrong' })),
    (e: unknown) => e instanceof HubError && e.kind === 'bad-token',
  );
  await assert.rejects(listRun('acme/nope', 'main', conn()), (e: unknown) => e instanceof HubError && e.kind === 'not-found');
  await assert.rejects(
    listRun(REPO, 'v9', conn()),
    (e: unknown) => e instanceof HubError && e.kind === 'revision-not-found' && e.message.includes('"v9"'),
  );
  emu.faults.rateLimit = { count: 1, retryAfter: 42 };
  await assert.rejects(
    listRun(REPO, 'main', conn()),
    (e: unknown) => e instanceof HubError && e.kind === 'rate-limited' && e.retryAfterSeconds === 42 && /wait 42 s/.test(e.message),
  );
  const closedPort = await new Promise<number>((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => res(p));
    });
  });
  await assert.rejects(
    listRun(REPO, 'main', { endpoint: `http://127.0.0.1:${closedPort}` }),
    (e: unknown) => e instanceof HubError && e.kind === 'offline' && /ECONNREFUSED/.test(e.message),
  );

  const start = emu.requests.length;
  const dest = tempDir();
  const l = await listRun('acme/private', 'main', conn({ token: TOKEN }));
  await runDownload(planDownload(l, 'resume', 20, dest), conn({ token: TOKEN }));
  const seen = emu.requests.slice(start);
  assert.ok(seen.filter((r) => r.origin === 'hub').every((r) => r.authorization === `Bearer ${TOKEN}`));
  const cdn = seen.filter((r) => r.origin === 'cdn');
  assert.ok(cdn.length > 0);
  assert.ok(
    cdn.every((r) => r.authorization === undefined),
    'no Authorization on the CDN origin',
  );
});

/** Runs the CLI without blocking this process, which serves the emulator. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const p = spawn('node', [resolve('dist/cli.js'), ...args], { env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    p.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    p.on('close', (code) => res({ status: code ?? -1, stdout, stderr }));
  });
}

test('the CLI lists and downloads, never prints the token, and a second run after an interruption finishes the job', async () => {
  resetFaults();
  const env = { ...process.env, HF_TOKEN: TOKEN, HF_HOME: tempDir() };
  const ls = await runCli(['hub', 'ls', 'acme/private', '--endpoint', emu.url, '--json'], env);
  assert.equal(ls.status, 0, ls.stderr);
  const j = JSON.parse(ls.stdout) as { latest: number; resume: { iteration: number; latest: boolean }[] };
  assert.equal(j.latest, 20);
  assert.ok(!ls.stdout.includes(TOKEN) && !ls.stderr.includes(TOKEN));
  const bad = await runCli(['hub', 'ls', 'acme/private', '--endpoint', emu.url], { ...env, HF_TOKEN: 'hf_wrongtokenvalue99' });
  assert.equal(bad.status, 1);
  assert.ok(!bad.stderr.includes('hf_wrongtokenvalue99'), bad.stderr);
  assert.match(bad.stderr, /rejected the token \(from HF_TOKEN\)/);
  const dest = tempDir();
  // cuts in the checkpoint's files (the listing's read of the latest file is not what this is about)
  Object.assign(emu.faults, { dropAfterBytes: 20_000, dropCount: 3, pathContains: '.distcp' });
  const dl = await runCli(
    ['download', 'acme/private', '--kind', 'resume', '--iteration', 'latest', '--dest', dest, '--endpoint', emu.url],
    env,
  );
  resetFaults();
  assert.equal(dl.status, 0, dl.stderr);
  assert.ok(!dl.stdout.includes(TOKEN) && !dl.stderr.includes(TOKEN));
  sameTree(join(dest, 'iter_0000020'), join(repoDir, 'resume', 'iter_0000020'));
  const again = await runCli(['download', 'acme/private', '--kind', 'resume', '--dest', dest, '--endpoint', emu.url], env);
  assert.equal(again.status, 0);
  assert.match(again.stdout, /0 B fetched, 11 already complete/);
  const conflict = await runCli(
    ['download', 'acme/private', '--kind', 'resume', '--iteration', '10', '--dest', dest, '--endpoint', emu.url],
    env,
  );
  assert.equal(conflict.status, 1);
  assert.match(conflict.stderr, /--set-latest/);
  assert.equal((await runCli(['download', 'acme/private', '--kind', 'weights', '--dest', dest], env)).status, 2);
});

test('endpoint and token resolution order', async () => {
  assert.equal(resolveEndpoint('http://x.test/', {}), 'http://x.test');
  assert.equal(resolveEndpoint(undefined, { HF_ENDPOINT: 'https://mirror.test' }), 'https://mirror.test');
  assert.equal(resolveEndpoint('', {}), 'https://huggingface.co');
  assert.throws(() => resolveEndpoint('ftp://x', {}), /http or https/);
  const home = tempDir();
  writeFileSync(join(home, 'token'), 'hf_fromfile\n');
  assert.deepEqual(await resolveToken('hf_stored', { HF_TOKEN: 'hf_env', HF_HOME: home }), { token: 'hf_stored', source: 'stored' });
  assert.deepEqual(await resolveToken(undefined, { HF_TOKEN: 'hf_env', HF_HOME: home }), { token: 'hf_env', source: 'HF_TOKEN' });
  assert.deepEqual(await resolveToken(undefined, { HF_HOME: home }), {
    token: 'hf_fromfile',
    source: 'token file',
    file: join(home, 'token'),
  });
  assert.deepEqual(await resolveToken(undefined, { HF_HOME: join(home, 'none') }), { token: undefined, source: 'none' });
});

test(
  'a listing whose API call goes silent is dropped after the stall timeout, in one line naming the endpoint',
  { timeout: 20_000 },
  async () => {
    for (const afterHeaders of [false, true]) {
      emu.faults.apiSilent = { count: 1, afterHeaders };
      try {
        await assert.rejects(listRun(REPO, 'main', { endpoint: emu.url, stallTimeoutMs: 300 }), (e: Error) => {
          assert.equal(e.message, `the Hub (${new URL(emu.url).host}) sent nothing for 0.3 s; check the network`);
          return true;
        });
        assert.equal(emu.faults.apiSilent.count, 0);
      } finally {
        resetFaults();
      }
    }
  },
);

test(
  'rlrb download --stall-timeout watches the listing too: a silent API ends it in one line after that timeout',
  { timeout: 30_000 },
  async () => {
    emu.faults.apiSilent = { count: 1, afterHeaders: false };
    try {
      const dest = tempDir();
      const started = Date.now();
      const r = await new Promise<{ code: number | null; err: string }>((res) => {
        const p = spawn(
          'node',
          [resolve('dist/cli.js'), 'download', REPO, '--kind', 'logs', '--dest', dest, '--endpoint', emu.url, '--stall-timeout', '1'],
          {
            env: { ...process.env, HF_TOKEN: '', HF_HOME: tempDir() },
          },
        );
        let err = '';
        p.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
        p.on('close', (code) => res({ code, err }));
      });
      assert.notEqual(r.code, 0);
      assert.match(
        r.err,
        new RegExp(`the Hub \\(${new URL(emu.url).host.replace(/[.:]/g, '\\$&')}\\) sent nothing for 1\\.0 s; check the network`),
      );
      assert.ok(Date.now() - started < 20_000, 'well before the default 30 s');
    } finally {
      resetFaults();
    }
  },
);
