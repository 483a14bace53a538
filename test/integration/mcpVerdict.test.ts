/** The MCP comparison leads with the verdict in the words every view uses, then the JSON of `rlrb compare --json`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/cli/mcp/server';
import { connectServer } from '../../src/cli/mcp/connect';
import { jsonl, tempDir } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrbJson } from '../cliRun';
import { verdictWords } from '../../src/core/eval/verdictWords';
import type { EvaluationComparison } from '../../src/core/eval/evalFigures';

const FIX = resolve(__dirname, '../../../test/fixtures/evals');

test('compare_runs: the first text is the verdict (final inconclusive, pooled better: both said), then the JSON', async () => {
  const root = realpathSync(tempDir());
  cpSync(join(FIX, 'a'), join(root, 'a'), { recursive: true });
  cpSync(join(FIX, 'b'), join(root, 'b'), { recursive: true });
  writeFileSync(join(root, 'a', 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  writeFileSync(join(root, 'b', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  const [x, y] = InMemoryTransport.createLinkedPair();
  await connectServer(createServer({ roots: [root], noCache: true }), x);
  const c = new Client({ name: 'unit', version: '1' });
  await c.connect(y);
  const r = (await c.callTool({ name: 'compare_runs', arguments: { a: 'a', b: 'b' } })) as CallToolResult;
  await c.close();
  const expected = rlrbJson('compare', join(root, 'a'), join(root, 'b'));
  assert.deepEqual(r.structuredContent, expected);
  const [first, second] = r.content;
  assert.ok(first?.type === 'text' && second?.type === 'text');
  const words = verdictWords(expected['evaluation'] as EvaluationComparison);
  assert.equal(first.text, `Verdict: ${words.text}`);
  assert.match(first.text, /^Verdict: Inconclusive at iteration 40: .* The pooled figure says otherwise\. A better than B pooled over/);
  assert.deepEqual(JSON.parse(second.text), expected);
});
