import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { growingRun } from '../../src/core/demo/growingRun';
import type { GrowingRun } from '../../src/core/demo/growingRun';
import { tempDir } from '../helpers';
import { CLI, rlrb } from '../cliRun';
import { HubRun } from '../../src/core/hub/inPlace/hubRun';
import { IndexStore } from '../../src/core/log/indexStore';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { Follower } from '../../src/core/live/follower';
import { hubLiveSource } from '../../src/core/live/liveSource';
import { hubIntegrityProbe } from '../../src/core/live/integrityProbe';
import { emptyCursor } from '../../src/core/live/liveCursor';
import type { LiveEvent } from '../../src/core/live/liveEvent';

const REPO = 'acme/live';
let emu: HubEmulator;
let run: GrowingRun;

before(async () => {
  run = growingRun(tempDir('rlrb-live-run-'), 12);
  run.show({ credit: 10, metrics: 9, evals: [[3, 6]], checkpoints: [['resume', 3]] });
  // stored with LFS as a real run's credit log is (hundreds of MB): the Hub names its sha256, which a grown file's hash continues
  emu = await startHubEmulator({ repos: { [REPO]: run.dir }, lfsPaths: /ws_credit_log\.jsonl$/ });
});
after(async () => {
  await emu.close();
});

/** A fetch that counts the requests and the bytes of the bodies it receives. */
function counting(): { fetch: typeof fetch; requests: number; bytes: number } {
  const c = {
    requests: 0,
    bytes: 0,
    fetch: async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      c.requests++;
      const res = await fetch(input, init);
      const buf = Buffer.from(await res.arrayBuffer());
      c.bytes += buf.length;
      return new Response(res.status === 204 || res.status === 304 ? null : buf, { status: res.status, headers: res.headers });
    },
  };
  return c;
}

const kinds = (events: readonly LiveEvent[]): string[] => events.map((e) => `${e.type}${'iteration' in e ? e.iteration : ''}`);

test('following a Hub run: one small request a poll with nothing new; one new iteration reads its tail, not the log again', async () => {
  const count = counting();
  const conn = { endpoint: emu.url, baseFetch: count.fetch };
  const hr = await HubRun.open(
    { repo: REPO, revision: 'main' },
    { conn, store: new IndexStore(tempDir()), cache: new RangeCache(tempDir()) },
  );
  const f = new Follower(hubLiveSource(hr, conn), emptyCursor());
  const first = await f.poll();
  assert.ok(first.changed);
  assert.deepEqual(
    kinds(first.events).filter((k) => k.startsWith('iteration')),
    Array.from({ length: 9 }, (_, i) => `iteration${i}`),
  );
  assert.ok(kinds(first.events).includes('checkpoint3') && kinds(first.events).includes('evaluation3'));

  const quiet = { requests: count.requests, bytes: count.bytes };
  const idle = await f.poll();
  const idleCost = { requests: count.requests - quiet.requests, bytes: count.bytes - quiet.bytes };
  assert.deepEqual(idle, { events: [], changed: false });
  assert.equal(idleCost.requests, 1, 'a poll with nothing new is one request');
  assert.ok(idleCost.bytes < 1024, `a poll with nothing new receives ${idleCost.bytes} bytes`);

  // one more iteration of the demo's size (240 trajectories) and its metrics row
  const tail = run.creditLines[10]!.join('\n').length + 1;
  run.show({ credit: 11, metrics: 10, evals: [[3, 6]], checkpoints: [['resume', 3]] });
  emu.rescan(REPO);
  const mark = { requests: count.requests, bytes: count.bytes };
  const seen = emu.requests.length;
  const grown = await f.poll();
  const grownCost = { requests: count.requests - mark.requests, bytes: count.bytes - mark.bytes };
  assert.ok(grown.changed);
  if (process.env['RLRB_LIVE_DEBUG'])
    for (const r of emu.requests.slice(seen)) console.log(r.origin, r.method, r.url.slice(0, 110), r.range, r.status, r.bytes);
  assert.deepEqual(kinds(grown.events), ['iteration9']);
  const creditSize = readFileSync(join(run.dir, 'logs', 'ws_credit_log.jsonl')).length;
  const metricsSize = readFileSync(join(run.dir, 'logs', 'ws_metrics.jsonl')).length;
  // the new tail, the 64 KB edges that prove the rest unchanged, the small metrics log, the listing: never the credit log again
  assert.ok(grownCost.bytes < tail + 2 * 65536 + metricsSize + 64 * 1024, `${grownCost.bytes} bytes for a ${tail}-byte tail`);
  assert.ok(grownCost.bytes < creditSize / 2);
  console.log(
    `live poll cost: nothing new ${idleCost.requests} request, ${idleCost.bytes} bytes; one new iteration (${tail}-byte tail of a ${creditSize}-byte log) ${grownCost.requests} requests, ${grownCost.bytes} bytes`,
  );
  assert.deepEqual((await f.poll()).events, []);
});

/** A node script that appends its standard input to a file. */
function hookScript(out: string): string {
  const p = join(tempDir(), 'hook.js');
  writeFileSync(
    p,
    `const fs = require('fs'); let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', () => fs.appendFileSync(${JSON.stringify(out)}, s));`,
  );
  return p;
}

const linesOf = (p: string): string[] =>
  existsSync(p)
    ? readFileSync(p, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
    : [];

async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

test('rlrb watch --interval 1 --on-event follows a growing Hub run: every new iteration once, each event reaching the command', async () => {
  const g = growingRun(tempDir('rlrb-live-run-'), 6);
  g.show({ credit: 3, metrics: 1, evals: [[1, 2]] });
  const repo = 'acme/live-cli';
  const emu2 = await startHubEmulator({ repos: { [repo]: g.dir } });
  const out = join(tempDir(), 'events.jsonl');
  const hook = hookScript(out);
  const cache = tempDir();
  const child = spawn(
    'node',
    [CLI, 'watch', `hub:${repo}`, '--endpoint', emu2.url, '--json', '--interval', '1', '--on-event', `node ${hook}`],
    {
      env: { ...process.env, XDG_CACHE_HOME: cache },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const iterations = (): number[] =>
      linesOf(out)
        .map((l) => JSON.parse(l) as LiveEvent)
        .filter((e) => e.type === 'iteration')
        .map((e) => (e as { iteration: number }).iteration);
    await until('iterations 0 and 1', () => iterations().length === 2);
    g.show({
      credit: 4,
      metrics: 3,
      evals: [
        [1, 2],
        [2, 4],
      ],
      checkpoints: [['hf', 2]],
    });
    emu2.rescan(repo);
    await until('iteration 2', () => iterations().length === 3);
    await until('the checkpoint and the evaluation', () => linesOf(out).length >= 6);
    g.show({
      credit: 6,
      metrics: 6,
      evals: [
        [1, 2],
        [2, 4],
      ],
      checkpoints: [
        ['hf', 2],
        ['resume', 4],
      ],
    });
    emu2.rescan(repo);
    await until('iterations 3 to 5', () => iterations().length === 6);
    await until('the resume checkpoint', () => linesOf(out).some((l) => l.includes('"resume"')));
    await sleep(2500);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('close', r));
    await emu2.close();
  }
  const got = linesOf(out).map((l) => JSON.parse(l) as LiveEvent);
  assert.deepEqual(
    got.map((e) => `${e.type}${'iteration' in e ? e.iteration : ''}${'kind' in e ? e.kind : ''}`),
    [
      'iteration0',
      'iteration1',
      'evaluation1',
      'iteration2',
      'checkpoint2hf',
      'evaluation2',
      'iteration3',
      'iteration4',
      'checkpoint4resume',
      'iteration5',
    ],
    stderr,
  );
  // every event the watch printed reached the command, once, as the same JSON
  assert.deepEqual(
    stdout
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown),
    got,
  );
  assert.deepEqual(got[0], {
    type: 'iteration',
    iteration: 0,
    trajectories: 240,
    reward: got[0]!.type === 'iteration' ? got[0]!.reward : null,
  });
});

test('rlrb watch --once on a local run: what is new since the last watch, exit 1 on an alert', () => {
  const g = growingRun(tempDir('rlrb-live-run-'), 4);
  g.show({ credit: 2, metrics: 2 });
  const first = rlrb('watch', g.dir, '--once', '--json');
  assert.equal(first.code, 0, first.err);
  assert.deepEqual(
    first.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as LiveEvent).type),
    ['iteration', 'iteration'],
  );
  assert.deepEqual(rlrb('watch', g.dir, '--once', '--json'), { code: 0, out: '', err: '' });
  // iteration 2 comes with a logged figure its twin does not match
  g.show({ credit: 3, metrics: 3, override: { iteration: 2, field: 'ws/c_mean', value: 0.5 } });
  const third = rlrb('watch', g.dir, '--once', '--json');
  assert.equal(third.code, 1);
  const events = third.out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LiveEvent);
  assert.deepEqual(
    events.map((e) => e.type),
    ['iteration', 'alert'],
  );
  assert.deepEqual(
    { ...events[1], limit: 0 },
    { type: 'alert', iteration: 2, check: 'loggedDisagrees', field: 'ws/c_mean', value: 0.5, limit: 0 },
  );
  const text = rlrb('watch', g.dir, '--once');
  assert.equal(text.code, 0);
  assert.equal(text.out, '');
  // an evaluation log that appears while the run trains is taken in
  g.show({ credit: 3, metrics: 3, override: { iteration: 2, field: 'ws/c_mean', value: 0.5 }, evals: [[1, 4]] });
  const evals = rlrb('watch', g.dir, '--once', '--json');
  assert.equal(evals.code, 0, evals.err);
  // episodes 0..3 on tasks 0, 1, 2, 0 with rewards 0, 1, 0, 1: task successes 1/2, 1, 0
  assert.deepEqual(JSON.parse(evals.out), { type: 'evaluation', iteration: 1, tasks: 3, success: 0.5 });
});

test('rlrb demo --grow writes a run that trains: rlrb watch following it gets every iteration once, its checkpoints and evaluations', async () => {
  const dir = join(tempDir(), 'live');
  const demo = spawn('node', [CLI, 'demo', dir, '--grow', '1', '--from', '43']);
  let demoOut = '';
  demo.stdout.on('data', (d: Buffer) => (demoOut += d.toString()));
  const demoDone = new Promise<number | null>((r) => demo.once('close', r));
  await until('the first stage', () => demoOut.includes('iterations 0 to 42'));
  const watch = spawn('node', [CLI, 'watch', dir, '--json', '--interval', '1'], { env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  let out = '';
  watch.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const events = (): LiveEvent[] =>
    out
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as LiveEvent);
  try {
    assert.equal(await demoDone, 0);
    assert.match(demoOut, /iterations 0 to 44 · checkpoint resume and hf of 44\n$/);
    await until('the last evaluation', () => events().some((e) => e.type === 'evaluation' && e.iteration === 44));
    await sleep(1500);
  } finally {
    watch.kill('SIGTERM');
    await new Promise((r) => watch.once('close', r));
  }
  const got = events();
  const of = (type: string): string[] =>
    got.filter((e) => e.type === type).map((e) => `${'kind' in e ? e.kind : ''}${'iteration' in e ? e.iteration : ''}`);
  assert.deepEqual(
    of('iteration'),
    Array.from({ length: 45 }, (_, i) => String(i)),
  );
  assert.deepEqual(of('evaluation'), ['9', '19', '29', '39', '44']);
  const cps = of('checkpoint');
  assert.equal(new Set(cps).size, cps.length, 'each checkpoint once');
  assert.ok(cps.includes('resume44') && cps.includes('hf44') && cps.includes('resume4'), cps.join(' '));
});

test('the Hub checkpoint probe the editor uses asks for the connection at each probe and checks each iteration once per content', async () => {
  let asked = 0;
  const count = counting();
  const probe = hubIntegrityProbe(
    REPO,
    () => 'main',
    () => {
      asked++;
      return Promise.resolve({ endpoint: emu.url, baseFetch: count.fetch });
    },
  );
  assert.deepEqual(await probe(), [{ kind: 'resume', iteration: 3, complete: true }]);
  const first = count.requests;
  assert.deepEqual(await probe(), [{ kind: 'resume', iteration: 3, complete: true }]);
  assert.equal(asked, 2);
  // the second probe lists the repo again but reads no checkpoint part: the iteration's files did not change
  assert.ok(count.requests - first < first, `${count.requests - first} requests the second time, ${first} the first`);
});
