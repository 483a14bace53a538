/**
 * `rlrb mcp --http` against the official conformance suite (@modelcontextprotocol/conformance):
 * the lifecycle scenarios (initialize, ping, tools list) and its DNS-rebinding check, plus our
 * own Host/Origin refusals and the loopback-only listen address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { request } from 'node:http';
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

async function startHttp(root: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', root, '--http', '127.0.0.1:0'], {
    env: { ...process.env, XDG_CACHE_HOME: tempDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const port = await new Promise<number>((done, fail) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /serving http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) done(Number(m[1]));
    });
    child.on('exit', () => fail(new Error(`rlrb mcp --http ended: ${err}`)));
  });
  child.on('exit', () => assert.equal(out, '', 'nothing on stdout in --http mode'));
  return { child, port };
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
  const { child, port } = await startHttp(mcpFixture().root);
  t.after(() => child.kill());
  const cwd = tempDir();
  for (const scenario of SCENARIOS) {
    const r = spawnSync(
      process.execPath,
      [...nodeArgs(), CONFORMANCE, 'server', '--url', `http://127.0.0.1:${port}/mcp`, '--scenario', scenario],
      { cwd, encoding: 'utf8', timeout: 60_000 },
    );
    const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(r.stdout);
    assert.equal(r.status, 0, `${scenario}: ${r.stdout.slice(-2000)}${r.stderr}`);
    assert.ok(passed && passed[1] === passed[2] && Number(passed[1]) > 0, `${scenario}: ${r.stdout.slice(-2000)}`);
  }
});

test('rlrb mcp --http refuses a foreign Host or Origin (403) and accepts loopback ones', async (t) => {
  const { child, port } = await startHttp(mcpFixture().root);
  t.after(() => child.kill());
  assert.equal(await post(port, { host: `127.0.0.1:${port}` }), 200);
  assert.equal(await post(port, { host: `localhost:${port}`, origin: `http://localhost:${port}` }), 200);
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
