/** The dataset written by several threads is the one a single thread writes, file for file and byte for byte. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { parquetReadObjects } from 'hyparquet';
import { join, relative, resolve } from 'node:path';
import { tempDir } from '../helpers';
import { CreditIndex } from '../../src/core/log/creditIndex';
import { writeDemo } from '../../src/core/demo/demo';
import { writeRunDataset } from '../../src/core/export/dataset/writeDataset';
import { cutShares } from '../../src/core/export/dataset/datasetThreads';

const WORKER = resolve('dist/indexWorker.js');

/** Every file under `dir`, by its path there, with its bytes. */
function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  walk(dir);
  return out;
}

test('a run written by two threads gives the same files as one thread', async () => {
  const root = tempDir();
  const { creditLog } = writeDemo(join(root, 'run'), { trajectories: 3000, hubRepo: false, baseline: false });
  const index = new CreditIndex(creditLog);
  await index.update();
  const one = join(root, 'one');
  const two = join(root, 'two');
  const seen: number[] = [];
  const a = await writeRunDataset(one, 'demo', index, { threads: { threads: 1 }, rowGroup: 500 });
  const b = await writeRunDataset(two, 'demo', index, {
    threads: { threads: 2, minBytes: 0, workerPath: WORKER },
    rowGroup: 500,
    onIteration: (_it, done) => seen.push(done),
  });
  assert.deepEqual(b, a);
  assert.ok(a.iterations > 10 && a.turns > a.trajectories, JSON.stringify(a));
  // every iteration reported once, whichever thread wrote it
  assert.deepEqual(
    seen,
    Array.from({ length: a.iterations }, (_, k) => k + 1),
  );
  const fa = files(one);
  const fb = files(two);
  assert.deepEqual([...fb.keys()], [...fa.keys()]);
  assert.equal(fa.size, 2 * a.iterations);
  for (const [p, bytes] of fa) assert.ok(bytes.equals(fb.get(p)!), `${p} differs`);
});

test('a failure in a worker fails the export and leaves the run as it was', async () => {
  const root = tempDir();
  const { creditLog } = writeDemo(join(root, 'run'), { trajectories: 600, hubRepo: false, baseline: false });
  const index = new CreditIndex(creditLog);
  await index.update();
  const ds = join(root, 'ds');
  await writeRunDataset(ds, 'demo', index, { threads: { threads: 1 } });
  const before = files(ds);
  await assert.rejects(
    writeRunDataset(ds, 'demo', index, { threads: { threads: 2, minBytes: 0, workerPath: join(root, 'no-such-worker.js') } }),
  );
  assert.deepEqual([...files(ds).keys()], [...before.keys()]);
});

test('shares are runs of consecutive iterations of about equal bytes, every iteration in one', () => {
  const by = new Map<number, number[]>();
  const length: number[] = [];
  for (let it = 0; it < 40; it++) {
    by.set(it, [2 * it, 2 * it + 1]);
    length.push(100, it === 7 ? 5000 : 100);
  }
  const shares = cutShares(by, length, 8);
  assert.ok(shares.length <= 10 && shares.length >= 6, String(shares.length));
  assert.deepEqual(
    shares.flat().map(([it]) => it),
    [...by.keys()],
  );
  // the large iteration is a share of its own
  const big = shares.find((s) => s.some(([it]) => it === 7))!;
  assert.deepEqual(
    big.map(([it]) => it),
    [7],
  );
});

test('trajectory ids: a key that repeats in an iteration gets its line, whatever the size of group and rollout', async () => {
  const root = tempDir();
  const log = join(root, 'log.jsonl');
  const rec = (group: number, rollout: number | null): string =>
    JSON.stringify({ iteration: 0, group, rollout, reward: 1, A: 0.5, turns: [{ action: 'done()' }] });
  // (2, 3) twice; a missing rollout twice; a group and a rollout too large for a numeric key; a number key's neighbours
  const lines = [
    rec(2, 3),
    rec(2, 3),
    rec(0, null),
    rec(0, null),
    rec(2 ** 40, 5),
    rec(2 ** 40, 5),
    rec(1, 2 ** 21),
    rec(1, 2 ** 21),
    rec(0, 0),
    rec(1, 0),
  ];
  writeFileSync(log, lines.join('\n') + '\n');
  const index = new CreditIndex(log);
  await index.update();
  const dir = join(root, 'ds');
  await writeRunDataset(dir, 'r', index, { threads: { threads: 1 } });
  const file = readFileSync(join(dir, 'trajectories', 'run=r', 'iteration=0', 'part-0.parquet'));
  const rows = (await parquetReadObjects({ file: new Uint8Array(file).buffer, columns: ['trajectory_id'] })) as { trajectory_id: string }[];
  assert.deepEqual(
    rows.map((r) => r.trajectory_id),
    [
      'r/0/2/3',
      'r/0/2/3#2',
      'r/0/0/-1',
      'r/0/0/-1#4',
      `r/0/${2 ** 40}/5`,
      `r/0/${2 ** 40}/5#6`,
      `r/0/1/${2 ** 21}`,
      `r/0/1/${2 ** 21}#8`,
      'r/0/0/0',
      'r/0/1/0',
    ],
  );
});
