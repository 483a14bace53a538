import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { BLOCK_BYTES, ContentError, PassCheck, PrefixChanged, checkBlocks } from '../../src/core/hub/inPlace/contentCheck';
import type { CheckedFile } from '../../src/core/hub/inPlace/contentCheck';
import { HubLogSource } from '../../src/core/hub/inPlace/hubLogSource';
import { RangeCache } from '../../src/core/hub/inPlace/rangeCache';
import { tempDir } from '../helpers';

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const gitSha1 = (b: Buffer): string => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex');
/** 2.5 blocks of bytes that differ from block to block */
const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 9)) & 0xff));
const file = (b: Buffer, key: string): CheckedFile => ({ repo: 'o/r', commit: 'c'.repeat(40), path: 'logs/x.jsonl', size: b.length, key });

/** Feeds `b` from `from` in chunks of `step` bytes (odd, so that chunks straddle the block edges). */
function feed(check: PassCheck, b: Buffer, from: number, step = 5001): void {
  for (let i = from; i < b.length; i += step) check.update(b.subarray(i, Math.min(b.length, i + step)));
}

test('a pass verifies the file against its sha256 or git blob sha1 and records the sha256 of each 16 KB block', () => {
  const b = bytes(2.5 * BLOCK_BYTES);
  for (const key of [sha256(b), gitSha1(b)]) {
    const { from, check } = PassCheck.plan(file(b, key), 0, undefined);
    assert.equal(from, 0);
    feed(check, b, 0);
    const v = check.result!;
    assert.equal(v.key, key);
    const want = [0, 1, 2].map((k) => sha256(b.subarray(k * BLOCK_BYTES, (k + 1) * BLOCK_BYTES))).join('');
    assert.equal(v.blocks.toString('hex'), want);
    assert.equal(v.mid !== undefined, key.length === 64, 'a sha256 state is kept for an LFS file only');
  }
  // other bytes of the same size under that name: one line naming both hashes
  const other = Buffer.from(b);
  other[20000]! ^= 1;
  const { check } = PassCheck.plan(file(other, sha256(b)), 0, undefined);
  assert.throws(
    () => feed(check, other, 0),
    (e: unknown) =>
      e instanceof ContentError &&
      e.message ===
        `o/r/logs/x.jsonl@cccccccccccc: the bytes the Hub sent have sha256 ${sha256(other)}, but the Hub names ${sha256(b)}; refused, nothing saved`,
  );
});

test('a range is checked block by block against the verified blocks; a pass of the same content too', () => {
  const b = bytes(2.5 * BLOCK_BYTES);
  const f = file(b, sha256(b));
  const { check } = PassCheck.plan(f, 0, undefined);
  feed(check, b, 0);
  const v = check.result!;
  checkBlocks(f, v, BLOCK_BYTES, b.subarray(BLOCK_BYTES));
  const bad = Buffer.from(b.subarray(BLOCK_BYTES));
  bad[BLOCK_BYTES + 3]! ^= 0x80;
  assert.throws(
    () => checkBlocks(f, v, BLOCK_BYTES, bad),
    /: bytes 32768-40959 are not the bytes indexed \(sha256 [0-9a-f]{64}, indexed [0-9a-f]{64}\); refused, not retried$/,
  );
  // the reader resuming at byte 20000 of the same content: from its block's start, each block checked
  const again = PassCheck.plan(f, 20000, v);
  assert.equal(again.from, BLOCK_BYTES);
  assert.throws(() => feed(again.check, Buffer.concat([b.subarray(0, BLOCK_BYTES), bad]), BLOCK_BYTES), ContentError);
});

test('a grown LFS file continues the sha256 from the last block of the commit before, and its bytes before the tail must be the ones verified', () => {
  const old = bytes(2.5 * BLOCK_BYTES);
  const first = PassCheck.plan(file(old, sha256(old)), 0, undefined);
  feed(first.check, old, 0);
  const v = first.check.result!;
  const grown = Buffer.concat([old, bytes(10000).reverse()]);
  const g = PassCheck.plan(file(grown, sha256(grown)), old.length, v);
  assert.equal(g.from, 2 * BLOCK_BYTES, 'from the start of the last block');
  feed(g.check, grown, g.from);
  const gv = g.check.result!;
  assert.equal(gv.key, sha256(grown));
  assert.equal(gv.blocks.subarray(0, 64).toString('hex'), v.blocks.subarray(0, 64).toString('hex'));
  assert.equal(
    gv.blocks.subarray(64).toString('hex'),
    sha256(grown.subarray(2 * BLOCK_BYTES, 3 * BLOCK_BYTES)) + sha256(grown.subarray(3 * BLOCK_BYTES)),
  );
  // a byte changed in the old part of the last block: not an append
  const changed = Buffer.from(grown);
  changed[2 * BLOCK_BYTES + 5]! ^= 1;
  const c = PassCheck.plan(file(changed, sha256(changed)), old.length, v);
  assert.throws(() => feed(c.check, changed, c.from), PrefixChanged);
  // without the state (a new process), from byte 0, the same check of the bytes before the tail
  const { mid: _mid, ...saved } = v;
  const z = PassCheck.plan(file(changed, sha256(changed)), old.length, saved);
  assert.equal(z.from, 0);
  assert.throws(
    () => feed(z.check, changed, 0),
    /bytes 32768-40959 are not the bytes indexed at the commit before .*the file did not only grow$/,
  );
  const ok = PassCheck.plan(file(grown, sha256(grown)), old.length, saved);
  feed(ok.check, grown, 0);
  assert.equal(ok.check.result?.key, sha256(grown));
});

test('a record of a log whose bytes are not verified yet (a newer commit being indexed) is not read', async () => {
  const b = bytes(1000);
  const t = { ...file(b, sha256(b)), commit: 'a'.repeat(40) };
  const src = new HubLogSource(t, { endpoint: 'http://127.0.0.1:9' }, new RangeCache(tempDir()));
  await assert.rejects(
    src.readRange(10, 20),
    /^HubError: logs\/x\.jsonl at aaaaaaaaaaaa is being indexed; its records open once its bytes are checked$/,
  );
  const { check } = PassCheck.plan(t, 0, undefined);
  feed(check, b, 0);
  src.verified = check.result;
  await src.cache.put(t.key, 0, b);
  assert.deepStrictEqual(await src.readRange(10, 20), b.subarray(10, 30), 'once verified, from the checked cache');
});
