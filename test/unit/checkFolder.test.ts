import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, copyFileSync, existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkFolder } from '../../src/core/integrity/checkFolder';
import { tempDir } from '../helpers';
import { CHECKPOINT_TREE, EXPLOIT_METADATA, comparable, reference } from '../checkpointFixtures';

test('a folder laid out like the repo: section 9 as torch and safetensors compute it', async () => {
  const r = await checkFolder(CHECKPOINT_TREE);
  assert.deepEqual(comparable(r.report), reference('tree'));
  assert.deepEqual(r.report.hf['iter_0000010']!.dtypes, { BF16: 3600 });
  assert.deepEqual(
    r.files.resume['iter_0000030']!.map((f) => f.name),
    ['.metadata', '__0_0.distcp', '__1_0.distcp', '__2_0.distcp', 'common.pt'],
  );
});

test('a resume download destination: iterations under resume, hf empty, latest from its top', async () => {
  const dst = tempDir('rlrb-check-');
  cpSync(join(CHECKPOINT_TREE, 'resume'), dst, { recursive: true });
  const r = await checkFolder(dst);
  assert.deepEqual(comparable(r.report), reference('destination'));
  assert.deepEqual(r.report.hf, {});
});

test('what a download can leave: a truncated hf shard, an exploit .metadata; latest naming a whole one', async () => {
  const dst = tempDir('rlrb-check-');
  cpSync(CHECKPOINT_TREE, dst, { recursive: true });
  truncateSync(join(dst, 'hf/iter_0000020/model.safetensors'), 7000);
  copyFileSync(EXPLOIT_METADATA, join(dst, 'resume/iter_0000020/.metadata'));
  writeFileSync(join(dst, 'resume/latest_checkpointed_iteration.txt'), '10\n');
  const r = await checkFolder(dst);
  assert.equal(r.report.hf['iter_0000020']!.complete, false);
  assert.equal(r.report.hf['iter_0000020']!.parameters, null);
  assert.equal(r.report.resume['iter_0000020']!.complete, null);
  assert.match(r.report.resume['iter_0000020']!.reason!, /posix\.system/);
  assert.deepEqual(r.report.latest, { names: 10, namesComplete: true, lastComplete: 10 });
  assert.ok(!existsSync('/tmp/rlrb-pwned'));
});
