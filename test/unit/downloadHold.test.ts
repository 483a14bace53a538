/**
 * The bytes a download holds in memory ahead of its files' hashed prefixes are one quota for
 * all its files: files each with a range finished ahead of the first hold no more than the
 * quota together, and the one left without room is hashed by reading its partial back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { FileJob, Quota } from '../../src/core/hub/download/fileJob';
import { Manifest } from '../../src/core/hub/download/manifest';
import type { DownloadItem } from '../../src/core/hub/download/types';
import { tempDir } from '../helpers';

const RANGE = 1 << 16;
const syncs = new Quota(1);

interface File {
  job: FileJob;
  bytes: Buffer;
}

/** A file of two ranges with its LFS digest, and its job sharing `hold`. */
async function file(dir: string, name: string, manifest: Manifest, hold: Quota): Promise<File> {
  const bytes = Buffer.alloc(2 * RANGE, name);
  const it: DownloadItem = {
    path: name,
    target: name,
    size: bytes.length,
    oid: createHash('sha1').update(name).digest('hex'),
    lfsSha256: createHash('sha256').update(bytes).digest('hex'),
  };
  const job = new FileJob(it, join(dir, name), join(dir, `${name}.part`), manifest, RANGE, hold);
  await job.prepare();
  return { job, bytes };
}

/** Range `i` of the file written to its partial and told to its job, as a connection's bytes are. */
async function arrive(f: File, i: number): Promise<void> {
  const r = f.job.ranges[i]!;
  const part = f.bytes.subarray(r.start, r.start + RANGE);
  await (await f.job.handle()).write(part, 0, part.length, r.start);
  f.job.wrote(r, r.start, [part], part.length, Infinity, syncs);
}

async function verified(f: File): Promise<void> {
  assert.equal(await f.job.verify(), true);
  await f.job.close();
}

test('files with a range ahead of their prefix: one holds it, the next finds the quota spent and reads it back; a hashed range frees its room', async () => {
  const dir = tempDir();
  const manifest = await Manifest.load(join(dir, 'state'), dir);
  const hold = new Quota(RANGE);
  const [a, b, c] = [await file(dir, 'a', manifest, hold), await file(dir, 'b', manifest, hold), await file(dir, 'c', manifest, hold)];
  await arrive(a, 1);
  await arrive(a, 0);
  await verified(a);
  assert.equal(a.job.readBack, 0, 'the first file hashed its held range from memory');
  // a's held range was hashed: its room is free again; b and c each finish their second range first
  await arrive(b, 1);
  await arrive(c, 1);
  for (const f of [b, c]) {
    await arrive(f, 0);
    await verified(f);
  }
  assert.equal(b.job.readBack, 0, 'the file that found room hashed from memory');
  assert.equal(c.job.readBack, RANGE, 'the file that found the quota spent read its range back');
});
