/**
 * Incremental reading of a JSONL file by byte offsets: reads only bytes it has not
 * read, hands each complete line to a sink, notices a file that shrank or was
 * replaced, and treats a last line without its newline as a record still being
 * written (offered provisionally, taken back and re-read when the file grows). A line
 * that is not valid UTF-8 is skipped by number: decoded, its bad bytes would all become
 * U+FFFD and two different keys could read as one.
 */
import { errorMessage } from '../errorMessage';
import { isUtf8 } from 'node:buffer';
import { openLog } from './logFile';

export interface SkippedLine {
  line: number;
  message: string;
}

export interface LineSink {
  /** Forget everything: the file is read again from its start. */
  reset(): void;
  /** Number of records held; `rollback(mark)` drops records added since. */
  mark(): number;
  rollback(mark: number): void;
  /**
   * One line, without its line ending. Returns an error message when the line is
   * not a record; the line is then skipped and reported.
   */
  line(buf: Buffer, start: number, end: number, fileOffset: number, lineNo: number): string | undefined;
  /** Called after each chunk, so that a sink can publish what it has. */
  chunkDone?(): void;
}

/** What a reader knows of its file up to the last newline read, to be saved and restored. */
export interface FileState {
  committed: number;
  lines: number;
  skipped: SkippedLine[];
  skippedCount: number;
}

export interface UpdateResult {
  kind: 'none' | 'append' | 'reset';
  /** bytes read by this update */
  bytesRead: number;
  newLines: number;
}

export interface ReadProgress {
  bytesDone: number;
  bytesTotal: number;
}

export interface ReadLimits {
  /** a longer line is skipped by number, unread (default 64 MB) */
  maxLineBytes?: number;
  /** where the bytes come from when the log is not a local file (a Hub log read in place); default: the file at `path` */
  source?: ByteSource;
}

/** An open log's bytes, read by position (a `FileHandle` is one). */
export interface ByteHandle {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/**
 * A log that is not a local file: its size and identity (a changed `ino` means replaced),
 * sequential reads for indexing, and one record's bytes by range.
 */
export interface ByteSource {
  stat(): Promise<{ size: number; dev: number; ino: number }>;
  open(): Promise<ByteHandle>;
  readRange(offset: number, length: number): Promise<Buffer>;
}

const CHUNK = 4 * 1024 * 1024;
/** room before each chunk for the line the chunk before cut (a longer one costs a copy of the chunk) */
const ROOM = 256 * 1024;
const HEAD = 256;
/** skipped lines kept with their message (all are counted) */
export const MAX_SKIPPED_KEPT = 1000;
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** The text of a file that is not UTF-8 JSON lines at all (e.g. UTF-16): the whole file is refused, naming what it is. */
export class LogEncodingError extends Error {}

/** What a file's first bytes say about its encoding, when it is one the reader cannot read; undefined otherwise. */
export function foreignEncoding(head: Buffer): string | undefined {
  const [a, b, c, d] = head;
  if (a === 0xff && b === 0xfe)
    return c === 0 && d === 0 ? 'UTF-32 (little-endian byte order mark FF FE 00 00)' : 'UTF-16 (byte order mark FF FE)';
  if (a === 0xfe && b === 0xff) return 'UTF-16 (byte order mark FE FF)';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'UTF-32 (byte order mark 00 00 FE FF)';
  if (head.length >= 4 && a !== 0 && b === 0 && c !== 0 && d === 0) return 'UTF-16 little-endian (every other byte is NUL)';
  if (head.length >= 4 && a === 0 && b !== 0 && c === 0 && d !== 0) return 'UTF-16 big-endian (every other byte is NUL)';
  return undefined;
}

export class JsonlFile {
  /** bytes up to and including the last newline read */
  private committed = 0;
  private lines = 0;
  private tailMark: number | undefined;
  private identity: { dev: number; ino: number; head: Buffer } | undefined;
  /** a line longer than a chunk's room and the chunk after it (`joined`), grown as needed */
  private buf: Buffer = Buffer.alloc(0);
  private busy: Promise<UpdateResult> | undefined;
  readonly skipped: SkippedLine[] = [];
  skippedCount = 0;
  /** true while the last line of the file has no newline */
  pendingTail = false;

  private readonly maxLine: number;
  private readonly source: ByteSource | undefined;
  /** whether the lines of the chunk being read need their UTF-8 checked one by one (the whole chunk was not valid) */
  private checkUtf8 = false;

  constructor(
    readonly path: string,
    private readonly sink: LineSink,
    limits: ReadLimits = {},
  ) {
    this.maxLine = limits.maxLineBytes ?? MAX_LINE_BYTES;
    this.source = limits.source;
  }

  get bytesRead(): number {
    return this.committed;
  }

  get lineCount(): number {
    return this.lines;
  }

  /** The state to save, or undefined while a provisional last line is held (it is not a state to start from). */
  state(): FileState | undefined {
    if (this.tailMark !== undefined || this.busy) return undefined;
    return { committed: this.committed, lines: this.lines, skipped: [...this.skipped], skippedCount: this.skippedCount };
  }

  /** Starts from a saved state (the sink holding the matching records): the next update reads from `committed`. */
  restore(s: FileState): void {
    this.committed = s.committed;
    this.lines = s.lines;
    this.tailMark = undefined;
    this.identity = undefined;
    this.skipped.length = 0;
    this.skipped.push(...s.skipped.slice(0, MAX_SKIPPED_KEPT));
    this.skippedCount = s.skippedCount;
    this.pendingTail = false;
  }

  /** Reads what is new; concurrent calls share one read. */
  update(onProgress?: (p: ReadProgress) => void, signal?: AbortSignal): Promise<UpdateResult> {
    if (this.busy) return this.busy;
    this.busy = this.doUpdate(onProgress, signal).finally(() => {
      this.busy = undefined;
    });
    return this.busy;
  }

  private resetAll(): void {
    this.committed = 0;
    this.lines = 0;
    this.tailMark = undefined;
    this.skipped.length = 0;
    this.skippedCount = 0;
    this.pendingTail = false;
    this.sink.reset();
  }

  private async doUpdate(onProgress?: (p: ReadProgress) => void, signal?: AbortSignal): Promise<UpdateResult> {
    const local = this.source ? undefined : await openLog(this.path);
    const fh: ByteHandle = local ?? (await this.source!.open());
    try {
      // a local file's size is the opened file's: a log swapped after the open is not mixed in
      const st = local ? await local.stat() : await this.source!.stat();
      let kind: UpdateResult['kind'] = 'append';
      const head = Buffer.alloc(Math.min(HEAD, st.size));
      if (head.length > 0) await fh.read(head, 0, head.length, 0);
      const id = this.identity;
      const replaced =
        id !== undefined &&
        (id.dev !== st.dev ||
          id.ino !== st.ino ||
          st.size < this.committed ||
          !head.subarray(0, Math.min(head.length, id.head.length)).equals(id.head.subarray(0, Math.min(head.length, id.head.length))));
      if (replaced) {
        this.resetAll();
        kind = 'reset';
      }
      this.identity = { dev: st.dev, ino: st.ino, head };
      const foreign = this.committed === 0 ? foreignEncoding(head) : undefined;
      if (foreign !== undefined)
        throw new LogEncodingError(`${this.path} is ${foreign}, not UTF-8: convert it first (e.g. iconv -f UTF-16 -t UTF-8)`);
      if (this.tailMark !== undefined) {
        this.sink.rollback(this.tailMark);
        this.tailMark = undefined;
        this.lines--;
      }
      if (st.size === this.committed && !replaced) {
        if (this.pendingTail) this.pendingTail = false;
        return { kind: 'none', bytesRead: 0, newLines: 0 };
      }
      const startLines = this.lines;
      const read = await this.readFrom(fh, st.size, onProgress, signal);
      return { kind, bytesRead: read, newLines: this.lines - startLines };
    } finally {
      await fh.close();
    }
  }

  /**
   * Reads the whole lines of [start, end) of the file (`end` just after a newline, or the
   * file's end), numbering them from 1: one part of a file indexed in parallel. Its reads
   * end where a read of the whole file would (at `align` plus a multiple of the chunk
   * size), so that a part decides everything a whole read decides at a chunk's end alike.
   */
  async readPart(start: number, end: number, align: number, signal?: AbortSignal): Promise<void> {
    this.resetAll();
    this.committed = start;
    const fh = await openLog(this.path);
    try {
      await this.readFrom(fh, end, undefined, signal, align);
    } finally {
      await fh.close();
    }
  }

  private async readFrom(
    fh: ByteHandle,
    size: number,
    onProgress?: (p: ReadProgress) => void,
    signal?: AbortSignal,
    align?: number,
  ): Promise<number> {
    let pos = this.committed;
    const startPos = pos;
    if (pos === 0 && size >= 3) {
      const bom = Buffer.alloc(3);
      await fh.read(bom, 0, 3, 0);
      if (bom[0] === 0xef && bom[1] === 0xbb && bom[2] === 0xbf) {
        pos = 3;
        this.committed = 3;
      }
    }
    let readPos = pos;
    const base = align ?? pos;
    /** file offset of an over-long line being skipped unread, while its end is not found */
    let skipping: number | undefined;
    // two buffers: the next chunk is read into one while the other is parsed, each chunk past a
    // room into which the line it cuts (carried from the chunk before) is copied, not the chunk
    const span = Math.min(CHUNK, Math.max(0, size - readPos));
    const slots = [Buffer.allocUnsafe(ROOM + span), Buffer.allocUnsafe(ROOM + span)];
    const slotOf = (k: number): Buffer => slots[k] ?? slots[0]!;
    let slot = 0;
    const startRead = (at: number): Promise<number> =>
      fh.read(slotOf(slot), ROOM, Math.min(CHUNK - ((((at - base) % CHUNK) + CHUNK) % CHUNK), size - at), at).then((r) => r.bytesRead);
    let inflight: Promise<number> | undefined = readPos < size ? startRead(readPos) : undefined;
    /** the bytes carried from the chunk before (the start of a line): tail[tailAt, tailAt + carry) */
    let tail: Buffer = slotOf(1);
    let tailAt = 0;
    let carry = 0;
    while (inflight) {
      const bytesRead = await inflight;
      if (bytesRead === 0) break;
      signal?.throwIfAborted();
      const into = slotOf(slot);
      // buf[s0] is the byte at file offset pos
      const s0 = carry <= ROOM ? ROOM - carry : 0;
      const buf = carry <= ROOM ? into : this.joined(tail, tailAt, carry, into, bytesRead);
      if (carry <= ROOM) tail.copy(into, s0, tailAt, tailAt + carry);
      // the carried bytes are out of the other buffer: the next chunk may go there
      slot ^= 1;
      readPos += bytesRead;
      inflight = readPos < size ? startRead(readPos) : undefined;
      const filled = s0 + carry + bytesRead;
      let lineStart = s0;
      // the carried bytes hold no newline: search after them
      let from = s0 + carry;
      // one check of the chunk's whole lines; only a chunk with bad bytes is checked line by line
      const lastNl = buf.lastIndexOf(0x0a, filled - 1);
      this.checkUtf8 = lastNl >= s0 && !isUtf8(buf.subarray(s0, lastNl));
      if (skipping !== undefined) {
        const nl = buf.indexOf(0x0a, s0);
        if (nl < 0 || nl >= filled) {
          pos += filled - s0;
          carry = 0;
          onProgress?.({ bytesDone: readPos, bytesTotal: size });
          continue;
        }
        this.lines++;
        this.skip(this.lines, `longer than ${this.maxLine} bytes (${pos + nl - s0 - skipping} bytes): skipped unread`);
        lineStart = nl + 1;
        from = lineStart;
        skipping = undefined;
      }
      for (;;) {
        const nl = buf.indexOf(0x0a, from);
        if (nl < 0 || nl >= filled) break;
        this.handle(buf, lineStart, nl, pos + lineStart - s0);
        lineStart = nl + 1;
        from = lineStart;
      }
      pos += lineStart - s0;
      this.committed = pos;
      carry = filled - lineStart;
      tail = buf;
      tailAt = lineStart;
      if (carry > this.maxLine) {
        // no end in sight: drop the bytes, find the end, skip the line
        skipping = pos;
        pos += carry;
        carry = 0;
      }
      this.sink.chunkDone?.();
      onProgress?.({ bytesDone: readPos, bytesTotal: size });
      await new Promise<void>((r) => setImmediate(r));
    }
    // the last line has no newline yet: offer it provisionally (an over-long one is skipped once complete)
    this.pendingTail = skipping === undefined && carry > 0 && !isBlank(tail, tailAt, tailAt + carry);
    if (this.pendingTail) {
      const mark = this.sink.mark();
      const skippedBefore = this.skippedCount;
      const keptBefore = this.skipped.length;
      this.lines++;
      let err: string | undefined;
      const tailEnd = trimCr(tail, tailAt, tailAt + carry);
      try {
        // a record still being written may end inside a character: not yet one to read
        err = isUtf8(tail.subarray(tailAt, tailEnd)) ? this.sink.line(tail, tailAt, tailEnd, pos, this.lines) : 'not valid UTF-8';
      } catch (e) {
        err = errorMessage(e);
      }
      if (err !== undefined) {
        // not complete yet: not an error, it is read again when the file grows
        this.sink.rollback(mark);
        this.lines--;
        this.skippedCount = skippedBefore;
        this.skipped.length = keptBefore;
      } else {
        this.tailMark = mark;
      }
      this.sink.chunkDone?.();
    }
    return readPos - startPos;
  }

  /** The carried bytes and the chunk read after them in one buffer: a line longer than the room a chunk keeps for it. */
  private joined(tail: Buffer, at: number, carry: number, chunk: Buffer, n: number): Buffer {
    let out = this.buf;
    if (out.length < carry + n) out = Buffer.allocUnsafe(Math.max(out.length * 2, carry + n, CHUNK));
    // from the same buffer, a move to its start (copy is a memmove)
    tail.copy(out, 0, at, at + carry);
    chunk.copy(out, carry, ROOM, ROOM + n);
    this.buf = out;
    return out;
  }

  private handle(buf: Buffer, start: number, nl: number, fileOffset: number): void {
    this.lines++;
    const end = trimCr(buf, start, nl);
    if (end - start > this.maxLine)
      return this.skip(this.lines, `longer than ${this.maxLine} bytes (${end - start} bytes): skipped unread`);
    if (isBlank(buf, start, end)) return;
    if (this.checkUtf8 && !isUtf8(buf.subarray(start, end))) return this.skip(this.lines, 'not valid UTF-8');
    let err: string | undefined;
    try {
      err = this.sink.line(buf, start, end, fileOffset, this.lines);
    } catch (e) {
      // whatever a line does to its reader, it costs that line only
      err = `cannot be read: ${errorMessage(e)}`;
    }
    if (err !== undefined) this.skip(this.lines, err);
  }

  private skip(line: number, message: string): void {
    this.skippedCount++;
    if (this.skipped.length < MAX_SKIPPED_KEPT) this.skipped.push({ line, message });
  }
}

function trimCr(buf: Buffer, start: number, end: number): number {
  return end > start && buf[end - 1] === 0x0d ? end - 1 : end;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

/** Reads `length` bytes at `offset` of a file. */
export async function readRange(path: string, offset: number, length: number): Promise<Buffer> {
  const fh = await openLog(path);
  try {
    const out = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await fh.read(out, done, length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return out.subarray(0, done);
  } finally {
    await fh.close();
  }
}
