/**
 * The option table is the one description of each option: the settings (package.json), the CLI's
 * help and checks and the MCP tools' schemas say its meaning, default and range, and its default is the code's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createServer } from '../../src/cli/mcp/server';
import { connectServer } from '../../src/cli/mcp/connect';
import { BETA, CLICK_TOLERANCE, HORIZON, NUMBER_OPTIONS, TAU, THETA, describeOption, rangeWords } from '../../src/core/options/optionTable';
import { DEFAULT_BEHAVIOUR } from '../../src/core/behaviour/tags';
import { DEFAULT_CREDIT } from '../../src/core/credit/credit';
import { DEFAULT_MATCH } from '../../src/core/credit/actions';
import { readSettings } from '../../src/extension/settings';
import { rlrb } from '../cliRun';
import { tempDir } from '../helpers';

interface Setting {
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  description?: string;
  markdownDescription?: string;
}

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Setting> } };
};

test("the table's defaults are the code's", () => {
  assert.equal(HORIZON.default, DEFAULT_BEHAVIOUR.horizon);
  assert.equal(HORIZON.default, 15, 'section 7: the horizon of truncated/noDone is 15');
  assert.equal(THETA.default, DEFAULT_BEHAVIOUR.theta);
  assert.equal(BETA.default, DEFAULT_CREDIT.beta);
  assert.equal(TAU.default, DEFAULT_CREDIT.tau);
  assert.equal(CLICK_TOLERANCE.default, DEFAULT_MATCH.clickTolerance);
  assert.equal(rangeWords(HORIZON), 'a whole number from 1 to 65535');
  assert.equal(rangeWords(TAU), 'a number above 0');
  assert.equal(rangeWords(THETA), 'a number from 0 up');
});

test('package.json: each setting of the table has its default, range and description', () => {
  for (const o of NUMBER_OPTIONS) {
    const s = pkg.contributes.configuration.properties[`rlRunBrowser.${o.setting}`];
    assert.ok(s, o.setting);
    assert.equal(s.default, o.default, `${o.setting} default`);
    assert.equal(s.minimum, o.min, `${o.setting} minimum`);
    assert.equal(s.maximum, o.max, `${o.setting} maximum`);
    assert.equal(s.exclusiveMinimum, o.above, `${o.setting} exclusiveMinimum`);
    assert.equal(s.markdownDescription ?? s.description, describeOption(o), `${o.setting} description`);
  }
});

test("the settings read the table's defaults where none is set", () => {
  const s = readSettings({ get: () => undefined, inspect: () => undefined });
  assert.deepEqual(s.index.credit, { beta: BETA.default, tau: TAU.default });
  assert.deepEqual(s.index.behaviour, { horizon: HORIZON.default, theta: THETA.default });
  assert.equal(s.index.match.clickTolerance, CLICK_TOLERANCE.default);
});

test("the MCP tools' schemas describe each option as the table does, with its range", async () => {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await connectServer(createServer({ roots: [tempDir()], noCache: true }), a);
  const c = new Client({ name: 'unit', version: '1' });
  await c.connect(b);
  const { tools } = await c.listTools();
  await c.close();
  type Prop = { description?: string; minimum?: number; maximum?: number; exclusiveMinimum?: number };
  const props = (name: string): Record<string, Prop> => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, Prop>;
  const seen = [
    ['run_report', BETA],
    ['run_report', TAU],
    ['behaviour_tags', HORIZON],
    ['behaviour_tags', THETA],
  ] as const;
  for (const [tool, o] of seen) {
    const p = props(tool)[o.setting]!;
    assert.equal(p.description, describeOption(o), `${tool} ${o.setting}`);
    assert.equal(p.minimum, o.min, `${tool} ${o.setting} minimum`);
    assert.equal(p.maximum, o.max, `${tool} ${o.setting} maximum`);
    assert.equal(p.exclusiveMinimum, o.above, `${tool} ${o.setting} exclusiveMinimum`);
  }
  assert.match(props('behaviour_tags')['horizon']!.description!, /Default 15;/);
  assert.match(props('behaviour_tags')['theta']!.description!, /Default 0\.5;/);
});

test("the CLI's help lists each option with the table's words; a flag out of its range is refused", () => {
  const all = rlrb('--help');
  const tags = rlrb('tags', '--help');
  for (const out of [all.out, tags.out]) {
    for (const o of NUMBER_OPTIONS) {
      assert.ok(out.includes(`  --${o.flag} ${o.value}\n      ${describeOption(o)}\n`), `${o.flag} in\n${out}`);
    }
  }
  const bad = rlrb('tags', tempDir(), '--horizon', '0');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--horizon must be a whole number >= 1 and <= 65535/);
  assert.equal(rlrb('report', tempDir(), '--tau', '0').code, 2);
  assert.equal(rlrb('report', tempDir(), '--beta', '101').code, 2);
});
