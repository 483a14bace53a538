/**
 * What a Hub log read in place is checked against. The indexing pass hashes every byte it
 * streams with the hash the Hub names for the file (`lfs.oid`, a sha256, for an LFS or Xet
 * file; the git blob sha1 oid for a small one) and records a sha256 per 16 KB block; a file
 * whose bytes hash to anything else is refused. Every later range read (a record, an edge
 * for the saved index, a cached range read back) is checked block by block against those.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { HubError } from '../errors';

/** The unit of the per-block check: a range read fetches whole blocks. */
export const BLOCK_BYTES = 16 * 1024;
/** bytes of one block's digest (sha256) */
export const DIGEST_BYTES = 32;

export type ContentHashKind = 'sha256' | 'git blob sha1';

/** The hash a content key is: 64 hex digits are an LFS sha256, 40 a git blob sha1. */
export const hashKindOf = (key: string): ContentHashKind => (key.length === 64 ? 'sha256' : 'git blob sha1');

export const blockCount = (size: number): number => Math.ceil(size / BLOCK_BYTES);

/** A file as it was verified: its hash (the key it is kept under), size, and a sha256 per block. */
export interface Verified {
  key: string;
  size: number;
  /** DIGEST_BYTES per block of BLOCK_BYTES (the last one may be shorter) */
  blocks: Buffer;
  /** the whole-file sha256 state after the last whole block (in memory only): a grown file's pass continues from it */
  mid?: { at: number; hash: Hash };
}

/** The file a check is about, as a message names it. */
export interface CheckedFile {
  repo: string;
  commit: string;
  path: string;
  size: number;
  key: string;
}

/** Bytes that are not the bytes the Hub names (or that were indexed): refused, never retried, nothing saved. */
export class ContentError extends HubError {
  constructor(message: string) {
    super('other', message);
    this.name = 'ContentError';
  }
}

/** A grown file whose bytes before the reader's position are not those indexed at the commit before: it is indexed again from byte 0. */
export class PrefixChanged extends ContentError {}

const label = (f: CheckedFile): string => `${f.repo}/${f.path}@${f.commit.slice(0, 12)}`;
const blockDigest = (b: Buffer): Buffer => createHash('sha256').update(b).digest();

/** Hash of the content `key` names, ready for its bytes (a git blob's hash starts with its size). */
function wholeHash(f: CheckedFile): Hash {
  return hashKindOf(f.key) === 'sha256' ? createHash('sha256') : createHash('sha1').update(`blob ${f.size}\0`);
}

/** The one line a range whose bytes differ from the indexed ones is refused with. */
function blockRefusal(f: CheckedFile, k: number, got: Buffer, want: Buffer): ContentError {
  const a = k * BLOCK_BYTES;
  const b = Math.min(f.size, a + BLOCK_BYTES) - 1;
  return new ContentError(
    `${label(f)}: bytes ${a}-${b} are not the bytes indexed ` +
      `(sha256 ${got.toString('hex')}, indexed ${want.toString('hex')}); refused, not retried`,
  );
}

/**
 * Checks bytes read at `from` (a block boundary; they end at a block boundary or at the file's
 * end) against the verified blocks: a ContentError for the first block that differs.
 */
export function checkBlocks(f: CheckedFile, v: Verified, from: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; at += BLOCK_BYTES) {
    const k = (from + at) / BLOCK_BYTES;
    const got = blockDigest(bytes.subarray(at, at + BLOCK_BYTES));
    const want = v.blocks.subarray(k * DIGEST_BYTES, (k + 1) * DIGEST_BYTES);
    if (want.length !== DIGEST_BYTES || !got.equals(want)) throw blockRefusal(f, k, got, want);
  }
}

/**
 * The check of one streamed pass over [from, size): either every block against a verification
 * of the same content (`prior.key` is the file's key), or the whole-file hash computed, from
 * byte 0 or continued from a grown file's `prior.mid`, and the blocks recorded.
 */
export class PassCheck {
  private readonly whole: Hash | undefined;
  private readonly blocks: Buffer;
  private block = createHash('sha256');
  private inBlock = 0;
  private at: number;
  private mid: Verified['mid'];
  /** a grown file: its bytes before `upto` must be the ones verified at the commit before (`old`), which the reader's index holds */
  private readonly prefix: { upto: number; old: Verified } | undefined;
  /** the verification, once the pass reached the file's end and its hash is the Hub's */
  result: Verified | undefined;

  private constructor(
    private readonly f: CheckedFile,
    from: number,
    private readonly prior: Verified | undefined,
    whole: Hash | undefined,
    position = 0,
  ) {
    this.at = from;
    this.whole = whole;
    if (prior && prior.key !== f.key && position > 0)
      this.prefix = { upto: Math.min(Math.ceil(position / BLOCK_BYTES) * BLOCK_BYTES, prior.size), old: prior };
    this.blocks = prior?.key === f.key ? prior.blocks : Buffer.alloc(blockCount(f.size) * DIGEST_BYTES);
    if (prior && prior.key !== f.key) prior.blocks.copy(this.blocks, 0, 0, (from / BLOCK_BYTES) * DIGEST_BYTES);
    this.keepMid();
    if (from === f.size) this.finish();
  }

  /** Where a pass that the reader starts at `position` starts, and its check. */
  static plan(f: CheckedFile, position: number, prior: Verified | undefined): { from: number; check: PassCheck } {
    if (prior?.key === f.key && prior.size === f.size) {
      const from = Math.floor(position / BLOCK_BYTES) * BLOCK_BYTES;
      return { from, check: new PassCheck(f, from, prior, undefined) };
    }
    const mid = prior?.mid;
    if (mid && hashKindOf(f.key) === 'sha256' && mid.at <= position && prior.size <= f.size)
      return { from: mid.at, check: new PassCheck(f, mid.at, prior, mid.hash.copy(), position) };
    const old = prior && prior.size <= f.size ? prior : undefined;
    return { from: 0, check: new PassCheck(f, 0, old, wholeHash(f), position) };
  }

  /** Bytes streamed next; a ContentError when a block differs from the verified one, or at the end when the file's hash does. */
  update(b: Buffer): void {
    if (this.whole) this.feedWhole(b);
    const upto = this.prefix?.upto ?? -1;
    for (let i = 0; i < b.length;) {
      let n = Math.min(b.length - i, BLOCK_BYTES - this.inBlock);
      if (this.at < upto && this.at + n > upto) n = upto - this.at;
      const part = b.subarray(i, i + n);
      this.block.update(part);
      this.inBlock += n;
      this.at += n;
      i += n;
      if (this.inBlock === BLOCK_BYTES || this.at === this.f.size) this.endBlock();
      else if (this.at === upto) this.checkPrefix(Math.floor(upto / BLOCK_BYTES), this.block.copy().digest());
    }
  }

  /** Block `k` of the commit before (its bytes up to where that file ended) against the new bytes' digest `got`. */
  private checkPrefix(k: number, got: Buffer): void {
    const want = this.prefix!.old.blocks.subarray(k * DIGEST_BYTES, (k + 1) * DIGEST_BYTES);
    if (got.equals(want)) return;
    const a = k * BLOCK_BYTES;
    throw new PrefixChanged(
      `${label(this.f)}: bytes ${a}-${Math.min(a + BLOCK_BYTES, this.prefix!.old.size) - 1} ` +
        'are not the bytes indexed at the commit before ' +
        `(sha256 ${got.toString('hex')}, indexed ${want.toString('hex')}); the file did not only grow`,
    );
  }

  private endBlock(): void {
    const k = Math.floor((this.at - 1) / BLOCK_BYTES);
    const got = this.block.digest();
    this.block = createHash('sha256');
    this.inBlock = 0;
    const p = this.prefix;
    if (p && k * BLOCK_BYTES < p.upto && this.at <= p.upto) this.checkPrefix(k, got);
    if (this.whole) got.copy(this.blocks, k * DIGEST_BYTES);
    else {
      const want = this.blocks.subarray(k * DIGEST_BYTES, (k + 1) * DIGEST_BYTES);
      if (!got.equals(want)) throw blockRefusal(this.f, k, got, want);
    }
    if (this.at === this.f.size) this.finish();
  }

  /** The whole-file hash takes a chunk in one call, split where the last block starts (to keep the state there). */
  private feedWhole(b: Buffer): void {
    const p = Math.floor(this.f.size / BLOCK_BYTES) * BLOCK_BYTES - this.at;
    if (p <= 0 || p > b.length) {
      this.whole!.update(b);
      return;
    }
    this.whole!.update(b.subarray(0, p));
    this.at += p;
    this.keepMid();
    this.at -= p;
    this.whole!.update(b.subarray(p));
  }

  /** At the start of the last block (whole or not), keeps the sha256 state: the file grown at a newer commit continues from it. */
  private keepMid(): void {
    const p = Math.floor(this.f.size / BLOCK_BYTES) * BLOCK_BYTES;
    if (this.whole && this.at === p && hashKindOf(this.f.key) === 'sha256') this.mid = { at: p, hash: this.whole.copy() };
  }

  private finish(): void {
    if (!this.whole) {
      this.result = this.prior;
      return;
    }
    const got = this.whole.digest('hex');
    if (got !== this.f.key)
      throw new ContentError(
        `${label(this.f)}: the bytes the Hub sent have ${hashKindOf(this.f.key)} ${got}, ` +
          `but the Hub names ${this.f.key}; refused, nothing saved`,
      );
    this.result = { key: this.f.key, size: this.f.size, blocks: this.blocks, ...(this.mid ? { mid: this.mid } : {}) };
  }
}
