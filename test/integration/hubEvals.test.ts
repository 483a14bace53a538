import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers';
import { startHubEmulator } from '../hubEmulator/server';
import type { HubEmulator } from '../hubEmulator/server';
import { writeDemo } from '../../src/core/demo/demo';
import { DEMO_EVAL_TASKS } from '../../src/core/demo/evals';
import { Run } from '../../src/core/run/run';
import { listRun } from '../../src/core/hub/model';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { hubEvalSummary } from '../../src/core/eval/hubEvals';

const REPO = 'acme/evals';
let emu: HubEmulator;
let runDir: string;
let hubDir: string;

before(async () => {
  runDir = tempDir('rlrb-hubevals-');
  const d = writeDemo(runDir, { trajectories: 45 * 240, baseline: false });
  hubDir = d.hubRepo!;
  emu = await startHubEmulator({ repos: { [REPO]: hubDir } });
});
after(async () => {
  await emu.close();
});

test("the demo's Hub repo holds logs/eval_log.jsonl; the Hub tree's summary of it equals the local run's rlrb evals", async () => {
  const conn = { endpoint: emu.url };
  const listing = await listRun(REPO, 'main', conn);
  assert.ok(
    listing.logs.some((f) => f.path === 'logs/eval_log.jsonl'),
    listing.logs.map((f) => f.path).join(', '),
  );
  const local = (await Run.open(runDir))!;
  await local.update();
  const want = local.evalSummary()!;
  const got = await hubEvalSummary(listing, conn, new RangeCache(tempDir('rlrb-ranges-')));
  assert.deepStrictEqual(got, want);
  const at39 = got.iterations.find((i) => i.iteration === 39)!;
  assert.equal(at39.tasks, DEMO_EVAL_TASKS);
});

test('a listing without an eval log reads nothing; bytes that do not match the tree entry are refused', async () => {
  const conn = { endpoint: emu.url };
  const listing = await listRun(REPO, 'main', conn);
  const none = { ...listing, logs: listing.logs.filter((f) => f.path !== 'logs/eval_log.jsonl') };
  const mark = emu.requests.length;
  assert.equal(await hubEvalSummary(none, conn, new RangeCache(tempDir('rlrb-ranges-'))), undefined);
  assert.equal(emu.requests.length, mark, 'no request');
  const f = listing.logs.find((x) => x.path === 'logs/eval_log.jsonl')!;
  const lying = { ...listing, logs: [{ ...f, oid: '0'.repeat(40), ...(f.lfsSha256 ? { lfsSha256: '0'.repeat(64) } : {}) }] };
  await assert.rejects(hubEvalSummary(lying, conn, new RangeCache(tempDir('rlrb-ranges-'))), /refused|sha/);
});
