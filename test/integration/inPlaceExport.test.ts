import type { TrajectoryFilter } from '../../src/shared/shapes';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { writeDemo } from '../../src/core/demo/demo';
import { Run } from '../../src/core/run/run';
import { IndexStore } from '../../src/core/log/indexStore';
import { HubRun } from '../../src/core/hub/inPlace/hubRun';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { exportRows } from '../../src/core/export/exportRows';
import type { ExportFormat } from '../../src/core/export/exportRows';
import { selectRows } from '../../src/core/export/select';
import type { ExportSink } from '../../src/core/export/sink';

const REPO = 'acme/export-in-place';
let emu: HubEmulator;
let repoDir: string;
let creditPath: string;

before(async () => {
  repoDir = tempDir('rlrb-export-repo-');
  creditPath = writeDemo(repoDir, { trajectories: 600, hubRepo: false, baseline: false }).creditLog;
  emu = await startHubEmulator({ repos: { [REPO]: repoDir } });
});
after(async () => {
  await emu.close();
});

async function exported(run: Run, filter: TrajectoryFilter, format: ExportFormat): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink: ExportSink = { write: async (c) => void chunks.push(Buffer.from(c)) };
  const idx = run.credit!;
  const origin = run.location.remote?.credit;
  await exportRows(idx, await selectRows(idx, filter), format, sink, { window: 8 * 1024, ...(origin ? { origin } : {}) });
  return Buffer.concat(chunks);
}

test('export of a run read in place: its records by range requests, JSONL byte for byte the lines on the Hub, CSV and Parquet as the local run, none kept in the range cache', async () => {
  const cache = new RangeCache(tempDir('rlrb-ranges-'));
  const hr = await HubRun.open(
    { repo: REPO, revision: 'main' },
    { conn: { endpoint: emu.url }, store: new IndexStore(tempDir('rlrb-idx-')), cache },
  );
  const held = await cache.usage();
  const local = (await Run.open(repoDir))!;
  await local.update();
  const lines = readFileSync(creditPath, 'utf8').split('\n');
  const filters: TrajectoryFilter[] = [{}, { iterationMin: 2, iterationMax: 3, reward: 'failure' }, { group: 1 }];
  for (const filter of filters) {
    const mark = emu.requests.length;
    const jsonl = await exported(hr.run, filter, 'jsonl');
    const want = (await selectRows(local.credit!, filter)).length;
    assert.ok(want > 0, JSON.stringify(filter));
    const got = jsonl.toString('utf8').split('\n').slice(0, -1);
    assert.equal(got.length, want);
    for (const l of got) assert.ok(lines.includes(l), 'each exported line is a line of the log');
    assert.ok(jsonl.equals(await exported(local, filter, 'jsonl')), `JSONL byte for byte (${JSON.stringify(filter)})`);
    const gets = emu.requests.slice(mark).filter((r) => r.method === 'GET' && (r.origin === 'cdn' || r.url.includes('/resolve/')));
    assert.ok(
      gets.every((r) => r.range !== undefined),
      'only range requests',
    );
    for (const format of ['csv', 'parquet'] as const)
      assert.ok(
        (await exported(hr.run, filter, format)).equals(await exported(local, filter, format)),
        `${format} (${JSON.stringify(filter)})`,
      );
  }
  assert.ok(hr.credit!.bytesFetched > 0, 'records came over the network');
  assert.deepStrictEqual(await cache.usage(), held, 'an export reads through the range cache: it keeps nothing there');
});
