import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { IndexStore } from '../../src/core/log/indexStore';
import { MetricsIndex } from '../../src/core/log/metricsIndex';
import { HubRun } from '../../src/core/hub/inPlace/hubRun';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { EDGE_BYTES, KEEP_WHOLE_MAX } from '../../src/core/hub/inPlace/hubLogSource';

const REPO = 'acme/big-metrics';
let emu: HubEmulator;
let log: string;

before(async () => {
  const dir = tempDir('rlrb-metrics-stream-');
  mkdirSync(join(dir, 'logs'));
  log = join(dir, 'logs', 'ws_metrics.jsonl');
  // just past the size kept whole: ~17 MB, 8 metrics a row, a gap every 7th row
  const row = (i: number): string =>
    `{"iteration": ${i}, "ws/reward_mean": ${(i % 1000) / 1000}, "train/loss": ${1 / (i + 1)}, "a": ${i}, "b": ${i * 2}, "c": 0.5, "d": -1${i % 7 ? ', "e": 1' : ''}}\n`;
  const parts: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes <= KEEP_WHOLE_MAX + (1 << 20); i++) {
    const r = row(i);
    parts.push(r);
    bytes += r.length;
  }
  writeFileSync(log, parts.join(''));
  emu = await startHubEmulator({ repos: { [REPO]: dir } });
});
after(async () => {
  await emu.close();
});

test('in place: a metrics log larger than what is kept whole streams through (a chunk and its edges held, only the edges cached) and indexes as the local file', async () => {
  const cache = new RangeCache(tempDir('rlrb-ranges-'));
  const hr = await HubRun.open(
    { repo: REPO, revision: 'main' },
    { conn: { endpoint: emu.url }, store: new IndexStore(tempDir('rlrb-idx-')), cache },
  );
  const src = hr.metrics!;
  assert.ok(src.target.size > KEEP_WHOLE_MAX);
  const held = await cache.ranges(src.target.key);
  const heldBytes = held.reduce((n, r) => n + r.length, 0);
  assert.ok(heldBytes <= 4 * EDGE_BYTES + (1 << 20), `the pass kept ${heldBytes} bytes of ${src.target.size}`);
  assert.equal(await cache.get(src.target.key, 0, src.target.size), undefined, 'the whole log is not cached');
  // a 4 MB read chunk, what the network sent past it, the first 64 KB and the last 128 KB: never the log
  assert.ok(
    src.peakHeldBytes > 0 && src.peakHeldBytes <= 6 * 1024 * 1024,
    `the pass held ${src.peakHeldBytes} bytes of ${src.target.size} at once`,
  );
  const local = new MetricsIndex(log);
  await local.update();
  const a = hr.run.metrics!.getTable();
  const b = local.getTable();
  assert.deepStrictEqual([...a.iterations], [...b.iterations]);
  assert.deepStrictEqual([...a.names], [...b.names]);
  for (const n of b.names) assert.deepStrictEqual(a.values(n), b.values(n), n);
});
