/**
 * The bytes a download holds in memory ahead of its files' hashed prefixes are one budget for
 * all its files: two files each with a range finished ahead of the first hold no more than the
 * budget together, and the one left without room is hashed by reading its partial back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { FileJob, HoldBudget, SyncSlots } from '../../src/core/hub/download/fileJob';
import { Manifest } from '../../src/core/hub/download/manifest';
import type { DownloadItem } from '../../src/core/hub/download/types';
import { tempDir } from '../helpers';

const RANGE = 1 << 16;

/** A file of two ranges with its LFS digest, and its job. */
async function job(dir: string, name: string, manifest: Manifest, hold: HoldBudget): Promise<{ j: FileJob; bytes: Buffer }> {
  const bytes = Buffer.alloc(2 * RANGE, name);
  const it: DownloadItem = {
    path: name,
    target: name,
    size: bytes.length,
    oid: createHash('sha1').update(name).digest('hex'),
    lfsSha256: createHash('sha256').update(bytes).digest('hex'),
  };
  const j = new FileJob(it, join(dir, name), join(dir, `${name}.part`), manifest, RANGE, hold);
  await j.prepare();
  return { j, bytes };
}

/** The second range written first (held, or not), then the first: the file verified either way. */
async function outOfOrder(x: { j: FileJob; bytes: Buffer }, slots: SyncSlots): Promise<void> {
  const fh = await x.j.handle();
  const [first, second] = x.j.ranges;
  for (const r of [second!, first!]) {
    const part = x.bytes.subarray(r.start, r.start + RANGE);
    await fh.write(part, 0, part.length, r.start);
    x.j.wrote(r, r.start, [part], part.length, Infinity, slots);
  }
  assert.equal(await x.j.verify(), true);
  await x.j.close();
}

test('two files with a range ahead of their prefix: the first holds it, the second has no room left and reads it back', async () => {
  const dir = tempDir();
  const manifest = await Manifest.load(join(dir, 'state'), dir);
  const hold = new HoldBudget(RANGE);
  const slots = new SyncSlots(1);
  const a = await job(dir, 'a', manifest, hold);
  const b = await job(dir, 'b', manifest, hold);
  await outOfOrder(a, slots);
  assert.equal(a.j.readBack, 0, 'the first file hashed its held range from memory');
  // a's held range was hashed: the budget is free again for a later file
  const c = await job(dir, 'c', manifest, hold);
  const fhB = await b.j.handle();
  const fhC = await c.j.handle();
  // b and c each finish their second range while neither prefix has started: one budget for both
  for (const x of [b, c]) {
    const r = x.j.ranges[1]!;
    const part = x.bytes.subarray(r.start);
    await (x === b ? fhB : fhC).write(part, 0, part.length, r.start);
    x.j.wrote(r, r.start, [part], part.length, Infinity, slots);
  }
  for (const x of [b, c]) {
    const r = x.j.ranges[0]!;
    const part = x.bytes.subarray(0, RANGE);
    await (x === b ? fhB : fhC).write(part, 0, part.length, 0);
    x.j.wrote(r, 0, [part], part.length, Infinity, slots);
    assert.equal(await x.j.verify(), true);
    await x.j.close();
  }
  assert.equal(b.j.readBack, 0, 'the file that found room hashed from memory');
  assert.equal(c.j.readBack, RANGE, 'the file that found the budget spent read its range back');
});
