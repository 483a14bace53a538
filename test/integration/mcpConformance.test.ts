/**
 * `rlrb mcp --http` against the official conformance suite (@modelcontextprotocol/conformance):
 * the lifecycle scenarios (initialize, ping, tools list) and its DNS-rebinding check, plus our
 * own Host/Origin refusals and the loopback-only listen address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { CLI, rlrb } from '../cliRun';
import { tempDir } from '../helpers';
import { mcpFixture } from '../mcpFixtures';

const CONFORMANCE = resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

/**
 * The suite imports `fs.globSync` (Node 22); on an older Node a loader gives it one that throws
 * (the suite calls it only to gather result files, never in a server scenario).
 */
function nodeArgs(): string[] {
  if (typeof (fs as { globSync?: unknown }).globSync === 'function') return [];
  const dir = tempDir('rlrb-conformance-shim-');
  fs.writeFileSync(
    join(dir, 'fs.mjs'),
    "export * from 'node:fs';\nexport { default } from 'node:fs';\n" +
      "export function globSync() { throw new Error('globSync needs Node 22'); }\n",
  );
  fs.writeFileSync(
    join(dir, 'hooks.mjs'),
    'export async function resolve(s, c, next) {\n' +
      "  if (s === 'fs' && c.parentURL?.includes('/conformance/dist/'))\n" +
      "    return { url: new URL('./fs.mjs', import.meta.url).href, shortCircuit: true };\n" +
      '  return next(s, c);\n}\n',
  );
  fs.writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
  return ['--import', join(dir, 'register.mjs')];
}

async function startHttp(root: string, extra: string[] = []): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root, '--http', '127.0.0.1:0', ...extra], {
    env: { ...process.env, XDG_CACHE_HOME: tempDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const [port, token] = await new Promise<[number, string]>((done, fail) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /serving http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      const k = /bearer token \(send "Authorization: Bearer <token>"\): (\S+)\n/.exec(err);
      if (m && (k || extra.includes('--token-file'))) done([Number(m[1]), k?.[1] ?? '']);
    });
    child.on('exit', () => fail(new Error(`rlrb mcp --http ended: ${err}`)));
  });
  child.on('exit', () => assert.equal(out, '', 'nothing on stdout in --http mode'));
  return { child, port, token };
}

/**
 * A loopback proxy that adds the server's token to each request (the conformance client sends no
 * header of ours); a Host naming the proxy is passed on as the server's, any other Host as sent.
 */
async function tokenProxy(port: number, token: string): Promise<{ proxy: Server; url: string }> {
  let own = '';
  const proxy = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    if (headers.host === own) headers.host = `127.0.0.1:${port}`;
    const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const addr = proxy.address();
  own = `127.0.0.1:${addr !== null && typeof addr === 'object' ? addr.port : 0}`;
  return { proxy, url: `http://${own}/mcp` };
}

function runAsync(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((done) => child.on('close', (status) => done({ status, stdout, stderr })));
}

function post(port: number, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  return new Promise((done, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

test('rlrb mcp --http: the conformance lifecycle scenarios and the DNS-rebinding check pass', async (t) => {
  const { child, port, token } = await startHttp(mcpFixture().root);
  t.after(() => child.kill());
  const { proxy, url } = await tokenProxy(port, token);
  t.after(() => proxy.close());
  const cwd = tempDir();
  for (const scenario of SCENARIOS) {
    // not spawnSync: the proxy in this process must go on serving while the suite runs
    const r = await runAsync([...nodeArgs(), CONFORMANCE, 'server', '--url', url, '--scenario', scenario], cwd);
    const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(r.stdout);
    assert.equal(r.status, 0, `${scenario}: ${r.stdout.slice(-2000)}${r.stderr}`);
    assert.ok(passed && passed[1] === passed[2] && Number(passed[1]) > 0, `${scenario}: ${r.stdout.slice(-2000)}`);
  }
});

test('rlrb mcp --http refuses a foreign Host or Origin (403) and accepts loopback ones', async (t) => {
  const { child, port, token } = await startHttp(mcpFixture().root);
  t.after(() => child.kill());
  const authorization = `Bearer ${token}`;
  assert.equal(await post(port, { host: `127.0.0.1:${port}`, authorization }), 200);
  assert.equal(await post(port, { host: `localhost:${port}`, origin: `http://localhost:${port}`, authorization }), 200);
  assert.equal(await post(port, { host: `evil.example.com:${port}` }), 403);
  assert.equal(await post(port, { host: `127.0.0.1:${port}`, origin: 'http://evil.example.com' }), 403);
  // another port on loopback is another server
  assert.equal(await post(port, { host: `127.0.0.1:${port + 1}` }), 403);
});

test('rlrb mcp --http listens on loopback only, refused in one line', () => {
  for (const where of ['0.0.0.0:8765', '192.168.1.2:80', 'example.com:80']) {
    const r = rlrb('mcp', '--http', where);
    assert.equal(r.code, 2, where);
    assert.equal(r.err, `rlrb: --http ${where}: serves on a loopback address only (127.0.0.1, ::1 or localhost)\n`);
  }
  assert.equal(rlrb('mcp', '--http', 'nonsense').code, 2);
});

test('rlrb mcp --http needs its bearer token: printed at start, or read from --token-file; 401 without it', async (t) => {
  const { child, port, token } = await startHttp(mcpFixture().root);
  t.after(() => child.kill());
  assert.match(token, /^[\w-]{43}$/);
  assert.equal(await post(port, { host: `127.0.0.1:${port}` }), 401);
  assert.equal(await post(port, { host: `127.0.0.1:${port}`, authorization: 'Bearer nope' }), 401);
  assert.equal(await post(port, { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}` }), 200);
  const file = join(tempDir(), 'token');
  fs.writeFileSync(file, 'from-a-file-0123456789abcdef\n');
  const fromFile = await startHttp(mcpFixture().root, ['--token-file', file]);
  t.after(() => fromFile.child.kill());
  assert.equal(fromFile.token, '', 'a token given is not printed');
  assert.equal(await post(fromFile.port, { host: `127.0.0.1:${fromFile.port}`, authorization: `Bearer ${token}` }), 401);
  assert.equal(
    await post(fromFile.port, { host: `127.0.0.1:${fromFile.port}`, authorization: 'Bearer from-a-file-0123456789abcdef' }),
    200,
  );
});
