/**
 * `rlrb` behind a proxy, as a user on a cluster's login node runs it: the built CLI with
 * HTTP_PROXY/HTTPS_PROXY/NO_PROXY set, a small logging CONNECT/forward proxy on 127.0.0.1,
 * the Hub emulator behind it. The proxy sees every connection and never the token; a
 * dead proxy is named in one line; NO_PROXY goes around it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import { noise, tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';

const REPO = 'acme/proxied';
const TOKEN = 'hf_ProxyTest_1234567890abcdef';
let emu: HubEmulator;
let repoDir: string;

interface Seen {
  method: string;
  target: string;
  headers: IncomingHttpHeaders;
}

/** A forward proxy that logs what it is asked: CONNECT tunnels and plain absolute-URL requests. */
async function startProxy(): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    const u = new URL(req.url ?? '');
    const up = request(u, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req, socket, head) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    const [host, port] = (req.url ?? '').split(':');
    const up = connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The built CLI with exactly these proxy variables (the machine's own are dropped). */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string; ms: number }> {
  const base: NodeJS.ProcessEnv = { ...process.env, HF_HOME: tempDir(), XDG_STATE_HOME: tempDir() };
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'HF_TOKEN']) {
    delete base[k];
    delete base[k.toLowerCase()];
  }
  const t0 = Date.now();
  const p = spawn(process.execPath, [resolve('dist/cli.js'), ...args], { env: { ...base, ...env } });
  let out = '';
  let err = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((r) => p.on('close', (code) => r({ code, out, err, ms: Date.now() - t0 })));
}

before(async () => {
  repoDir = tempDir('rlrb-proxy-repo-');
  const h = join(repoDir, 'hf', 'iter_0000002');
  mkdirSync(h, { recursive: true });
  writeFileSync(join(h, 'config.json'), '{"a":1}');
  writeFileSync(join(h, 'model.safetensors'), noise(300_000, 4));
  emu = await startHubEmulator({ repos: { [REPO]: repoDir }, requiredToken: TOKEN, validTokens: [TOKEN] });
});
after(async () => {
  await emu.close();
});

const download = (dest: string): string[] => ['download', REPO, '--kind', 'hf', '--iteration', '2', '--dest', dest, '--endpoint', emu.url];
const same = (dest: string): boolean =>
  readFileSync(join(dest, 'iter_0000002', 'model.safetensors')).equals(
    readFileSync(join(repoDir, 'hf', 'iter_0000002', 'model.safetensors')),
  );

test('HTTP_PROXY: every connection goes through the proxy as a CONNECT tunnel; the token never reaches the proxy or the CDN', async () => {
  const proxy = await startProxy();
  try {
    const from = emu.requests.length;
    const dest = tempDir();
    const r = await cli(download(dest), { HTTP_PROXY: proxy.url, HF_TOKEN: TOKEN });
    assert.equal(r.code, 0, r.err);
    assert.ok(same(dest));
    const hub = new URL(emu.url).host;
    const cdn = new URL(emu.cdnUrl).host;
    const targets = new Set(proxy.seen.map((s) => `${s.method} ${s.target}`));
    assert.ok(targets.has(`CONNECT ${hub}`), [...targets].join(', '));
    assert.ok(targets.has(`CONNECT ${cdn}`), [...targets].join(', '));
    for (const s of proxy.seen) {
      assert.equal(s.method, 'CONNECT', `${s.method} ${s.target}: requests are tunnelled`);
      assert.ok(!JSON.stringify(s.headers).includes(TOKEN), `the proxy saw the token in ${s.target}'s headers`);
    }
    const mine = emu.requests.slice(from);
    assert.ok(mine.some((q) => q.origin === 'cdn'));
    for (const q of mine.filter((x) => x.origin === 'cdn')) assert.equal(q.authorization, undefined, `the CDN got the token: ${q.url}`);
  } finally {
    await proxy.close();
  }
});

test('lowercase https_proxy and http_proxy are read too', async () => {
  const proxy = await startProxy();
  try {
    const r = await cli(['hub', 'ls', REPO, '--endpoint', emu.url, '--json'], { http_proxy: proxy.url, HF_TOKEN: TOKEN });
    assert.equal(r.code, 0, r.err);
    assert.ok(proxy.seen.length > 0, 'the proxy was not used');
  } finally {
    await proxy.close();
  }
});

test('NO_PROXY: the hosts it names are reached directly', async () => {
  const proxy = await startProxy();
  try {
    const dest = tempDir();
    const r = await cli(download(dest), {
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1,localhost',
      HF_TOKEN: TOKEN,
    });
    assert.equal(r.code, 0, r.err);
    assert.ok(same(dest));
    assert.deepEqual(proxy.seen, []);
  } finally {
    await proxy.close();
  }
});

test('a dead proxy: one line naming the proxy and where it was set, at once', async () => {
  const dead = await startProxy();
  await dead.close();
  const r = await cli(download(tempDir()), { HTTP_PROXY: dead.url, HF_TOKEN: TOKEN });
  assert.equal(r.code, 1, r.err);
  const lines = r.err.trim().split('\n');
  const last = lines[lines.length - 1] ?? '';
  assert.match(last, /^rlrb: cannot reach the proxy http:\/\/127\.0\.0\.1:\d+ \(from HTTP_PROXY\): ECONNREFUSED/);
  assert.ok(last.includes(dead.url), last);
  assert.ok(!r.err.includes(TOKEN));
  assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
});

test('a proxy given as host:port without a scheme is an http proxy; a socks proxy is refused in one line', async () => {
  const proxy = await startProxy();
  try {
    const r = await cli(['hub', 'ls', REPO, '--endpoint', emu.url], { HTTP_PROXY: proxy.url.replace('http://', ''), HF_TOKEN: TOKEN });
    assert.equal(r.code, 0, r.err);
    assert.ok(proxy.seen.length > 0);
    const s = await cli(['hub', 'ls', REPO, '--endpoint', emu.url], { HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    assert.equal(s.code, 2);
    assert.match(s.err.trim(), /^rlrb: the proxy socks5:\/\/127\.0\.0\.1:1080 from HTTPS_PROXY is socks5; only http and https proxies/);
  } finally {
    await proxy.close();
  }
});
