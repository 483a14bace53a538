/** The dataset of `rlrb export --dataset`, read by DuckDB with the queries of docs/dataset.md: the report's and the tags' figures by SQL alone. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { DuckDBConnection } from '@duckdb/node-api';
import { writeDemo } from '../../src/core/demo/demo';
import { TAG_NAMES } from '../../src/shared/shapes';
import { tempDir, jsonl } from '../helpers';
import { HAND_LOG } from '../fixtures';
import { rlrb, rlrbJson } from '../cliRun';

const root = tempDir();
const demo = join(root, 'sweep');
writeDemo(demo, { trajectories: 600, hubRepo: false, baseline: true });
const plain = join(demo, 'baseline');
const hand = join(root, 'hand');
mkdirSync(join(hand, 'logs'), { recursive: true });
writeFileSync(join(hand, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG) + 'not json\n');
const RUNS: Record<string, string> = { sweep: demo, baseline: plain, hand };
const ds = join(root, 'ds');

/** The named SQL blocks of docs/dataset.md. */
function recipe(): Map<string, string> {
  const text = readFileSync('docs/dataset.md', 'utf8');
  return new Map([...text.matchAll(/```sql\n-- name: (\w+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));
}

type Row = Record<string, unknown>;
const plainValue = (v: unknown): unknown => (typeof v === 'bigint' ? Number(v) : v);

async function query(c: DuckDBConnection, sql: string): Promise<Row[]> {
  const r = await c.runAndReadAll(sql);
  return r.getRowObjects().map((o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, plainValue(v)])));
}

function near(actual: unknown, expected: unknown, what: string): void {
  if (typeof expected === 'number' && typeof actual === 'number') {
    assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} != ${expected}`);
  } else assert.equal(actual ?? null, expected ?? null, what);
}

async function open(): Promise<DuckDBConnection> {
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  for (const stmt of recipe()
    .get('setup')!
    .replaceAll('DIR', ds)
    .split(/;\s*\n/))
    if (stmt.trim()) await c.run(stmt);
  return c;
}

test('export --dataset writes both tables, Hive-partitioned by run and iteration', () => {
  const r = rlrb('export', demo, plain, hand, '--dataset', ds);
  assert.equal(r.code, 0, r.err);
  for (const table of ['trajectories', 'turns']) {
    assert.deepEqual(readdirSync(join(ds, table)).sort(), ['run=baseline', 'run=hand', 'run=sweep']);
    assert.ok(readdirSync(join(ds, table, 'run=sweep')).every((d) => /^iteration=\d+$/.test(d)));
  }
  assert.ok(statSync(join(ds, 'turns', 'run=sweep', 'iteration=0', 'part-0.parquet')).size > 0);
});

test('DuckDB: the recipe gives rlrb report --json, figure for figure', async () => {
  const c = await open();
  const sql = recipe();
  const report = await query(c, sql.get('report')!);
  const gate = await query(c, sql.get('gate')!);
  const auroc = await query(c, sql.get('auroc')!);
  for (const [id, path] of Object.entries(RUNS)) {
    const cli = rlrbJson('report', path);
    const row = report.find((r) => r['run'] === id)!;
    for (const k of ['trajectories', 'iterations', 'labeledTurns', 'creditedTurns', 'signFlipRate', 'fallbackRate'])
      near(row[k], cli[k], `${id} ${k}`);
    for (const k of ['executedIsArgmaxRate', 'meanC', 'rmsBetaCOverRmsA', 'cMismatches', 'aTMismatches'])
      near(row[k], cli[k], `${id} ${k}`);
    const g = cli['gate'] as Row;
    const sg = gate.find((r) => r['run'] === id);
    if ((g['groups'] as number) === 0) assert.equal(sg, undefined, `${id}: no gate group`);
    else
      for (const k of [
        'groups',
        'meanDiff',
        't',
        'p',
        'iterations',
        'iterationsPositive',
        'signTestP',
        'firstHalfMeanDiff',
        'secondHalfMeanDiff',
      ])
        near(sg![k], g[k], `${id} gate ${k}`);
    near(auroc.find((r) => r['run'] === id)?.['auroc'] ?? null, cli['auroc'], `${id} auroc`);
  }
  // the demo has a gate, so the comparison above is not vacuous
  assert.ok(gate.some((r) => r['run'] === 'sweep' && (r['groups'] as number) > 10));
});

test('DuckDB: the recipe gives rlrb tags --json, tag for tag', async () => {
  const c = await open();
  const sql = recipe();
  const tags = await query(c, sql.get('tags')!);
  const collapsed = await query(c, sql.get('collapsed')!);
  for (const [id, path] of Object.entries(RUNS)) {
    const cli = rlrbJson('tags', path) as { trajectories: number; tags: Record<string, Row | null>; collapsedTurnRate: number | null };
    for (const name of TAG_NAMES) {
      const row = tags.find((r) => r['run'] === id && r['tag'] === name)!;
      near(row['trajectories'], cli.trajectories, `${id} trajectories`);
      const f = cli.tags[name] ?? null;
      assert.equal(row['known'], f !== null, `${id} ${name} known`);
      if (f === null) continue;
      for (const k of ['count', 'rate', 'successTagged', 'successUntagged']) near(row[k], f[k], `${id} ${name} ${k}`);
    }
    near(collapsed.find((r) => r['run'] === id)!['collapsedTurnRate'], cli.collapsedTurnRate, `${id} collapsedTurnRate`);
  }
});

test('the turns table agrees with the trajectories table; ids are stable across exports', async () => {
  const c = await open();
  const [t] = await query(
    c,
    `SELECT (SELECT sum(sign_flips) FROM trajectories WHERE run = 'sweep') AS a, (SELECT count(*) FROM turns WHERE run = 'sweep' AND sign_flip) AS b,
            (SELECT sum(credited_turns) FROM trajectories WHERE run = 'sweep') AS c, (SELECT count(*) FROM turns WHERE run = 'sweep' AND credited) AS d,
            (SELECT sum(c_mismatches) FROM trajectories WHERE run = 'hand') AS e, (SELECT count(*) FROM turns WHERE run = 'hand' AND c_mismatch) AS f`,
  );
  assert.equal(t!['a'], t!['b']);
  assert.equal(t!['c'], t!['d']);
  assert.equal(t!['e'], t!['f']);
  assert.ok((t!['c'] as number) > 0);
  const ids = async (): Promise<string[]> =>
    (await query(c, `SELECT turn_id FROM turns WHERE run = 'sweep' ORDER BY turn_id`)).map((r) => r['turn_id'] as string);
  const before = await ids();
  const r = rlrb('export', demo, '--dataset', ds);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(await ids(), before);
  // the other runs' partitions are left as they were
  assert.deepEqual(readdirSync(join(ds, 'trajectories')).sort(), ['run=baseline', 'run=hand', 'run=sweep']);
  assert.equal(new Set(before).size, before.length);
});

test('bad usage of --dataset exits 2 with one line', () => {
  assert.equal(rlrb('export', '--dataset', ds).code, 2);
  assert.equal(rlrb('export', demo, '--dataset', ds, '--format', 'csv').code, 2);
  assert.equal(rlrb('export', demo, join(root, 'other', 'sweep'), '--dataset', ds).code, 2);
  assert.equal(rlrb('export', demo, '--dataset', ds, '--push', 'not a repo').code, 2);
});

test('export --dataset reads the credit log alone: a metrics log it cannot read is no matter to it', async () => {
  const run = join(root, 'utf16metrics');
  mkdirSync(join(run, 'logs'), { recursive: true });
  writeFileSync(join(run, 'logs', 'ws_credit_log.jsonl'), jsonl(HAND_LOG));
  writeFileSync(join(run, 'logs', 'ws_metrics.jsonl'), Buffer.from([0xff, 0xfe, 0x7b, 0, 0x7d, 0]));
  const out = join(root, 'ds-utf16');
  const r = rlrb('export', run, '--dataset', out);
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.err, /ws_metrics|warning/);
  const c = await (await DuckDBInstance.create(':memory:')).connect();
  const [t] = await query(c, `SELECT count(*) AS n FROM read_parquet('${out}/trajectories/*/*/*.parquet')`);
  assert.equal(t!['n'], HAND_LOG.length);
});
