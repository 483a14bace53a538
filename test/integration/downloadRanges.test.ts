/**
 * Ranged downloads against the Hub emulator: files cut into small ranges (64 KiB here),
 * fetched over the adaptive pool, written in place, verified; resumed from the manifest in
 * the state folder; a destination that ends with exactly the launcher's layout.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator, SeenRequest } from '../hubEmulator/server';
import { listRun } from '../../src/core/hub/model';
import type { RunListing } from '../../src/core/hub/model';
import { planDownload, runDownload, DownloadError, STATE_DIR } from '../../src/core/hub/download';
import type { DownloadOptions, DownloadProgress } from '../../src/core/hub/download';
import { HubError } from '../../src/core/hub/errors';

const REPO = 'acme/ranged';
const RANGE = 64 * 1024;
const BIG = 'resume/iter_0000001/__0_0.distcp';
let emu: HubEmulator;
let repoDir: string;

before(async () => {
  repoDir = tempDir('rlrb-ranged-repo-');
  const d = join(repoDir, 'resume', 'iter_0000001');
  mkdirSync(d, { recursive: true });
  // 10 ranges and a short one; 5 ranges; one range
  writeFileSync(join(d, '__0_0.distcp'), noise(10 * RANGE + 1234, 3));
  writeFileSync(join(d, '__0_1.distcp'), noise(5 * RANGE, 5));
  writeFileSync(join(d, 'common.pt'), noise(5000, 7));
  writeFileSync(join(repoDir, 'resume', 'latest_checkpointed_iteration.txt'), '1\n');
  // the CDN by address: these tests time new connections, and a name lookup queues behind file I/O in a busy process
  emu = await startHubEmulator({ repos: { [REPO]: repoDir }, cdnHost: '127.0.0.1' });
});
after(async () => {
  await emu.close();
});

const resetFaults = (): void => {
  for (const k of Object.keys(emu.faults)) delete (emu.faults as Record<string, unknown>)[k];
};
const listing = (): Promise<RunListing> => listRun(REPO, 'main', { endpoint: emu.url });
const opts = (stateDir: string, extra: Partial<DownloadOptions> = {}): DownloadOptions => ({
  endpoint: emu.url,
  stateDir,
  rangeBytes: RANGE,
  backoffMs: 10,
  ...extra,
});
const sameFile = (dest: string, path: string): boolean =>
  readFileSync(join(dest, path.replace(/^resume\//, ''))).equals(readFileSync(join(repoDir, path)));
const allSame = (dest: string): void => {
  for (const f of ['__0_0.distcp', '__0_1.distcp', 'common.pt']) assert.ok(sameFile(dest, `resume/iter_0000001/${f}`), f);
};
/**
 * File bodies of one path asked for since `from` (a log index; and, with `sinceMs`, that
 * time: a response of an earlier, cancelled run may end, and be logged, later).
 */
const bodies = (from: number, path: string, sinceMs = 0): SeenRequest[] =>
  emu.requests
    .slice(from)
    .filter(
      (r) => r.origin === 'cdn' && r.status < 300 && r.range !== 'bytes=0-0' && r.bytes > 0 && r.startMs >= sinceMs && served(r, path),
    );
/** How many bytes of [0, size) the responses `rs` carried, each byte counted once (a range from its header, else the whole file). */
function covered(rs: SeenRequest[], size: number): number {
  const spans = rs
    .map((r) => {
      const m = /^bytes=(\d+)-(\d*)$/.exec(r.range ?? '');
      const from = m ? Number(m[1]) : 0;
      return [from, Math.min(size, from + r.bytes)] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = 0;
  for (const [from, to] of spans) {
    if (to > Math.max(from, reach)) total += to - Math.max(from, reach);
    reach = Math.max(reach, to);
  }
  return total;
}
const served = (r: SeenRequest, path: string): boolean => {
  const f = emu.files(REPO).find((x) => x.path === path)!;
  return r.url.includes(f.xetHash!) || r.url.includes(f.lfs!);
};
/** The most file responses open at once among `rs` (from their start and end times). */
function overlap(rs: SeenRequest[]): number {
  const ev = rs.flatMap((r) => [
    [r.startMs, 1],
    [r.endMs, -1],
  ]);
  ev.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  let now = 0;
  let max = 0;
  for (const [, d] of ev) max = Math.max(max, (now += d!));
  return max;
}

test('a ranged download equals the files, is verified, and leaves exactly the launcher layout; the manifest is in the state folder', async () => {
  resetFaults();
  const dest = tempDir();
  const state = tempDir();
  const start = emu.requests.length;
  const res = await runDownload(planDownload(await listing(), 'resume', 1, dest), opts(state));
  assert.equal(res.files, 3);
  allSame(dest);
  const big = bodies(start, BIG);
  // one connection fills this link: the file's ranges are one request (a span), or a few
  // where the pool tried a second connection; each starts at a range's start, and no byte is asked twice
  const size = 10 * RANGE + 1234;
  assert.ok(big.length >= 1 && big.length < 11, `requests: ${big.map((r) => r.range).join(' ')}`);
  for (const r of big) assert.match(r.range ?? 'bytes=0-', /^bytes=(\d+)-/, r.range);
  assert.ok(
    big.every((r) => Number(/^bytes=(\d+)-/.exec(r.range ?? 'bytes=0-')![1]) % RANGE === 0),
    big.map((r) => r.range).join(' '),
  );
  assert.equal(covered(big, size), size);
  assert.equal(
    big.reduce((s, r) => s + r.bytes, 0),
    size,
    `each byte sent once: ${big.map((r) => `${r.range} ${r.bytes}`).join(', ')}`,
  );
  // the signed bridge URL is kept for the file's next requests: the Hub resolves it once or a few times
  const resolves = emu.requests.slice(start).filter((r) => r.origin === 'hub' && r.url.includes('__0_0.distcp') && r.range !== 'bytes=0-0');
  assert.ok(resolves.length <= big.length, `${resolves.length} resolves for ${big.length} requests`);
  assert.deepEqual(readdirSync(dest).sort(), ['iter_0000001', 'latest_checkpointed_iteration.txt']);
  assert.deepEqual(readdirSync(join(dest, 'iter_0000001')).sort(), ['__0_0.distcp', '__0_1.distcp', 'common.pt']);
  const folders = readdirSync(join(state, 'downloads'));
  assert.equal(folders.length, 1);
  const manifest = JSON.parse(readFileSync(join(state, 'downloads', folders[0]!, 'manifest.json'), 'utf8')) as {
    verified: Record<string, unknown>;
    partials: Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(manifest.verified).sort(), [
    'iter_0000001/__0_0.distcp',
    'iter_0000001/__0_1.distcp',
    'iter_0000001/common.pt',
  ]);
  assert.deepEqual(manifest.partials, {});
  // a second run finds them verified by the manifest and fetches nothing
  const again = await runDownload(planDownload(await listing(), 'resume', 1, dest), opts(state));
  assert.equal(again.bytesFetched, 0);
  assert.equal(again.skipped, 3);
  assert.deepEqual(readdirSync(dest).sort(), ['iter_0000001', 'latest_checkpointed_iteration.txt']);
});

test('a range whose connection drops part way is retried from the bytes it wrote; the file verifies', async () => {
  resetFaults();
  const dest = tempDir();
  Object.assign(emu.faults, { dropAfterBytes: 20_000, dropCount: 3, pathContains: '__0_0' });
  const start = emu.requests.length;
  const seen: string[] = [];
  try {
    await runDownload(
      planDownload(await listing(), 'resume', 1, dest),
      opts(tempDir(), { onProgress: (p) => p.event && seen.push(p.event) }),
    );
  } finally {
    resetFaults();
  }
  allSame(dest);
  assert.ok(
    seen.some((e) => /__0_0\.distcp.*retrying/.test(e)),
    seen.join('\n'),
  );
  // a retry asks for the rest of its range: from a byte that is not a range's start
  const resumed = bodies(start, BIG).filter((r) => Number(/^bytes=(\d+)-/.exec(r.range ?? '')?.[1]) % RANGE !== 0);
  assert.ok(
    resumed.length >= 1,
    bodies(start, BIG)
      .map((r) => r.range)
      .join(' '),
  );
});

test('a corrupted range is refused: fetched again once, and when it stays wrong nothing is where the file belongs', async () => {
  resetFaults();
  const dest = tempDir();
  emu.faults.corrupt = 1;
  emu.faults.pathContains = '__0_0';
  const seen: string[] = [];
  try {
    await runDownload(
      planDownload(await listing(), 'resume', 1, dest),
      opts(tempDir(), { onProgress: (p) => p.event && seen.push(p.event) }),
    );
  } finally {
    resetFaults();
  }
  allSame(dest);
  assert.ok(
    seen.some((e) => /__0_0\.distcp: checksum mismatch/.test(e)),
    seen.join('\n'),
  );
  const dest2 = tempDir();
  Object.assign(emu.faults, { corrupt: 1000, pathContains: '__0_0' });
  try {
    await assert.rejects(runDownload(planDownload(await listing(), 'resume', 1, dest2), opts(tempDir())), (e: unknown) => {
      assert.ok(e instanceof DownloadError);
      assert.match(e.message, /__0_0\.distcp: checksum mismatch twice/);
      return true;
    });
  } finally {
    resetFaults();
  }
  assert.ok(!existsSync(join(dest2, 'iter_0000001', '__0_0.distcp')), 'nothing where the file belongs');
  assert.ok(!existsSync(join(dest2, 'latest_checkpointed_iteration.txt')), 'latest not written');
});

test('interrupted, then resumed from the state folder: every finished range is kept, only the rest is served', async () => {
  resetFaults();
  const dest = tempDir();
  const state = tempDir();
  const plan = planDownload(await listing(), 'resume', 1, dest);
  const size = plan.items.find((i) => i.path === BIG)!.size;
  emu.faults.trickleBytesPerSecond = 1_000_000;
  emu.faults.pathContains = '__0_0';
  const ac = new AbortController();
  await assert.rejects(
    runDownload(plan, opts(state, { signal: ac.signal, onProgress: (p) => p.bytesDone > size / 2 && ac.abort() })),
    (e: unknown) => e instanceof HubError && e.kind === 'cancelled',
  );
  resetFaults();
  assert.ok(existsSync(join(dest, STATE_DIR)), 'the partials wait in the destination while incomplete');
  const folder = join(state, 'downloads', readdirSync(join(state, 'downloads'))[0]!);
  const rec = (JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as { partials: Record<string, { have: number[] }> })
    .partials['iter_0000001/__0_0.distcp']!;
  const kept = rec.have.reduce((s, h) => s + h, 0);
  assert.ok(
    rec.have.some((h) => h === RANGE),
    `a finished range: ${rec.have.join(',')}`,
  );
  assert.ok(kept > 0 && kept < size, `${kept} of ${size}`);
  const start = emu.requests.length;
  const t0 = performance.now();
  const res = await runDownload(plan, opts(state));
  const servedAgain = bodies(start, BIG, t0).reduce((s, r) => s + r.bytes, 0);
  assert.equal(servedAgain, size - kept, 'only the bytes not written are served again');
  assert.ok(res.bytesFetched < size * 2);
  allSame(dest);
  assert.deepEqual(readdirSync(dest).sort(), ['iter_0000001', 'latest_checkpointed_iteration.txt']);
});

test('ranges that finish ahead of the hashed prefix are hashed from memory; with no room to hold them, read back; both verified', async () => {
  resetFaults();
  // every range takes about 130 ms, four at once: the ones after the first finish while it is still coming
  Object.assign(emu.faults, { trickleBytesPerSecond: 500_000 });
  try {
    const o = { concurrency: 4, maxConnections: 4 };
    const held = tempDir();
    const a = await runDownload(planDownload(await listing(), 'resume', 1, held), opts(tempDir(), o));
    assert.equal(a.bytesReadBack, 0);
    allSame(held);
    const readBack = tempDir();
    const b = await runDownload(planDownload(await listing(), 'resume', 1, readBack), opts(tempDir(), { ...o, holdBytes: 0 }));
    assert.ok(b.bytesReadBack > 0, 'some ranges were read back');
    allSame(readBack);
  } finally {
    resetFaults();
  }
});

test('without its manifest a partial is not trusted: a fresh state folder fetches the file whole', async () => {
  resetFaults();
  const dest = tempDir();
  const plan = planDownload(await listing(), 'resume', 1, dest);
  const size = plan.items.find((i) => i.path === BIG)!.size;
  Object.assign(emu.faults, { trickleBytesPerSecond: 1_000_000, pathContains: '__0_0' });
  const ac = new AbortController();
  await assert.rejects(runDownload(plan, opts(tempDir(), { signal: ac.signal, onProgress: (p) => p.bytesDone > size / 2 && ac.abort() })));
  resetFaults();
  const start = emu.requests.length;
  const t0 = performance.now();
  await runDownload(plan, opts(tempDir()));
  // every byte asked for again, the first half too (a range retried after a stall under load is asked twice: covered, not summed)
  assert.equal(covered(bodies(start, BIG, t0), size), size);
  allSame(dest);
});

test('429 on ranges: the pool shrinks (fewer connections at once after it), and the download completes', async () => {
  resetFaults();
  const dest = tempDir();
  // every range takes about 130 ms: the pool is at its 4 connections when the 429s come
  Object.assign(emu.faults, { trickleBytesPerSecond: 500_000 });
  let at429 = 0;
  const seen: string[] = [];
  const onProgress = (p: DownloadProgress): void => {
    if (p.event) seen.push(p.event);
    if (at429 === 0 && p.bytesDone > 3 * RANGE) {
      at429 = performance.now();
      emu.faults.rangeRateLimit = { count: 4, retryAfter: 0 };
    }
  };
  const start = emu.requests.length;
  try {
    await runDownload(
      planDownload(await listing(), 'resume', 1, dest),
      opts(tempDir(), { concurrency: 4, maxConnections: 4, poolWindowMs: 400, onProgress }),
    );
  } finally {
    resetFaults();
  }
  allSame(dest);
  const log = emu.requests.slice(start).filter((r) => r.origin === 'cdn');
  const limited = log.filter((r) => r.status === 429);
  assert.ok(limited.length >= 1, 'the 429s were sent');
  const ok = log.filter((r) => r.status === 206 && r.bytes > 1);
  const before = ok.filter((r) => r.startMs < at429);
  const last429 = Math.max(...limited.map((r) => r.endMs));
  // the cooldown holds the shrunk pool for three windows (1.2 s)
  const after = ok.filter((r) => r.startMs >= last429 && r.startMs < last429 + 500);
  assert.ok(overlap(before) >= 3, `before: ${overlap(before)} at once`);
  assert.ok(after.length > 0);
  assert.ok(overlap(after) <= 2, `after: ${overlap(after)} at once`);
  assert.ok(
    seen.some((e) => /pushed back: 4 → 2 connections/.test(e)),
    seen.join('\n'),
  );
});

test('the pool grows while the rate grows, and never past its bound (the emulator counts the connections)', async () => {
  resetFaults();
  const dest = tempDir();
  // a CDN's cap per connection: more connections, more bytes
  emu.faults.connectionBytesPerSecond = 400_000;
  emu.inFlight.peak = 0;
  const start = emu.requests.length;
  let reported = 0;
  try {
    await runDownload(
      planDownload(await listing(), 'resume', 1, dest),
      opts(tempDir(), {
        concurrency: 1,
        maxConnections: 3,
        poolWindowMs: 100,
        onProgress: (p) => (reported = Math.max(reported, p.connections)),
      }),
    );
  } finally {
    resetFaults();
  }
  allSame(dest);
  assert.ok(emu.inFlight.peak > 1, `grew: ${emu.inFlight.peak}`);
  assert.ok(emu.inFlight.peak <= 3, `bound: ${emu.inFlight.peak}`);
  assert.ok(reported > 1 && reported <= 3, `progress: ${reported} connections`);
  // the big file's first request took its ranges while the pool had one connection; when the
  // pool grew, it ended at a range's end and the rest went to the other connections
  const big = bodies(start, BIG);
  const size = 10 * RANGE + 1234;
  assert.ok(overlap(big) > 1, `the big file on one connection at a time: ${big.map((r) => r.range).join(' ')}`);
  assert.equal(covered(big, size), size);
});

test('a signed bridge URL that expired before a request resumes the file is resolved again', { timeout: 60_000 }, async () => {
  resetFaults();
  const dest = tempDir();
  emu.settings.bridgeTtlSeconds = 1;
  // each request dropped after three ranges' bytes: the file takes four, the later ones after the URL expired
  Object.assign(emu.faults, { trickleBytesPerSecond: 250_000, pathContains: '__0_0', dropAfterBytes: 3 * RANGE, dropCount: 3 });
  const start = emu.requests.length;
  const seen: string[] = [];
  try {
    await runDownload(
      planDownload(await listing(), 'resume', 1, dest),
      opts(tempDir(), { concurrency: 1, maxConnections: 1, onProgress: (p) => p.event && seen.push(p.event) }),
    );
  } finally {
    resetFaults();
    emu.settings.bridgeTtlSeconds = 3600;
  }
  allSame(dest);
  const log = emu.requests.slice(start);
  assert.ok(log.some((r) => r.origin === 'cdn' && r.status === 403 && served(r, BIG)));
  assert.ok(
    seen.some((e) => /__0_0\.distcp: the signed download URL .* expired/.test(e)),
    seen.join('\n'),
  );
  const resolves = log.filter((r) => r.origin === 'hub' && r.url.includes('__0_0.distcp') && r.range !== 'bytes=0-0');
  assert.ok(resolves.length >= 2 && resolves.length < 11, `${resolves.length} resolves for 11 ranges`);
});
