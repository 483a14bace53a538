/**
 * Snappy compression of one Parquet page (the raw format, no framing): the reference algorithm
 * (a hash table of 4-byte sequences, literals and copies of offsets up to 65535), written byte by
 * byte into one reused buffer with a reused hash table, so a page costs no allocation.
 */

const MAX_HASH_BITS = 14;
const MAX_OFFSET = 0xffff;
/** bytes at the end of the input never searched for a match (the reference's margin) */
const INPUT_MARGIN = 15;

const table = new Int32Array(1 << MAX_HASH_BITS);
let out = new Uint8Array(1 << 16);

const load32 = (b: Uint8Array, i: number): number => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);

function literal(src: Uint8Array, from: number, len: number, o: number): number {
  const n = len - 1;
  if (n < 60) out[o++] = n << 2;
  else if (n < 0x100) {
    out[o++] = 60 << 2;
    out[o++] = n;
  } else if (n < 0x10000) {
    out[o++] = 61 << 2;
    out[o++] = n & 0xff;
    out[o++] = n >>> 8;
  } else if (n < 0x1000000) {
    out[o++] = 62 << 2;
    out[o++] = n & 0xff;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = n >>> 16;
  } else {
    out[o++] = 63 << 2;
    out[o++] = n & 0xff;
    out[o++] = (n >>> 8) & 0xff;
    out[o++] = (n >>> 16) & 0xff;
    out[o++] = n >>> 24;
  }
  if (len < 16) for (let i = 0; i < len; i++) out[o + i] = src[from + i]!;
  else out.set(src.subarray(from, from + len), o);
  return o + len;
}

/** A copy of `len` (4 to 64) bytes from `offset` back. */
function shortCopy(offset: number, len: number, o: number): number {
  if (len < 12 && offset < 2048) {
    out[o++] = 1 + ((len - 4) << 2) + ((offset >>> 8) << 5);
    out[o++] = offset & 0xff;
  } else {
    out[o++] = 2 + ((len - 1) << 2);
    out[o++] = offset & 0xff;
    out[o++] = offset >>> 8;
  }
  return o;
}

function copy(offset: number, len: number, o: number): number {
  while (len >= 68) {
    o = shortCopy(offset, 64, o);
    len -= 64;
  }
  if (len > 64) {
    o = shortCopy(offset, 60, o);
    len -= 60;
  }
  return shortCopy(offset, len, o);
}

/** The matches of `src` as literals and copies written from `o`; the new end. */
function compressBody(src: Uint8Array, o: number): number {
  const n = src.length;
  let bits = 1;
  while (1 << bits <= n && bits <= MAX_HASH_BITS) bits++;
  bits--;
  const shift = 32 - bits;
  const t = table.subarray(0, 1 << bits);
  t.fill(0);
  const hash = (v: number): number => Math.imul(v, 0x1e35a7bd) >>> shift;
  let nextEmit = 0;
  if (n >= INPUT_MARGIN) {
    const ipLimit = n - INPUT_MARGIN;
    let ip = 1;
    let nextHash = hash(load32(src, ip));
    outer: for (;;) {
      let skip = 32;
      let nextIp = ip;
      let candidate: number;
      do {
        ip = nextIp;
        const h = nextHash;
        nextIp = ip + (skip >>> 5);
        skip++;
        if (ip > ipLimit) break outer;
        nextHash = nextIp <= n - 4 ? hash(load32(src, nextIp)) : 0;
        candidate = t[h]!;
        t[h] = ip;
      } while (ip - candidate > MAX_OFFSET || load32(src, ip) !== load32(src, candidate));
      o = literal(src, nextEmit, ip - nextEmit, o);
      do {
        const base = ip;
        let m = 4;
        const end = n - ip;
        // four bytes a step while they match, then byte by byte
        while (
          m + 4 <= end &&
          src[ip + m] === src[candidate + m] &&
          src[ip + m + 1] === src[candidate + m + 1] &&
          src[ip + m + 2] === src[candidate + m + 2] &&
          src[ip + m + 3] === src[candidate + m + 3]
        )
          m += 4;
        while (m < end && src[ip + m] === src[candidate + m]) m++;
        ip += m;
        o = copy(base - candidate, m, o);
        nextEmit = ip;
        if (ip >= ipLimit) break outer;
        t[hash(load32(src, ip - 1))] = ip - 1;
        const h = hash(load32(src, ip));
        candidate = t[h]!;
        t[h] = ip;
      } while (ip - candidate <= MAX_OFFSET && load32(src, ip) === load32(src, candidate));
      ip++;
      nextHash = hash(load32(src, ip));
    }
  }
  if (nextEmit < n) o = literal(src, nextEmit, n - nextEmit, o);
  return o;
}

/** `src` compressed; the bytes are valid until the next call (copy what must outlive it). */
export function snappyCompress(src: Uint8Array): Uint8Array {
  const bound = 32 + src.length + Math.ceil(src.length / 6);
  if (out.length < bound) out = new Uint8Array(Math.max(bound, out.length * 2));
  let o = 0;
  let v = src.length;
  while (v >= 0x80) {
    out[o++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[o++] = v;
  // one element type in the loops, whether the page is a Buffer or not
  const bytes: Uint8Array = Buffer.isBuffer(src) ? new Uint8Array(src.buffer, src.byteOffset, src.length) : src;
  return out.subarray(0, compressBody(bytes, o));
}
