/**
 * `rlrb mcp` spawned as a client spawns it (dist/cli.js over stdio) and driven by the SDK's own
 * stdio client: the tool list, each tool's answer equal to the CLI's `--json` (run in the same
 * test) or worked by hand, errors contained, the roots enforced, long strings cut, hostile log
 * text returned as data, nothing but JSON-RPC on stdout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, rlrb, rlrbJson } from '../cliRun';
import { tempDir } from '../helpers';
import { HOSTILE_ACTION, HUGE, mcpFixture } from '../mcpFixtures';

const fx = mcpFixture();
const hand = join(fx.root, 'hand');
const cache = tempDir();

async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--root', fx.root],
    env: { ...(process.env as Record<string, string>), XDG_CACHE_HOME: cache },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'rlrb-test', version: '1' });
  await client.connect(transport);
  return client;
}

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

const textOf = (r: CallToolResult): string => {
  const first = r.content[0];
  assert.ok(first && first.type === 'text');
  return first.text;
};

test('rlrb mcp over stdio: the tools, each answer equal to the CLI --json, errors contained', async (t) => {
  const c = await connect();
  t.after(() => c.close());

  await t.test('the exact tool list, each with a stated size limit and the untrusted-data warning', async () => {
    const { tools } = await c.listTools();
    assert.deepEqual(tools.map((x) => x.name).sort(), [
      'behaviour_tags',
      'compare_runs',
      'evaluations',
      'events_since',
      'get_trajectory',
      'list_runs',
      'query_trajectories',
      'run_report',
      'runs_table',
    ]);
    for (const tool of tools) {
      assert.match(tool.description ?? '', /at most \d+ characters of JSON/, tool.name);
      assert.match(tool.description ?? '', /untrusted model output/, tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      assert.ok(tool.outputSchema, tool.name);
    }
  });

  await t.test('run_report = rlrb report --json (default and with beta, tau)', async () => {
    const r = await call(c, 'run_report', { run: 'hand' });
    assert.equal(r.isError, undefined, textOf(r));
    assert.deepEqual(r.structuredContent, rlrbJson('report', hand));
    assert.deepEqual(JSON.parse(textOf(r)), r.structuredContent);
    const r2 = await call(c, 'run_report', { run: hand, beta: 0.2, tau: 5 });
    assert.deepEqual(r2.structuredContent, rlrbJson('report', hand, '--beta', '0.2', '--tau', '5'));
    assert.notDeepEqual(r2.structuredContent, r.structuredContent);
  });

  await t.test('compare_runs = rlrb compare --json, whole and in a window', async () => {
    const a = join(fx.root, 'runs', 'a');
    const b = join(fx.root, 'runs', 'b');
    const r = await call(c, 'compare_runs', { a: 'runs/a', b: 'runs/b' });
    assert.deepEqual(r.structuredContent, rlrbJson('compare', a, b));
    const w = await call(c, 'compare_runs', { a: 'runs/a', b: 'runs/b', from: 0, to: 1 });
    assert.deepEqual(w.structuredContent, rlrbJson('compare', a, b, '--from', '0', '--to', '1'));
    assert.equal((w.structuredContent as { iterations: number }).iterations, 2);
  });

  await t.test('behaviour_tags = rlrb tags --json', async () => {
    const r = await call(c, 'behaviour_tags', { run: 'hand' });
    assert.deepEqual(r.structuredContent, rlrbJson('tags', hand));
    const w = await call(c, 'behaviour_tags', { run: 'hand', from: 1, to: 1, horizon: 2 });
    assert.deepEqual(w.structuredContent, rlrbJson('tags', hand, '--from', '1', '--to', '1', '--horizon', '2'));
    assert.equal((w.structuredContent as { trajectories: number }).trajectories, 2);
  });

  await t.test('evaluations = rlrb evals --json, worked by hand in test/unit/evals.test.ts', async () => {
    const r = await call(c, 'evaluations', { run: 'evals' });
    assert.deepEqual(r.structuredContent, rlrbJson('evals', join(fx.root, 'evals')));
    const its = (r.structuredContent as { iterations: { iteration: number; tasks: number; samples: number; success: number }[] })
      .iterations;
    assert.deepEqual(
      its.map((i) => [i.iteration, i.tasks, i.samples, i.success]),
      [
        [10, 3, 6, 0.5],
        [20, 2, 4, 0.75],
        [40, 2, 2, 0.5],
      ],
    );
  });

  await t.test('events_since = rlrb watch --once --json on a run not watched before; its cursor gives only what is new', async () => {
    const r = await call(c, 'events_since', { run: 'hand' });
    assert.equal(r.isError, undefined, textOf(r));
    const s = r.structuredContent as { events: { type: string }[]; cursor: string };
    const cli = rlrb('watch', hand, '--once', '--json');
    assert.deepEqual(
      s.events,
      cli.out
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as unknown),
    );
    assert.deepEqual(s.events.map((e) => e.type).slice(0, 1), ['iteration']);
    const again = await call(c, 'events_since', { run: 'hand', cursor: s.cursor });
    assert.deepEqual((again.structuredContent as { events: unknown[] }).events, []);
    const bad = await call(c, 'events_since', { run: 'hand', cursor: 'nonsense' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /cursor is not one this tool gave/);
  });

  await t.test('get_trajectory = rlrb show --json for a record without long strings', async () => {
    const r = await call(c, 'get_trajectory', { run: 'hand', iteration: 1, group: 0, rollout: 1 });
    assert.deepEqual(r.structuredContent, rlrbJson('show', hand, '--iteration', '1', '--group', '0', '--rollout', '1'));
  });

  await t.test('query_trajectories: the browser filter, sort and pages, worked by hand', async () => {
    const all = await call(c, 'query_trajectories', { run: 'hand' });
    const s = all.structuredContent as { total: number; rows: Record<string, unknown>[]; next: string | null };
    assert.equal(s.total, 5);
    assert.equal(s.next, null);
    assert.deepEqual(s.rows[0], {
      iteration: 0,
      group: 0,
      rollout: 0,
      reward: 1,
      A: 1,
      labeled: true,
      turns: 3,
      // logged c over credited turns: (0.0625 + 1) / 2
      meanC: 0.53125,
      flags: ['argmax', 'masked', 'labeled', 'doneCandidate'],
      tags: [],
      line: 1,
    });
    const success = await call(c, 'query_trajectories', { run: 'hand', reward: 'success', sort: ['-iteration'] });
    const keys = (success.structuredContent as { rows: { iteration: number; rollout: number }[] }).rows.map((x) => [
      x.iteration,
      x.rollout,
    ]);
    assert.deepEqual(keys, [
      [1, 0],
      [0, 0],
    ]);
    const flips = await call(c, 'query_trajectories', { run: 'hand', flag: ['signFlip'] });
    assert.deepEqual(
      (flips.structuredContent as { rows: { iteration: number; rollout: number }[] }).rows.map((x) => [x.iteration, x.rollout]),
      [[1, 1]],
    );
    const p1 = (await call(c, 'query_trajectories', { run: 'hand', limit: 2 })).structuredContent as { rows: unknown[]; next: string };
    assert.equal(p1.rows.length, 2);
    assert.equal(p1.next, '2');
    const p3 = (await call(c, 'query_trajectories', { run: 'hand', limit: 2, cursor: '4' })).structuredContent as {
      rows: { rollout: number }[];
      next: string | null;
    };
    assert.deepEqual(
      p3.rows.map((x) => x.rollout),
      [1],
    );
    assert.equal(p3.next, null);
    const text = (await call(c, 'query_trajectories', { run: 'hand', text: 'FIRST TASK' })).structuredContent as { total: number };
    assert.equal(text.total, 1);
    const it = (await call(c, 'query_trajectories', { run: 'hand', iteration: '1..' })).structuredContent as { total: number };
    assert.equal(it.total, 2);
  });

  await t.test('list_runs: the runs under the root, not the symlink to a run outside it', async () => {
    const r = await call(c, 'list_runs', {});
    const s = r.structuredContent as { runs: { name: string; trajectories: number | null; iterations: number | null }[] };
    const byName = Object.fromEntries(s.runs.map((x) => [x.name, x]));
    assert.deepEqual(Object.keys(byName).sort(), ['a', 'b', 'evals', 'hand', 'hostile', 'warn']);
    assert.equal(byName['hand']!.trajectories, 5);
    assert.equal(byName['hand']!.iterations, 2);
  });

  await t.test('bad arguments: one-line tool errors, and the session goes on', async () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      ['run_report', { run: 'hand', tau: -1, nonsense: 1 }, /tau/],
      ['query_trajectories', { run: 'hand', limit: 500 }, /limit/],
      ['query_trajectories', { run: 'hand', iteration: 'soon' }, /iteration takes a whole number or from\.\.to/],
      ['query_trajectories', { run: 'hand', sort: ['vibes'] }, /sort key "vibes"/],
      ['query_trajectories', { run: 'hand', cursor: 'abc' }, /cursor/],
      ['get_trajectory', { run: 'hand', iteration: 9, group: 0, rollout: 0 }, /no trajectory with iteration 9/],
      ['compare_runs', { a: 'hand', b: 'hand', from: 3, to: 1 }, /from 3 is after to 1/],
      ['run_report', { run: 'nowhere' }, /no such file or folder/],
      ['evaluations', { run: 'hand' }, /no evaluation log/],
    ];
    for (const [name, args, message] of bad) {
      const r = await call(c, name, args);
      assert.equal(r.isError, true, name);
      assert.match(textOf(r), message);
      assert.doesNotMatch(textOf(r), /\n/);
    }
    await c.ping();
    assert.equal((await call(c, 'run_report', { run: 'hand' })).isError, undefined);
  });

  await t.test('a run outside the roots is refused naming the roots, symlinks resolved first', async () => {
    for (const run of [fx.outside, 'link', join(fx.root, '..')]) {
      const r = await call(c, 'run_report', { run });
      assert.equal(r.isError, true, run);
      assert.match(textOf(r), /outside the roots \(allowed: paths under /);
      assert.ok(textOf(r).includes(fx.root.split('/').pop()!), textOf(r));
    }
  });

  await t.test('a huge field is cut with a visible marker and its size; detail "full" lifts the cut to its bound', async () => {
    const r = await call(c, 'get_trajectory', { run: 'hostile', iteration: 0, group: 0, rollout: 1 });
    const action = (r.structuredContent as { turns: { action: string }[] }).turns[0]!.action;
    assert.equal(action, `${'x'.repeat(2000)}…[cut by rlrb mcp: ${HUGE - 2000} more characters of ${HUGE}]`);
    assert.ok(textOf(r).length < 200_000);
    const full = await call(c, 'get_trajectory', { run: 'hostile', iteration: 0, group: 0, rollout: 1, detail: 'full' });
    const long = (full.structuredContent as { turns: { action: string }[] }).turns[0]!.action;
    assert.ok(long.startsWith('x'.repeat(100_000)));
    assert.ok(long.endsWith(`${HUGE - 100_000} more characters of ${HUGE}]`));
  });

  await t.test('hostile log text comes back as data: the same string, escapes visible in the text', async () => {
    const r = await call(c, 'get_trajectory', { run: 'hostile', iteration: 0, group: 0, rollout: 0 });
    assert.equal(r.isError, undefined);
    const s = r.structuredContent as { instruction: string; turns: { action: string }[] };
    assert.equal(s.turns[0]!.action, HOSTILE_ACTION);
    assert.equal(s.instruction, HOSTILE_ACTION);
    const text = textOf(r);
    assert.ok(!text.includes('\u202e') && !text.includes('\u001b'), 'no raw bidi or ESC in the text');
    assert.ok(text.includes('\\u202e') && text.includes('\\u001b'));
    assert.deepEqual(JSON.parse(text), s);
  });
});

test('rlrb mcp writes nothing but JSON-RPC on stdout, even when a run warns', async () => {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', fx.root], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const send = (m: unknown): boolean => child.stdin.write(JSON.stringify(m) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_runs', arguments: {} } });
  send({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'get_trajectory', arguments: { run: 'hostile', iteration: 0, group: 0, rollout: 0 } },
  });
  send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'run_report', arguments: { run: '/' } } });
  send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'run_report', arguments: { run: 'warn' } } });
  // wait for the five answers, then close stdin: the server ends
  await new Promise<void>((done) => {
    const tick = setInterval(() => {
      if (out.split('\n').filter(Boolean).length >= 5) {
        clearInterval(tick);
        done();
      }
    }, 20);
  });
  child.stdin.end();
  const code = await new Promise<number | null>((done) => child.on('close', done));
  assert.equal(code, 0, err);
  assert.match(err, /warning: .*ws_metrics\.jsonl: cannot be read/);
  const lines = out.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 5, out.slice(0, 500));
  for (const l of lines) assert.equal((JSON.parse(l) as { jsonrpc: string }).jsonrpc, '2.0');
  const ids = lines.map((l) => (JSON.parse(l) as { id: number }).id).sort();
  assert.deepEqual(ids, [1, 2, 3, 4, 5]);
});

test('rlrb mcp: a client that goes away mid-answer ends the session quietly (EPIPE), no crash', async () => {
  const child = spawn(process.execPath, [CLI, 'mcp', '--root', fx.root], {
    env: { ...process.env, XDG_CACHE_HOME: cache },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const send = (m: unknown): boolean => child.stdin.write(JSON.stringify(m) + '\n');
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // the first answer read, then the client reads no more: large answers meet a closed pipe
  await new Promise<void>((ok) => child.stdout.once('data', () => ok()));
  child.stdout.destroy();
  for (let id = 2; id < 6; id++) {
    const args = { run: 'hostile', iteration: 0, group: 0, rollout: 1, detail: 'full' };
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_trajectory', arguments: args } });
  }
  const code = await new Promise<number | null>((done) => child.on('close', done));
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /EPIPE|Error|at /);
});
