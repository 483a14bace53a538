/** The MCP server in-process over the SDK's in-memory transport, and its pieces (roots, cuts, limits, listen address, errors). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/cli/mcp/server';
import { connectServer, oneLineErrors } from '../../src/cli/mcp/connect';
import { checkRun, isUnder } from '../../src/cli/mcp/roots';
import { boundedJson, cutString, cutStrings } from '../../src/cli/mcp/limits';
import { parseListen, rebindingProblem } from '../../src/cli/mcp/http';
import { filterOf } from '../../src/cli/mcp/answers';
import { Flag } from '../../src/shared/shapes';
import { UsageError } from '../../src/cli/args';
import { mcpFixture } from '../mcpFixtures';
import { rlrbJson } from '../cliRun';

const fx = mcpFixture();
const root = realpathSync(fx.root);

async function client(): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await connectServer(createServer({ roots: [root], noCache: true }), a);
  const c = new Client({ name: 'unit', version: '1' });
  await c.connect(b);
  return c;
}

const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

test('in memory: the report of the hand-worked log, and errors that leave the session usable', async () => {
  const c = await client();
  const r = await call(c, 'run_report', { run: 'hand' });
  const s = r.structuredContent as { trajectories: number; iterations: number; labeledTurns: number };
  // HAND_LOG: 5 trajectories over iterations 0 and 1; labeled turns 3 + 2 + 2 + 2
  assert.equal(s.trajectories, 5);
  assert.equal(s.iterations, 2);
  assert.equal(s.labeledTurns, 9);
  const bad = await call(c, 'get_trajectory', { run: 'hand', iteration: -1, group: 0, rollout: 0 });
  assert.equal(bad.isError, true);
  const first = bad.content[0];
  assert.ok(first?.type === 'text' && !first.text.includes('\n'));
  const unknown = await call(c, 'no_such_tool', {});
  assert.equal(unknown.isError, true);
  await c.ping();
  const q = await call(c, 'query_trajectories', { run: 'hand', labeled: true, sort: ['-A'], limit: 1 });
  const page = q.structuredContent as { total: number; rows: { A: number }[]; next: string };
  assert.deepEqual([page.total, page.rows[0]!.A, page.next], [4, 1, '1']);
  await c.close();
});

test('roots: a path under a root (relative to it or absolute) passes; outside, via .. or a symlink, is refused', () => {
  assert.equal(checkRun('hand', [root]), join(root, 'hand'));
  assert.equal(checkRun(join(root, 'hand', 'logs', 'ws_credit_log.jsonl'), [root]), join(root, 'hand', 'logs', 'ws_credit_log.jsonl'));
  assert.equal(checkRun('hub:me/run@main', [root], ['me/run']), 'hub:me/run@main');
  assert.throws(() => checkRun('hub:me/run@main', [root]), /hub:me\/run is not a followed repo/);
  assert.throws(() => checkRun('link', [root]), /outside the roots \(allowed: paths under /);
  assert.throws(() => checkRun('../', [root]), /outside the roots/);
  assert.throws(() => checkRun(fx.outside, [root]), /outside the roots/);
  assert.ok(isUnder('/a/b', '/a') && isUnder('/a', '/a') && !isUnder('/ab', '/a') && !isUnder('/a/../b', '/a/x'));
});

test('cuts: a long string ends in a marker with the size cut; nested strings too; a result over its limit is an error', () => {
  assert.equal(cutString('abcdef', 4), 'abcd…[cut by rlrb mcp: 2 more characters of 6]');
  assert.equal(cutString('abcd', 4), 'abcd');
  const r = cutStrings({ a: ['xxxxx', 'y'], b: { c: 'zzzzzz' }, n: 5 }, 3);
  assert.equal(r.cut, 2);
  assert.deepEqual(r.value, {
    a: ['xxx…[cut by rlrb mcp: 2 more characters of 5]', 'y'],
    b: { c: 'zzz…[cut by rlrb mcp: 3 more characters of 6]' },
    n: 5,
  });
  assert.throws(
    () => boundedJson({ s: 'x'.repeat(50) }, 20, 'narrow it'),
    /the result is 58 characters, over this tool's limit of 20; narrow it/,
  );
  assert.equal(boundedJson({ s: '\u202e\u0085' }, 100, ''), '{"s":"\\u202e\\u0085"}');
});

test('listen address: loopback only', () => {
  assert.deepEqual(parseListen('127.0.0.1:8765'), { host: '127.0.0.1', port: 8765 });
  assert.deepEqual(parseListen('[::1]:0'), { host: '::1', port: 0 });
  assert.deepEqual(parseListen('localhost:1'), { host: 'localhost', port: 1 });
  for (const v of ['0.0.0.0:1', '[::]:1', '10.0.0.1:80', 'host:1', '127.0.0.1', '127.0.0.1:70000'])
    assert.throws(() => parseListen(v), UsageError, v);
});

test('DNS rebinding: Host must be this loopback server, Origin a loopback origin', () => {
  const req = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
  assert.equal(rebindingProblem(req({ host: '127.0.0.1:9' }), 9), undefined);
  assert.equal(rebindingProblem(req({ host: 'localhost:9', origin: 'http://127.0.0.1:3000' }), 9), undefined);
  assert.match(rebindingProblem(req({ host: 'evil.com:9' }), 9)!, /not this loopback server/);
  assert.match(rebindingProblem(req({ host: '127.0.0.1:10' }), 9)!, /not this loopback server/);
  assert.match(rebindingProblem(req({ host: '127.0.0.1:9', origin: 'https://evil.com' }), 9)!, /not a loopback origin/);
  assert.match(rebindingProblem(req({}), 9)!, /missing Host/);
});

test('the filter of query_trajectories is the browser filter', () => {
  assert.deepEqual(filterOf({ iteration: '3..7', flag: ['signFlip', 'cMismatch'], tag: ['repeat'], labeled: true, reward: 'failure' }), {
    iterationMin: 3,
    iterationMax: 7,
    reward: 'failure',
    labeledOnly: true,
    flags: Flag.SignFlip | Flag.CMismatch,
    tags: ['repeat'],
  });
  assert.deepEqual(filterOf({ iteration: 4 }), { iterationMin: 4, iterationMax: 4 });
  assert.throws(() => filterOf({ iteration: '7..3' }), /from is after to/);
});

test('tool errors are sent on one line; other messages untouched', () => {
  const err: JSONRPCMessage = { jsonrpc: '2.0', id: 1, result: { isError: true, content: [{ type: 'text', text: 'a\nb\u001b' }] } };
  assert.deepEqual(oneLineErrors(err), {
    jsonrpc: '2.0',
    id: 1,
    result: { isError: true, content: [{ type: 'text', text: 'a; b\\x1b' }] },
  });
  const fine: JSONRPCMessage = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'a\nb' }] } };
  assert.equal(oneLineErrors(fine), fine);
});

test('runs_table: the same table as rlrb runs --json, a run outside the roots refused', async () => {
  const c = await client();
  const r = await call(c, 'runs_table', { runs: ['runs/a', 'hand'], baseline: 'runs/b' });
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  const t = r.structuredContent as { baseline: string; runs: { run: string; trajectories: number; baseline: boolean }[] };
  assert.equal(t.baseline, join(root, 'runs', 'b'));
  assert.deepEqual(
    t.runs.map((x) => [x.run, x.baseline]),
    [
      [join(root, 'runs', 'b'), true],
      [join(root, 'runs', 'a'), false],
      [join(root, 'hand'), false],
    ],
  );
  assert.equal(t.runs[2]!.trajectories, 5);
  const cli = rlrbJson('runs', join(root, 'runs', 'a'), join(root, 'hand'), '--baseline', join(root, 'runs', 'b'));
  assert.deepEqual(r.structuredContent, cli);
  const out = await call(c, 'runs_table', { runs: [fx.outside] });
  assert.equal(out.isError, true);
  await c.close();
});
