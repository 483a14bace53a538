import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keptOrCompute } from '../../src/core/cache/keptFigures';
import type { KeptKey } from '../../src/core/cache/keptFigures';
import { IndexStore } from '../../src/core/log/indexStore';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { DEFAULT_INDEX_OPTIONS } from '../../src/core/log/creditIndex';
import { tempDir } from '../helpers';
import { CLI } from '../cliRun';

const isString = (v: unknown): v is string => typeof v === 'string';

/** keptOrCompute over one file whose value is its text; counts the computations. */
function counter(file: string): {
  calls: number;
  get: (store: IndexStore, k?: Partial<KeptKey>, clean?: () => boolean) => Promise<string>;
} {
  const c = {
    calls: 0,
    get: (store: IndexStore, k: Partial<KeptKey> = {}, clean?: () => boolean): Promise<string> =>
      keptOrCompute(
        store,
        { kind: 'text', paths: [file], with: { beta: 1 }, ...k },
        isString,
        () => {
          c.calls++;
          return Promise.resolve(readFileSync(file, 'utf8'));
        },
        clean,
      ),
  };
  return c;
}

test('kept figures: used while the file is unchanged; another option, an append, a rewrite of the same size, another build or a missing file computes again', async () => {
  const dir = tempDir();
  const file = join(dir, 'log.jsonl');
  writeFileSync(file, '{"a":1}\n');
  const store = new IndexStore(join(dir, 'store'), { build: '1.0' });
  const c = counter(file);
  assert.equal(await c.get(store), '{"a":1}\n');
  assert.equal(await c.get(store), '{"a":1}\n');
  assert.equal(c.calls, 1, 'the second get is the kept value');
  assert.equal(await c.get(store, { with: { beta: 2 } }), '{"a":1}\n');
  assert.equal(c.calls, 2, 'other options are another entry');
  appendFileSync(file, '{"a":2}\n');
  assert.equal(await c.get(store), '{"a":1}\n{"a":2}\n', 'an appended line is never answered from the old entry');
  assert.equal(c.calls, 3);
  assert.equal(await c.get(store), '{"a":1}\n{"a":2}\n');
  assert.equal(c.calls, 3, 'kept again after the append');
  // the same size and mtime, other bytes at the end: the edge hash tells them apart
  const st = readFileSync(file);
  writeFileSync(file, '{"a":1}\n{"a":3}\n');
  const { mtime } = await import('node:fs').then((fs) => fs.statSync(join(dir, 'log.jsonl')));
  utimesSync(file, mtime, mtime);
  assert.equal(st.length, readFileSync(file).length);
  assert.equal(await c.get(store), '{"a":1}\n{"a":3}\n');
  assert.equal(c.calls, 4);
  assert.equal(await c.get(new IndexStore(join(dir, 'store'), { build: '1.1' })), '{"a":1}\n{"a":3}\n');
  assert.equal(c.calls, 5, 'another build does not use the entry');
  const absent = join(dir, 'metrics.jsonl');
  assert.equal(await c.get(store, { paths: [file, absent] }), '{"a":1}\n{"a":3}\n');
  writeFileSync(absent, 'x\n');
  assert.equal(await c.get(store, { paths: [file, absent] }), '{"a":1}\n{"a":3}\n');
  assert.equal(c.calls, 7, 'a file that appeared is a change');
});

test('kept figures: nothing is kept when a log failed to read, when the file changed while computing, or with a zero-size store; a bad entry is computed again', async () => {
  const dir = tempDir();
  const file = join(dir, 'log.jsonl');
  writeFileSync(file, 'one\n');
  const store = new IndexStore(join(dir, 'store'));
  const c = counter(file);
  await c.get(store, {}, () => false);
  await c.get(store, {}, () => false);
  assert.equal(c.calls, 2, 'not clean: not kept');
  let n = 0;
  const growing = (): Promise<string> => {
    n++;
    appendFileSync(file, 'more\n');
    return Promise.resolve('grew');
  };
  const k: KeptKey = { kind: 'grow', paths: [file], with: {} };
  await keptOrCompute(store, k, isString, growing);
  await keptOrCompute(store, k, isString, growing);
  assert.equal(n, 2, 'a file that changed while the figures were computed: not kept');
  const none = new IndexStore(join(dir, 'none'), { maxBytes: 0 });
  await c.get(none);
  await c.get(none);
  assert.equal(c.calls, 4);
  await c.get(store);
  assert.equal(c.calls, 5);
  for (const f of readdirSync(join(dir, 'store'))) {
    const text = readFileSync(join(dir, 'store', f), 'utf8');
    if (text.includes('\\"kind\\":\\"text\\"')) writeFileSync(join(dir, 'store', f), text.replace(/"value":"[^"]*"/, '"value":7'));
  }
  assert.equal(await c.get(store), readFileSync(file, 'utf8'));
  assert.equal(c.calls, 6, 'an entry whose value is not of the kind is not used');
});

function cli(cache: string | undefined, ...args: string[]): string {
  const env = { ...process.env, XDG_CACHE_HOME: cache ?? tempDir() };
  const r = spawnSync('node', [CLI, ...args, ...(cache === undefined ? ['--no-cache'] : [])], { encoding: 'utf8', env });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('rlrb report, compare, tags and evals: a second open prints byte for byte what a fresh computation prints; --tau and an appended line are never answered from the kept figures', () => {
  const dir = tempDir();
  const demo = writeDemo(join(dir, 'run'), { trajectories: 300, hubRepo: false });
  const run = join(dir, 'run');
  const base = join(run, 'baseline');
  const cache = tempDir();
  const commands: string[][] = [
    ['report', run, '--json'],
    ['report', run],
    ['compare', run, base, '--json', '--from', '2'],
    ['compare', run, base],
    ['tags', run, '--json'],
    ['tags', run, '--json', '--horizon', '3'],
    ['evals', run, '--json'],
    ['evals', run],
  ];
  const check = (only: (args: string[]) => boolean = () => true): void => {
    for (const args of commands.filter(only)) {
      const fresh = cli(undefined, ...args);
      assert.equal(cli(cache, ...args), fresh, `first: ${args.join(' ')}`);
      assert.equal(cli(cache, ...args), fresh, `second (kept): ${args.join(' ')}`);
    }
  };
  check();
  const tau = cli(cache, 'report', run, '--json', '--tau', '0.5');
  assert.notEqual(tau, cli(cache, 'report', run, '--json'));
  assert.equal(tau, cli(undefined, 'report', run, '--json', '--tau', '0.5'));
  // the kept entries are what a second open prints: changed by hand, the change is printed
  const kept = join(cache, 'rlrb');
  let marked = 0;
  for (const f of readdirSync(kept)) {
    const text = readFileSync(join(kept, f), 'latin1');
    if (!text.startsWith('{"key"') || !text.includes('\\"kind\\":\\"report\\"') || !text.includes('\\"json\\":true')) continue;
    const e = JSON.parse(text) as { value: { out: string } };
    if (!text.includes(`\\"tau\\":0.5`)) continue;
    e.value.out = '{"kept": true}\n';
    writeFileSync(join(kept, f), JSON.stringify(e));
    marked++;
  }
  assert.equal(marked, 1);
  assert.equal(cli(cache, 'report', run, '--json', '--tau', '0.5'), '{"kept": true}\n');
  // an appended trajectory (the first one again, with another id) changes every figure that counts it
  const first = readFileSync(demo.creditLog, 'utf8').split('\n')[0]!;
  const rec = JSON.parse(first) as Record<string, unknown>;
  appendFileSync(demo.creditLog, JSON.stringify({ ...rec, trajectory_id: 'appended-1', success: !rec['success'] }) + '\n');
  const before = tau;
  assert.notEqual(cli(cache, 'report', run, '--json', '--tau', '0.5'), '{"kept": true}\n');
  assert.notEqual(cli(cache, 'report', run, '--json', '--tau', '0.5'), before);
  check((args) => args.includes('--json'));
  appendFileSync(join(run, 'logs', 'eval_log.jsonl'), '\n');
  check((args) => args[0] === 'evals' || args[0] === 'report');
});

test('Run.report() with a store: a second Run of the unchanged logs gets the kept report, equal to a fresh one; an append or another tau computes it', async () => {
  const dir = tempDir();
  const demo = writeDemo(join(dir, 'run'), { trajectories: 200, hubRepo: false, baseline: false });
  const store = new IndexStore(join(dir, 'store'));
  const open = async (options = DEFAULT_INDEX_OPTIONS, engine: { store?: IndexStore } = { store }): Promise<Run> => {
    const r = (await Run.open(join(dir, 'run'), options, engine))!;
    await r.update();
    return r;
  };
  const first = await open();
  const fresh = first.report();
  assert.equal(first.reportSource, 'computed');
  await first.keeping;
  const second = await open();
  assert.deepStrictEqual(second.report(), fresh);
  assert.equal(second.reportSource, 'kept');
  const tau = await open({ ...DEFAULT_INDEX_OPTIONS, credit: { ...DEFAULT_INDEX_OPTIONS.credit, tau: 0.5 } });
  assert.equal(tau.reportSource, undefined);
  assert.notDeepStrictEqual(tau.report(), fresh);
  assert.equal(tau.reportSource, 'computed');
  const line = readFileSync(demo.creditLog, 'utf8').split('\n')[0]!;
  appendFileSync(demo.creditLog, JSON.stringify({ ...(JSON.parse(line) as object), reward: -1 }) + '\n');
  const grown = await open();
  const report = grown.report();
  assert.equal(grown.reportSource, 'computed');
  assert.deepStrictEqual(report, (await open(DEFAULT_INDEX_OPTIONS, {})).report());
  assert.notDeepStrictEqual(report, fresh);
});
