/**
 * The MCP server against a hostile workspace, in-process: links inside a run folder that lead out
 * of the roots (at open and after), a FIFO or a device in a log's place, huge arguments, Hub refs
 * not followed, a `__proto__` argument, a report too long for its bound, and the run cache's bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/cli/mcp/server';
import { connectServer } from '../../src/cli/mcp/connect';
import { RunCache, RunOpener } from '../../src/cli/mcp/opener';
import type { ServerConfig } from '../../src/cli/mcp/opener';
import { redactUrls, safeLine, safeJson } from '../../src/cli/output/safeText';
import { boundedJson } from '../../src/cli/mcp/limits';
import { serveHttp } from '../../src/cli/mcp/http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HAND_LOG } from '../fixtures';
import { jsonl, tempDir } from '../helpers';

const SECRET = 'BEGIN PRIVATE KEY abcdef0123456789';

function writeRun(dir: string, text: string): void {
  mkdirSync(join(dir, 'logs'), { recursive: true });
  writeFileSync(join(dir, 'logs', 'ws_credit_log.jsonl'), text);
}

/** A root with runs whose logs, logs/ or eval/ are links out of it, and the outside they lead to. */
function hostileRoot(): { root: string; outside: string } {
  const root = realpathSync(tempDir('rlrb-mcp-trust-'));
  const outside = realpathSync(tempDir('rlrb-mcp-outside-'));
  writeFileSync(join(outside, 'key.pem'), `${SECRET}\n`);
  writeRun(join(outside, 'secret'), jsonl(HAND_LOG));
  mkdirSync(join(outside, 'evals'));
  writeFileSync(join(outside, 'evals', 'e.jsonl'), jsonl([{ iteration: 1, task_id: 't', reward: 1 }]));
  // the credit log a link to a key file
  mkdirSync(join(root, 'keylink', 'logs'), { recursive: true });
  symlinkSync(join(outside, 'key.pem'), join(root, 'keylink', 'logs', 'ws_credit_log.jsonl'));
  // logs/ a link to another run's logs
  mkdirSync(join(root, 'logslink'));
  symlinkSync(join(outside, 'secret', 'logs'), join(root, 'logslink', 'logs'));
  // eval/ a link out
  writeRun(join(root, 'evallink'), jsonl(HAND_LOG));
  symlinkSync(join(outside, 'evals'), join(root, 'evallink', 'eval'));
  // a link that stays inside the root is read
  writeRun(join(root, 'hand'), jsonl(HAND_LOG));
  mkdirSync(join(root, 'inside', 'logs'), { recursive: true });
  symlinkSync(join(root, 'hand', 'logs', 'ws_credit_log.jsonl'), join(root, 'inside', 'logs', 'ws_credit_log.jsonl'));
  return { root, outside };
}

async function client(config: ServerConfig): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await connectServer(createServer(config), a);
  const c = new Client({ name: 'trust', version: '1' });
  await c.connect(b);
  return c;
}

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (r: CallToolResult): string => {
  const first = r.content[0];
  assert.ok(first && first.type === 'text');
  return first.text;
};

test('links out of the roots inside a run folder are refused, the outside file unread; links within a root are read', async () => {
  const { root } = hostileRoot();
  const c = await client({ roots: [root], noCache: true });
  for (const [tool, args] of [
    ['run_report', { run: 'keylink' }],
    ['query_trajectories', { run: 'keylink', text: 'PRIVATE' }],
    ['run_report', { run: 'logslink' }],
    ['get_trajectory', { run: 'logslink', iteration: 0, group: 0, rollout: 0 }],
    ['evaluations', { run: 'evallink' }],
  ] as const) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
    assert.match(textOf(r), /outside the roots/);
    assert.ok(!textOf(r).includes('PRIVATE'), textOf(r));
  }
  const inside = await call(c, 'run_report', { run: 'inside' });
  assert.equal(inside.isError, undefined, textOf(inside));
  assert.equal((inside.structuredContent as { trajectories: number }).trajectories, 5);
  await c.close();
});

test('a log replaced by a link out of the roots after the run was opened is refused at the next read', async () => {
  const { root, outside } = hostileRoot();
  const c = await client({ roots: [root], noCache: true });
  const first = await call(c, 'query_trajectories', { run: 'hand' });
  assert.equal((first.structuredContent as { total: number }).total, 5);
  const log = join(root, 'hand', 'logs', 'ws_credit_log.jsonl');
  // the outside run has more records: read, they would show
  writeFileSync(join(outside, 'more.jsonl'), jsonl([...HAND_LOG, ...HAND_LOG.map((r) => ({ ...r, iteration: 7 }))]));
  renameSync(log, `${log}.old`);
  symlinkSync(join(outside, 'more.jsonl'), log);
  for (const [tool, args] of [
    ['query_trajectories', { run: 'hand' }],
    ['run_report', { run: 'hand' }],
  ] as const) {
    const r = await call(c, tool, args);
    assert.equal(r.isError, true, `${tool}: ${textOf(r)}`);
    assert.match(textOf(r), /outside the roots/);
  }
  await c.close();
});

test(
  'a FIFO put in place of an opened log is refused, not waited on; a /dev/zero link is refused naming it',
  { timeout: 20_000 },
  async () => {
    const { root } = hostileRoot();
    const c = await client({ roots: [root], noCache: true });
    assert.equal((await call(c, 'run_report', { run: 'hand' })).isError, undefined);
    const log = join(root, 'hand', 'logs', 'ws_credit_log.jsonl');
    renameSync(log, `${log}.old`);
    assert.equal(spawnSync('mkfifo', [log]).status, 0);
    const r = await call(c, 'run_report', { run: 'hand' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /is a FIFO, not a log file/);
    writeRun(join(root, 'zero'), jsonl(HAND_LOG));
    symlinkSync('/dev/zero', join(root, 'zero', 'logs', 'ws_metrics.jsonl'));
    const z = await call(c, 'run_report', { run: 'zero' });
    assert.equal(z.isError, true);
    assert.match(textOf(z), /ws_metrics\.jsonl is a character device, not a log file/);
    await c.close();
  },
);

test('redactUrls is linear on a long run of letters and still redacts credentials', { timeout: 20_000 }, () => {
  const long = 'a'.repeat(1_000_000);
  assert.equal(redactUrls(long), long);
  assert.equal(redactUrls(`${long}://u:p@h/x`), `${long}://***@h/x`);
  assert.equal(redactUrls('see https://user:pw@host/x and http://a@b'), 'see https://***@host/x and http://***@b');
});

test('a huge argument gives a tool error of bounded size, quickly', { timeout: 20_000 }, async () => {
  const { root } = hostileRoot();
  const c = await client({ roots: [root], noCache: true });
  const r = await call(c, 'run_report', { run: 'b'.repeat(2_000_000) });
  assert.equal(r.isError, true);
  assert.ok(textOf(r).length <= 2100, `${textOf(r).length} characters`);
  assert.match(textOf(r), /no such file or folder|outside/);
  await c.close();
});

test('hub: refs are confined to the followed repos (--repo)', async () => {
  const { root } = hostileRoot();
  const c = await client({ roots: [root], repos: ['me/run'], noCache: true, endpoint: 'http://127.0.0.1:9' });
  const r = await call(c, 'run_report', { run: 'hub:someone/private' });
  assert.equal(r.isError, true);
  assert.match(textOf(r), /hub:someone\/private is not a followed repo \(allowed: .*hub:me\/run/);
  const none = await client({ roots: [root], noCache: true, endpoint: 'http://127.0.0.1:9' });
  assert.match(textOf(await call(none, 'evaluations', { run: 'hub:me/run' })), /not a followed repo \(allowed: .*no --repo given/);
  await c.close();
  await none.close();
});

test('a __proto__ key in the arguments is refused, not dropped', async () => {
  const { root } = hostileRoot();
  const c = await client({ roots: [root], noCache: true });
  const args = JSON.parse('{"run":"hand","__proto__":{"beta":9}}') as Record<string, unknown>;
  const r = await call(c, 'run_report', args);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /__proto__/);
  const nested = JSON.parse('{"run":"hand","sort":["reward"],"tag":[],"x":{"__proto__":1}}') as Record<string, unknown>;
  assert.equal((await call(c, 'query_trajectories', nested)).isError, true);
  await c.close();
});

test('run_report past its bound says how to narrow it; from and to narrow it', async () => {
  const root = realpathSync(tempDir('rlrb-mcp-long-'));
  const rows: Record<string, unknown>[] = [];
  for (let it = 0; it < 3000; it++)
    rows.push({ iteration: it, group: 0, rollout: 0, reward: it % 2, A: 0.5, turns: [{ action: 'a', A_t: 0.5 }] });
  writeRun(join(root, 'long'), jsonl(rows));
  const c = await client({ roots: [root], noCache: true });
  const whole = await call(c, 'run_report', { run: 'long' });
  assert.equal(whole.isError, true);
  assert.match(textOf(whole), /give from and to/);
  const w = await call(c, 'run_report', { run: 'long', from: 100, to: 199 });
  assert.equal(w.isError, undefined, textOf(w));
  const s = w.structuredContent as { iterations: number; window: unknown; perIteration: { iteration: number }[] };
  assert.deepEqual(
    s.perIteration.map((p) => p.iteration),
    Array.from({ length: 100 }, (_, i) => 100 + i),
  );
  // the whole-run figures stay the whole run's
  assert.equal(s.iterations, 3000);
  assert.deepEqual(s.window, { from: 100, to: 199 });
  assert.match(textOf(await call(c, 'run_report', { run: 'long', from: 5, to: 1 })), /from 5 is after to 1/);
  await c.close();
});

test('the run cache is bounded: the least recently used run is dropped', async () => {
  const { root } = hostileRoot();
  const cache = new RunCache(3);
  const o = new RunOpener({ roots: [root], noCache: true }, cache);
  for (let i = 0; i < 10; i++) await o.run('hand', { beta: 0.1 + i / 100 });
  assert.equal(cache.size, 3);
  const kept = await o.run('hand', { beta: 0.19 });
  assert.equal(await o.run('hand', { beta: 0.19 }), kept);
  // a second opener over the same cache (an HTTP request after another) finds the run open
  const other = new RunOpener({ roots: [root], noCache: true }, cache);
  assert.equal(await other.run('hand', { beta: 0.19 }), kept);
  assert.equal(cache.size, 3);
});

test('over HTTP: no token or a wrong one is 401; with the token, requests share one bounded cache of runs', async (t) => {
  const { root } = hostileRoot();
  const token = 'a-token-of-the-right-length-0123';
  const { server, port, cache } = await serveHttp({ roots: [root], noCache: true }, { host: '127.0.0.1', port: 0 }, token);
  t.after(() => server.close());
  const url = `http://127.0.0.1:${port}/mcp`;
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const post = (headers: Record<string, string>): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(init),
    });
  for (const h of [
    {} as Record<string, string>,
    { authorization: 'Bearer wrong' },
    { authorization: `Basic ${token}` },
    { authorization: `Bearer ${token}x` },
  ]) {
    const r = await post(h);
    assert.equal(r.status, 401, JSON.stringify(h));
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
  }
  assert.equal((await post({ authorization: `Bearer ${token}` })).status, 200);
  for (let i = 0; i < 3; i++) {
    const c = new Client({ name: 'http', version: '1' });
    await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const r = await call(c, 'run_report', { run: 'hand' });
    assert.equal((r.structuredContent as { trajectories: number }).trajectories, 5);
    await c.close();
  }
  // three requests, one run opened
  assert.equal(cache.size, 1);
});

test('zero-width and other invisible characters are escaped for the terminal and in MCP text', () => {
  const s = 'task\u200b1 \u200c\u200d\u2060\ufeff\u00ad\u180e';
  assert.equal(safeLine(s), 'task\\u200b1 \\u200c\\u200d\\u2060\\ufeff\\xad\\u180e');
  assert.ok(!/[\u200b-\u200d\u2060\ufeff\u00ad\u180e]/.test(safeJson({ s })));
  const text = boundedJson({ s }, 1000, '');
  assert.ok(!/[\u200b-\u200d\u2060\ufeff\u00ad\u180e]/.test(text));
  assert.deepEqual(JSON.parse(text), { s });
});
