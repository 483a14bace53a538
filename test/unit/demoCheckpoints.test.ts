import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeDemo, DEMO_BROKEN_ITERATION, DEMO_FOREIGN_ITERATION, DEMO_LATEST } from '../../src/core/demo/demo';
import { checkFolder } from '../../src/core/integrity/checkFolder';
import { tempDir } from '../helpers';

const du = (d: string): number =>
  readdirSync(d, { withFileTypes: true }).reduce((s, e) => s + (e.isDirectory() ? du(join(d, e.name)) : statSync(join(d, e.name)).size), 0);

test("the demo's Hub repo holds real torch_dist and safetensors checkpoints, one broken, one it cannot tell, and stays small", async () => {
  const dir = tempDir();
  const r = writeDemo(dir, { trajectories: 240, baseline: false });
  const c = await checkFolder(r.hubRepo!);
  assert.deepEqual(
    Object.entries(c.report.resume).map(([d, x]) => [d, x.complete]),
    [
      ['iter_0000009', false],
      ['iter_0000019', null],
      ['iter_0000029', true],
      ['iter_0000039', true],
    ],
  );
  assert.equal(DEMO_BROKEN_ITERATION, 9);
  assert.deepEqual(c.report.resume['iter_0000009']!.missing, ['__6_1.distcp']);
  assert.deepEqual(c.report.resume['iter_0000009']!.short, ['__3_0.distcp']);
  assert.equal(c.report.resume['iter_0000029']!.files, 16);
  assert.equal(c.report.resume['iter_0000029']!.tensors, 16);
  // saved by another framework's planner: torch would build its class on loading, so the reader cannot vouch for it
  assert.equal(DEMO_FOREIGN_ITERATION, 19);
  assert.match(c.report.resume['iter_0000019']!.reason!, /^\.metadata refers to lab_ckpt\.planner\.ShardLayout, /);
  // the same shard files as the others (torch wrote the same sizes for both), every one of its bytes there
  const shards = (d: string): unknown => c.files.resume[d]!.filter((f) => f.name !== '.metadata');
  assert.deepEqual(shards('iter_0000019'), shards('iter_0000029'));
  for (const h of Object.values(c.report.hf)) {
    assert.equal(h.complete, true);
    assert.equal(h.parameters, 96 * 32 * 2 + 32 * 32);
    assert.deepEqual(h.dtypes, { BF16: 7168 });
  }
  assert.deepEqual(c.report.latest, { names: DEMO_LATEST, namesComplete: true, lastComplete: 39 });
  const checkpoints = du(join(r.hubRepo!, 'resume')) + du(join(r.hubRepo!, 'hf'));
  assert.ok(checkpoints < 400_000, `${checkpoints} bytes of checkpoints`);
});
