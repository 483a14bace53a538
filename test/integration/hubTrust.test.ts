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
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { listRun, shapeListing } from '../../src/core/hub/model';
import { HubError } from '../../src/core/hub/errors';
import { planDownload, runDownload, STATE_DIR } from '../../src/core/hub/download';
import { errorMessage } from '../../src/core/errorMessage';

const REPO = 'acme/trust';
/** the shape of an OAuth token, which a pattern for hf_ plus letters does not catch */
const ECHO_TOKEN = 'hf_oauth_Echo_1234567890abcdef';
let emu: HubEmulator;
let repoDir: string;
let bigLatestDir: string;
let echoDir: string;

function makeRepo(dir: string): void {
  const r = join(dir, 'resume', 'iter_0000005');
  mkdirSync(r, { recursive: true });
  writeFileSync(join(r, '__0_0.distcp'), noise(60_000, 1));
  writeFileSync(join(r, '__0_1.distcp'), noise(50_000, 2));
  writeFileSync(join(r, 'common.pt'), noise(700, 3));
  writeFileSync(join(dir, 'resume', 'latest_checkpointed_iteration.txt'), '5');
  const h = join(dir, 'hf', 'iter_0000005');
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, 'config.json'), '{"a":1}');
  writeFileSync(join(h, 'model.safetensors'), noise(40_000, 4));
  // two files with the same bytes, and empty files (LFS and not)
  const twins = join(dir, 'resume', 'iter_0000006');
  mkdirSync(twins, { recursive: true });
  writeFileSync(join(twins, '__0_0.distcp'), noise(300_000, 9));
  writeFileSync(join(twins, '__0_1.distcp'), noise(300_000, 9));
  writeFileSync(join(twins, 'empty.pt'), '');
  writeFileSync(join(twins, 'empty.json'), '');
  mkdirSync(join(dir, 'logs'));
  writeFileSync(join(dir, 'logs', 'ws_metrics.jsonl'), '{"iteration":0}\n');
  // names a URL must encode
  writeFileSync(join(dir, 'logs', 'a#b.jsonl'), '{"hash":1}\n');
  writeFileSync(join(dir, 'logs', 'q?x=1.txt'), 'question\n');
  writeFileSync(join(dir, 'logs', 'back\\slash.txt'), 'backslash\n');
  writeFileSync(join(dir, 'logs', '100%.txt'), 'percent\n');
}

before(async () => {
  repoDir = tempDir('rlrb-trust-repo-');
  makeRepo(repoDir);
  bigLatestDir = tempDir('rlrb-trust-big-');
  mkdirSync(join(bigLatestDir, 'resume', 'iter_0000001'), { recursive: true });
  writeFileSync(join(bigLatestDir, 'resume', 'iter_0000001', 'common.pt'), 'x');
  writeFileSync(join(bigLatestDir, 'resume', 'latest_checkpointed_iteration.txt'), '1'.repeat(200_000));
  echoDir = tempDir('rlrb-trust-echo-');
  mkdirSync(join(echoDir, 'resume', 'iter_0000001'), { recursive: true });
  writeFileSync(join(echoDir, 'resume', 'iter_0000001', 'common.pt'), 'x');
  writeFileSync(join(echoDir, 'resume', 'latest_checkpointed_iteration.txt'), ECHO_TOKEN);
  emu = await startHubEmulator({
    repos: { [REPO]: repoDir, 'acme/big-latest': bigLatestDir, 'acme/echo': echoDir },
    pageSize: 4,
    validTokens: [ECHO_TOKEN],
    settings: { bridgeTtlSeconds: 5 },
  });
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

const events = (into: string[]) => (p: { event?: string }) => {
  if (p.event) into.push(p.event);
};

test(
  'a tree entry whose hash is not a hash is refused, naming it; nothing is written outside the destination',
  { timeout: 60_000 },
  async () => {
    resetFaults();
    const base = tempDir();
    const dest = join(base, 'a', 'b', 'c');
    emu.faults.treeOverride = {
      'resume/iter_0000005/__0_0.distcp': { lfs: { oid: '../../../../../escape', size: 60_000, pointerSize: 134 } },
      'resume/iter_0000005/common.pt': { oid: '../../../../../escape2' },
    };
    try {
      const l = await listRun(REPO, 'main', conn());
      assert.ok(
        l.warnings.some((w) => w.includes('resume/iter_0000005/__0_0.distcp') && /lfs\.oid/.test(w)),
        l.warnings.join('\n'),
      );
      assert.throws(() => planDownload(l, 'resume', 5, dest), /resume\/iter_0000005\/(__0_0\.distcp|common\.pt).*(lfs\.oid|oid)/);
    } finally {
      resetFaults();
    }
    // a plan made by hand is checked too
    const l = await listRun(REPO, 'main', conn());
    const plan = planDownload(l, 'resume', 5, dest);
    plan.items[0]!.lfsSha256 = '../../../../../escape';
    await assert.rejects(runDownload(plan, conn()), /refusing .*__0_0\.distcp.*64 lowercase hex/);
    assert.deepEqual(readdirSync(base), existsSync(join(base, 'a')) ? ['a'] : []);
  },
);

test('tree entries are type-checked: a string size or a numeric path is refused by name, the rest is listed', async () => {
  resetFaults();
  emu.faults.treeOverride = { 'hf/iter_0000005/config.json': { size: '7' }, 'logs/ws_metrics.jsonl': { path: 12345 } };
  try {
    const l = await listRun(REPO, 'main', conn());
    assert.equal(typeof l.totalBytes, 'number');
    assert.ok(
      l.warnings.some((w) => w.includes('hf/iter_0000005/config.json') && /size/.test(w)),
      l.warnings.join('\n'),
    );
    assert.ok(
      l.warnings.some((w) => /tree entry .*path/.test(w)),
      l.warnings.join('\n'),
    );
    assert.ok(l.resume.some((i) => i.iteration === 5));
    assert.throws(() => planDownload(l, 'hf', 5, tempDir()), /config\.json/);
  } finally {
    resetFaults();
  }
});

test('files with identical bytes each get their own partial (concurrency 4), and empty files download', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  emu.faults.trickleBytesPerSecond = 1_000_000;
  try {
    await runDownload(planDownload(l, 'resume', 6, dest), { ...conn(), concurrency: 4, latestConflict: 'overwrite' });
  } finally {
    resetFaults();
  }
  for (const f of ['__0_0.distcp', '__0_1.distcp', 'empty.pt', 'empty.json'])
    assert.ok(sameFile(join(dest, 'iter_0000006', f), join(repoDir, 'resume', 'iter_0000006', f)), f);
});

test('the latest file and tree pages are read with a size limit', { timeout: 60_000 }, async () => {
  resetFaults();
  const l = await listRun('acme/big-latest', 'main', conn());
  assert.equal(l.latest, null);
  assert.ok(
    l.warnings.some((w) => /latest_checkpointed_iteration\.txt.*(64 bytes|too big|over)/.test(w)),
    l.warnings.join('\n'),
  );
  emu.faults.treePadBytes = 20 << 20;
  try {
    await assert.rejects(listRun(REPO, 'main', conn()), (e: unknown) => e instanceof HubError && /tree.*over|limit/.test(e.message));
  } finally {
    resetFaults();
  }
});

test('a Link: rel="next" that loops, or never ends, stops the listing with a message', { timeout: 60_000 }, async () => {
  resetFaults();
  emu.faults.treeLinkLoop = true;
  try {
    await assert.rejects(listRun(REPO, 'main', conn()), (e: unknown) => e instanceof HubError && /already sent/.test(e.message));
  } finally {
    resetFaults();
  }
  emu.faults.treeEndless = true;
  try {
    await assert.rejects(listRun(REPO, 'main', conn()), (e: unknown) => e instanceof HubError && /pages/.test(e.message));
  } finally {
    resetFaults();
  }
});

/** Leaves partials of an iteration's files: a download whose links drop part way, with no retries. */
async function partialsOf(dest: string, kind: 'resume' | 'hf', n: number): Promise<void> {
  const l = await listRun(REPO, 'main', conn());
  Object.assign(emu.faults, { dropAfterBytes: 20_000, dropCount: 10 });
  try {
    await assert.rejects(runDownload(planDownload(l, kind, n, dest), { ...conn(), retries: 0, latestConflict: 'overwrite' }));
  } finally {
    resetFaults();
  }
  assert.ok(readdirSync(join(dest, STATE_DIR, 'partial', iterDir(n))).length > 0, 'partials left');
}
const iterDir = (n: number): string => `iter_${String(n).padStart(7, '0')}`;

test(
  'a 200 answer to a ranged request: the range is taken from the whole body; a 206 for another range is refused',
  { timeout: 60_000 },
  async () => {
    resetFaults();
    for (const fault of ['ignoreRange', 'wrongContentRange'] as const) {
      const dest = tempDir();
      await partialsOf(dest, 'resume', 5);
      const seen: string[] = [];
      emu.faults[fault] = 1;
      try {
        const l = await listRun(REPO, 'main', conn());
        await runDownload(planDownload(l, 'resume', 5, dest), { ...conn(), backoffMs: 10, onProgress: events(seen) });
      } finally {
        resetFaults();
      }
      for (const f of ['__0_0.distcp', '__0_1.distcp', 'common.pt'])
        assert.ok(sameFile(join(dest, 'iter_0000005', f), join(repoDir, 'resume', 'iter_0000005', f)), `${fault}: ${f}`);
      assert.ok(!seen.some((e) => e.includes('checksum mismatch')), `${fault}: no wrong byte was kept: ${seen.join('\n')}`);
      if (fault === 'wrongContentRange')
        assert.ok(
          seen.some((e) => /Content-Range/.test(e)),
          seen.join('\n'),
        );
    }
  },
);

test('a token echoed back by the server never appears in a message', { timeout: 60_000 }, async () => {
  resetFaults();
  const c = { endpoint: emu.url, token: ECHO_TOKEN };
  const l = await listRun('acme/echo', 'main', c);
  assert.ok(!l.warnings.join('\n').includes(ECHO_TOKEN), l.warnings.join('\n'));
  assert.ok(!l.warnings.join('\n').includes('Echo_1234567890'), l.warnings.join('\n'));
  emu.faults.echoAuthorization = 100;
  try {
    await assert.rejects(runDownload(planDownload(l, 'resume', 1, tempDir()), { ...c, retries: 1, backoffMs: 1 }), (e: unknown) => {
      const m = errorMessage(e);
      assert.ok(!m.includes(ECHO_TOKEN) && !m.includes('Echo_1234567890'), m);
      return true;
    });
  } finally {
    resetFaults();
  }
});

test('a symbolic link already inside the destination is not followed out of it', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const outside = tempDir();
  const { symlinkSync } = await import('node:fs');
  symlinkSync(outside, join(dest, 'iter_0000005'));
  const l = await listRun(REPO, 'main', conn());
  await assert.rejects(runDownload(planDownload(l, 'hf', 5, dest), conn()), /iter_0000005.*symbolic link/);
  assert.deepEqual(readdirSync(outside), []);
  const dest2 = tempDir();
  mkdirSync(join(dest2, STATE_DIR));
  symlinkSync(outside, join(dest2, STATE_DIR, 'partial'));
  await assert.rejects(runDownload(planDownload(l, 'hf', 5, dest2), conn()), /partial.*symbolic link/);
  assert.deepEqual(readdirSync(outside), []);
});

test('iteration folders: past 2^53 refused, non-canonical zero padding kept apart (refused), both named', () => {
  const f = (path: string) => ({ path, size: 1, oid: 'a'.repeat(40) });
  const l = shapeListing(
    'x/y',
    'main',
    'c'.repeat(40),
    [
      f('resume/iter_0000019/a.pt'),
      f('resume/iter_00000000000000000019/b.pt'),
      f('resume/iter_99999999999999999999/c.pt'),
      f('resume/iter_0012345678/d.pt'),
      f('resume/iter_12345678/e.pt'),
    ],
    19,
  );
  assert.deepEqual(
    l.resume.map((i) => [i.iteration, i.files.map((x) => x.path.split('/').pop())]),
    [
      [19, ['a.pt']],
      [12345678, ['e.pt']],
    ],
  );
  for (const bad of ['iter_00000000000000000019', 'iter_99999999999999999999', 'iter_0012345678'])
    assert.ok(
      l.warnings.some((w) => w.includes(bad)),
      `${bad}: ${l.warnings.join('\n')}`,
    );
});

test('file names with #, ?, % and \\ download', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  await runDownload(planDownload(l, 'logs', undefined, dest), conn());
  for (const f of ['a#b.jsonl', 'q?x=1.txt', 'back\\slash.txt', '100%.txt', 'ws_metrics.jsonl'])
    assert.ok(sameFile(join(dest, 'logs', f), join(repoDir, 'logs', f)), f);
});

test('Xet-backed Hub: the probe gets the Xet headers, the tree lists lfs.oid and xetHash, the token never reaches the bridge', async () => {
  resetFaults();
  const f = emu.files(REPO).find((x) => x.path === 'hf/iter_0000005/model.safetensors')!;
  const probe = await fetch(`${emu.url}/${REPO}/resolve/main/${f.path}`, {
    headers: { Accept: 'application/vnd.xet-fileinfo+json, */*', Range: 'bytes=0-0' },
    redirect: 'manual',
  });
  await probe.body?.cancel();
  assert.equal(probe.status, 200);
  assert.equal(probe.headers.get('x-xet-hash'), f.xetHash);
  assert.equal(probe.headers.get('x-linked-size'), String(f.size));
  assert.match(probe.headers.get('link') ?? '', /rel="xet-auth".*rel="xet-reconstruction-info"/);
  const plain = await fetch(`${emu.url}/${REPO}/resolve/main/${f.path}`, { redirect: 'manual' });
  assert.equal(plain.status, 302);
  assert.match(plain.headers.get('location') ?? '', new RegExp(`^${emu.cdnUrl}/xet-bridge-us/`));
  const l = await listRun(REPO, 'main', conn());
  const listed = l.files.find((x) => x.path === f.path)!;
  assert.equal(listed.lfsSha256, f.lfs);
  assert.equal(listed.xetHash, f.xetHash);
  // the token goes to the Hub, never to the bridge
  const start = emu.requests.length;
  const dest = tempDir();
  const c = { endpoint: emu.url, token: ECHO_TOKEN };
  await runDownload(planDownload(await listRun(REPO, 'main', c), 'hf', 5, dest), c);
  const seen = emu.requests.slice(start);
  const bridge = seen.filter((r) => r.origin === 'cdn');
  assert.ok(bridge.length > 0 && bridge.every((r) => r.url.startsWith('/xet-bridge-us/')));
  assert.ok(
    bridge.every((r) => r.authorization === undefined),
    'no Authorization on the bridge',
  );
  assert.ok(seen.filter((r) => r.origin === 'hub').every((r) => r.authorization === `Bearer ${ECHO_TOKEN}`));
});

test('Xet-backed Hub: an expired bridge URL (403 AccessDenied) is resolved again', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  emu.faults.expiredRedirects = 2;
  const seen: string[] = [];
  const start = emu.requests.length;
  try {
    await runDownload(planDownload(l, 'hf', 5, dest), { ...conn(), backoffMs: 10, onProgress: events(seen) });
  } finally {
    resetFaults();
  }
  assert.ok(emu.requests.slice(start).some((r) => r.origin === 'cdn' && r.status === 403));
  assert.ok(
    seen.some((e) => /expired/.test(e)),
    seen.join('\n'),
  );
  assert.ok(sameFile(join(dest, 'iter_0000005', 'model.safetensors'), join(repoDir, 'hf', 'iter_0000005', 'model.safetensors')));
});

test('a stalled transfer is dropped after stallTimeoutMs and resumed from the bytes on disk', { timeout: 30_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  emu.faults.stall = { afterBytes: 20_000, count: 2 };
  const seen: string[] = [];
  const start = emu.requests.length;
  try {
    await runDownload(planDownload(l, 'resume', 5, dest), {
      ...conn(),
      backoffMs: 10,
      stallTimeoutMs: 300,
      onProgress: events(seen),
    });
  } finally {
    resetFaults();
  }
  assert.ok(
    seen.some((e) => /no byte for 0\.3 s/.test(e)),
    seen.join('\n'),
  );
  assert.ok(
    emu.requests.slice(start).some((r) => r.range !== undefined && /^bytes=[1-9]/.test(r.range)),
    'resumed with a range from the bytes on disk',
  );
  for (const f of ['__0_0.distcp', '__0_1.distcp', 'common.pt'])
    assert.ok(sameFile(join(dest, 'iter_0000005', f), join(repoDir, 'resume', 'iter_0000005', f)), f);
});

test('429 with RateLimit: "resolvers";r=0;t=N and no Retry-After waits t seconds', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  const l = await listRun(REPO, 'main', conn());
  emu.faults.rateLimit = { count: 1, reset: 1 };
  const seen: string[] = [];
  const t0 = Date.now();
  try {
    await runDownload(planDownload(l, 'hf', 5, dest), { ...conn(), concurrency: 1, backoffMs: 10, onProgress: events(seen) });
  } finally {
    resetFaults();
  }
  assert.ok(Date.now() - t0 >= 1000, 'waited as asked');
  assert.ok(
    seen.some((e) => /rate-limited.*wait 1 s/.test(e)),
    seen.join('\n'),
  );
});
