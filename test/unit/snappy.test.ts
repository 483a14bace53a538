/** The export's Snappy compressor: every page decompresses (by hyparquet's reader) to its bytes, repeats get shorter. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { snappyUncompress } from 'hyparquet';
import { snappyCompress as reference } from 'hyparquet-writer/src/snappy.js';
import { snappyCompress } from '../../src/core/export/snappy';

/** A deterministic mix of text, repeats and noise, `n` bytes. */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const words = ['click(point_2d=[', 'scroll(direction="down")', 'run/12/3/', '€49.99', 'done()'].map((w) => Buffer.from(w));
  for (let i = 0; i < n;) {
    const r = rnd();
    if (r < 0.4) {
      const w = words[Math.floor(rnd() * words.length)]!;
      for (let k = 0; k < w.length && i < n; k++) out[i++] = w[k]!;
    } else if (r < 0.6 && i > 300) {
      const from = i - 1 - Math.floor(rnd() * 300);
      const len = 4 + Math.floor(rnd() * 200);
      for (let k = 0; k < len && i < n; k++) out[i++] = out[from + k]!;
    } else out[i++] = Math.floor(rnd() * 256);
  }
  return out;
}

test('compressed pages decompress to their bytes, as the reference writer compresses them', () => {
  const sizes = [0, 1, 14, 15, 16, 61, 300, 4096, 70_000, 300_000];
  for (const [k, n] of sizes.entries()) {
    const src = sample(n, k + 1);
    const z = Uint8Array.from(snappyCompress(src));
    const back = new Uint8Array(n);
    snappyUncompress(z, back);
    assert.deepEqual(Buffer.from(back), Buffer.from(src), `${n} bytes`);
    assert.deepEqual(Buffer.from(z), Buffer.from(reference(src)), `${n} bytes: the reference's bytes`);
  }
});

test('runs and long literals', () => {
  const zeros = new Uint8Array(200_000);
  const z = Uint8Array.from(snappyCompress(zeros));
  assert.ok(z.length < 10_000, `${z.length} bytes for 200,000 zeros`);
  const back = new Uint8Array(zeros.length);
  snappyUncompress(z, back);
  assert.deepEqual(back, zeros);
  const noise = sample(1 << 17, 99).map((_, i) => (Math.imul(i + 7, 2654435761) >>> 24) & 0xff);
  const zn = Uint8Array.from(snappyCompress(noise));
  const backN = new Uint8Array(noise.length);
  snappyUncompress(zn, backN);
  assert.deepEqual(backN, noise);
});
