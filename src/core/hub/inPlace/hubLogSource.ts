/**
 * A Hub log as the log reader's byte source: indexing reads it as one streamed pass (a plain
 * GET from byte 0, or a range GET from where a saved index stopped), a record is read by a
 * range request, and every range fetched for a record is kept in the range cache, so that
 * offline the records already read still open. The file's first and last bytes streamed are
 * kept too (the identity of a saved index is a hash of them). The pass is hashed and checked
 * against the hash the Hub names, and every range read after it against the pass's blocks
 * (`contentCheck.ts`); only checked bytes are cached, under the hash they were checked with.
 */
import type { ByteHandle, ByteSource } from '../../log/jsonlFile';
import { HubError, toHubError } from '../errors';
import type { HubConnection } from '../model';
import { DEFAULT_STALL_MS, retrying, stallError } from '../retry';
import { StallWatch, linkedAbort } from '../stallWatch';
import type { RetryPolicy } from '../retry';
import { getBytes, openBytes } from './rangeGet';
import type { HubFileAt } from './rangeGet';
import type { RangeCache } from './rangeCache';
import { BLOCK_BYTES, ContentError, PassCheck, checkBlocks } from './contentCheck';
import type { Verified } from './contentCheck';

/** A file at one commit and the content hash its cached ranges are kept under. */
export interface HubLogTarget extends HubFileAt {
  /** lfs sha256, else git oid */
  key: string;
}

/** The first and the last bytes of a pass kept in the cache (enough for the identity's 64 KB hashes). */
export const EDGE_BYTES = 64 * 1024;
const KEEP_LAST = 2 * EDGE_BYTES;
const HEAD_READ = 256;
/** `keepWhole` keeps a pass's bytes only up to this many: a larger log streams through like the credit log (its edges kept) */
export const KEEP_WHOLE_MAX = 16 * 1024 * 1024;

export class NotCachedError extends Error {}

export class HubLogSource implements ByteSource {
  /** changed when the file was replaced (not grown): the reader then indexes it again from byte 0 */
  generation = 1;
  /** bytes fetched over the network by this source */
  bytesFetched = 0;
  /** the most bytes of the log a pass held in memory at once (a streamed pass holds a chunk and the edges, not the log) */
  peakHeldBytes = 0;
  /** when set, no request is made: only cached ranges are read */
  offline: string | undefined;
  /** how a dropped, stalled or failed transfer is tried again (from the byte reached) */
  retry: RetryPolicy = {};
  /** the first bytes of the content `key`, known from its saved index: the reader's head check then makes no request */
  knownHead: { key: string; bytes: Buffer } | undefined;
  /** the content as last verified (by a pass, or by the saved index of a pass); range reads of that content are checked against it */
  verified: Verified | undefined;
  /** set when a pass's bytes did not check out (the reader may have taken the failure of a metrics log as a warning) */
  refused: ContentError | undefined;

  constructor(
    public target: HubLogTarget,
    readonly conn: HubConnection,
    readonly cache: RangeCache,
    /** keep every streamed byte in the cache when the log is small (at most `KEEP_WHOLE_MAX`; the metrics log) */
    readonly keepWhole = false,
  ) {}

  stat(): Promise<{ size: number; dev: number; ino: number }> {
    return Promise.resolve({ size: this.target.size, dev: 0, ino: this.generation });
  }

  open(): Promise<ByteHandle> {
    try {
      // an empty file is read by no pass: its hash is checked here
      if (this.target.size === 0) this.verified = PassCheck.plan(this.target, 0, undefined).check.result;
    } catch (e) {
      if (e instanceof ContentError) this.refused = e;
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return Promise.resolve(new StreamHandle(this, this.target));
  }

  /** The verification of the content the source now names, if it has one. */
  get checked(): Verified | undefined {
    const v = this.verified;
    return v?.key === this.target.key && v.size === this.target.size ? v : undefined;
  }

  /**
   * Bytes of one record: from the cache, else by a range request, then cached unless
   * `keep` is false (an export reads through: a large one would push out what was opened).
   * Once the content is verified, the whole blocks around the range are read and checked
   * (a cached range that fails is fetched again; a fetched one that fails is refused). Before
   * (a newer commit being indexed) a record is not read.
   */
  readRange(offset: number, length: number, keep = true): Promise<Buffer> {
    if (!this.checked && !this.knownHeadHas(offset, length))
      return Promise.reject(
        new HubError(
          'other',
          `${this.target.path} at ${this.target.commit.slice(0, 12)} is being indexed; its records open once its bytes are checked`,
        ),
      );
    return this.readChecked(offset, length, keep);
  }

  private knownHeadHas(offset: number, length: number): boolean {
    return this.knownHead?.key === this.target.key && offset + length <= this.knownHead.bytes.length;
  }

  /**
   * Bytes the reader or the identity check of a grown file asks for before the content is
   * verified (the head check, the first and last indexed 64 KB): neither checked nor cached,
   * and they decide only whether the file grew. Once verified, as `readRange`.
   */
  readUnchecked(offset: number, length: number): Promise<Buffer> {
    if (this.checked || this.knownHeadHas(offset, length)) return this.readChecked(offset, length, true);
    return this.fetch(offset, length);
  }

  private async readChecked(offset: number, length: number, keep: boolean): Promise<Buffer> {
    const t = this.target;
    if (this.knownHeadHas(offset, length)) return this.knownHead!.bytes.subarray(offset, offset + length);
    const v = this.checked;
    if (!v) throw new Error('internal: a checked read of bytes not verified');
    const from = Math.floor(offset / BLOCK_BYTES) * BLOCK_BYTES;
    const to = Math.min(t.size, Math.ceil((offset + length) / BLOCK_BYTES) * BLOCK_BYTES);
    const cut = (b: Buffer): Buffer => b.subarray(offset - from, offset - from + length);
    const cached = await this.cachedChecked(v, from, to - from);
    if (cached) return cut(cached);
    if (this.offline !== undefined)
      throw new NotCachedError(`bytes ${offset}-${offset + length - 1} of ${t.path} are not cached, and ${this.offline}`);
    const bytes = await this.fetch(from, to - from);
    checkBlocks(t, v, from, bytes);
    if (keep) await this.cache.put(t.key, from, bytes);
    return cut(bytes);
  }

  /** Cached bytes [from, from + length) of the verified content, when they are there and check out. */
  async cachedChecked(v: Verified, from: number, length: number): Promise<Buffer | undefined> {
    const b = await this.cache.get(v.key, from, length);
    return b && this.passes(v, from, b) ? b : undefined;
  }

  private passes(v: Verified, from: number, bytes: Buffer): boolean {
    try {
      checkBlocks(this.target, v, from, bytes);
      return true;
    } catch {
      return false;
    }
  }

  private async fetch(offset: number, length: number): Promise<Buffer> {
    const t = this.target;
    const bytes = await retrying(this.retry, this.conn.signal, () => getBytes(this.conn, t, offset, length, this.retry.stallTimeoutMs));
    this.bytesFetched += bytes.length;
    return bytes;
  }
}

/**
 * One pass of the reader: sequential reads from one body; a read before it (the reader's
 * head check) is a range read. A body that drops, stalls or fails is opened again from the
 * byte reached (`Range: bytes=N-`), with the retry policy's bounds and backoff.
 */
class StreamHandle implements ByteHandle {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private chunks: Buffer[] = [];
  /** file offset of chunks[0] and of the byte after the last one */
  private from = 0;
  private to = 0;
  private opened = false;
  private startedAt = 0;
  private done = false;
  private head: Buffer | undefined;
  private last: Buffer[] = [];
  private lastFrom = 0;
  private whole: Buffer[] = [];
  private wholeBytes = 0;
  private watch: StallWatch | undefined;
  /** the check of the bytes streamed: its result once the pass reached the end and checked out */
  private check: PassCheck | undefined;
  /** a request or a read is pending (the watchdog counts only then) */
  private waiting = false;
  private idle = 0;

  constructor(
    private readonly src: HubLogSource,
    private readonly t: HubLogTarget,
  ) {}

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    length = Math.min(length, this.t.size - position);
    if (length <= 0) return { bytesRead: 0 };
    if (!this.opened && position === 0 && length <= HEAD_READ) return this.copy(await this.src.readUnchecked(0, length), buffer, offset);
    if (!this.opened) await this.start(position);
    else if (position < this.from) return this.copy(await this.src.readUnchecked(position, length), buffer, offset);
    else if (position > this.to) throw new Error(`internal: a read at ${position} past the stream at ${this.to}`);
    // what was read before goes before more is pulled; a pass may start before the reader's position
    // (a whole block, or the whole file to hash it): those bytes are dropped as they come
    this.drop(position);
    while (this.to < position + length && !this.done) {
      await this.pull();
      if (this.from < position) this.drop(Math.min(position, this.to));
    }
    const have = Math.min(length, this.to - position);
    const b = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [b];
    b.copy(buffer, offset, position - this.from, position - this.from + have);
    return { bytesRead: have };
  }

  private copy(b: Buffer, buffer: Buffer, offset: number): { bytesRead: number } {
    b.copy(buffer, offset);
    return { bytesRead: b.length };
  }

  private async start(position: number): Promise<void> {
    this.opened = true;
    const plan = PassCheck.plan(this.t, position, this.src.verified);
    this.check = plan.check;
    const from = plan.from;
    this.from = this.to = this.lastFrom = this.startedAt = from;
    const v = this.src.checked;
    const cached = v ? await this.src.cachedChecked(v, from, this.t.size - from) : undefined;
    if (cached) {
      this.chunks = [cached];
      this.to = this.t.size;
      this.done = true;
      return;
    }
    if (this.src.offline !== undefined)
      throw new NotCachedError(`${this.t.path} from byte ${position} is not cached, and ${this.src.offline}`);
    await this.pull();
  }

  private pull(): Promise<void> {
    return retrying(this.src.retry, this.src.conn.signal, () => this.pullOnce());
  }

  /** One chunk of the body, opened from the byte reached when there is none; a failure drops the body. */
  private async pullOnce(): Promise<void> {
    let r: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
    this.waiting = true;
    try {
      this.reader ??= await this.openFrom(this.to);
      r = await this.reader.read();
      if (r.done && this.to < this.t.size) throw new HubError('offline', `the connection closed after ${this.to} of ${this.t.size} bytes`);
    } catch (e) {
      const stalled = this.watch?.stalled === true;
      await this.reader?.cancel().catch(() => undefined);
      this.reader = undefined;
      if (stalled) throw stallError(this.watch!.ms);
      throw toHubError(e, { endpoint: this.src.conn.endpoint, repo: this.t.repo, path: this.t.path, token: this.src.conn.token });
    } finally {
      this.waiting = false;
    }
    if (r.done) {
      this.done = true;
      return;
    }
    const b = Buffer.from(r.value.buffer, r.value.byteOffset, r.value.length);
    if (this.to + b.length > this.t.size)
      throw new HubError('other', `${this.t.path}: the server sent more bytes than the file has; refused`);
    this.src.bytesFetched += b.length;
    try {
      this.check!.update(b);
    } catch (e) {
      if (e instanceof ContentError) this.src.refused = e;
      throw e;
    }
    if (this.check!.result) this.src.verified = this.check!.result;
    this.chunks.push(b);
    this.keep(b);
    this.to += b.length;
  }

  /**
   * The body of bytes [from, size), watched for a stall from the request on (its response
   * headers included), then while a read is pending.
   */
  private openFrom(from: number): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    this.watch?.stop();
    const { signal, abort } = linkedAbort(this.src.conn.signal);
    // between reads the counter moves by itself: a slow consumer is not a stall
    this.watch = new StallWatch(this.src.retry.stallTimeoutMs ?? DEFAULT_STALL_MS, () => (this.waiting ? this.to : --this.idle), abort);
    return openBytes({ ...this.src.conn, signal }, this.t, from, this.t.size - 1);
  }

  /** Keeps the first and the last bytes of the pass (and all of them for a small log) to be cached when it closes. */
  private keep(b: Buffer): void {
    if (this.src.keepWhole && this.t.size <= KEEP_WHOLE_MAX && this.wholeBytes + b.length <= KEEP_WHOLE_MAX) {
      this.whole.push(b);
      this.wholeBytes += b.length;
    }
    if (this.startedAt === 0 && (this.head?.length ?? 0) < EDGE_BYTES)
      this.head = Buffer.concat([this.head ?? Buffer.alloc(0), b.subarray(0, EDGE_BYTES - (this.head?.length ?? 0))]);
    this.last.push(b);
    let kept = this.last.reduce((n, x) => n + x.length, 0);
    while (this.last.length > 1 && kept - this.last[0]!.length >= KEEP_LAST) {
      kept -= this.last[0]!.length;
      this.lastFrom += this.last.shift()!.length;
    }
    const held = this.to + b.length - this.from + this.wholeBytes + kept + (this.head?.length ?? 0);
    if (held > this.src.peakHeldBytes) this.src.peakHeldBytes = held;
  }

  /** Forgets bytes before `position` (reads only go forward). */
  private drop(position: number): void {
    if (position <= this.from) return;
    if (position >= this.to) {
      this.chunks = [];
      this.from = this.to;
      return;
    }
    const b = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [b.subarray(position - this.from)];
    this.from = position;
  }

  async close(): Promise<void> {
    this.watch?.stop();
    await this.reader?.cancel().catch(() => undefined);
    // only bytes whose hash checked out are cached (a pass that failed, or did not reach the end, keeps nothing)
    if (!this.watch || this.to === this.lastFrom || !this.check?.result) return;
    const { cache } = this.src;
    const key = this.t.key;
    if (
      this.src.keepWhole &&
      this.done &&
      this.to === this.t.size &&
      this.whole.length > 0 &&
      this.wholeBytes === this.to - this.startedAt
    ) {
      const all = Buffer.concat(this.whole);
      await cache.put(key, this.t.size - all.length, all);
      return;
    }
    if (this.head) await cache.put(key, 0, this.head);
    // cached ranges start on a block boundary, so that a read of whole blocks finds them
    const at = Math.ceil(this.lastFrom / BLOCK_BYTES) * BLOCK_BYTES;
    const last = Buffer.concat(this.last);
    if (at < this.to) await cache.put(key, at, last.subarray(at - this.lastFrom));
  }
}
