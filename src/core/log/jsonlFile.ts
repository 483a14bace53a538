/**
 * Incremental reading of a JSONL file by byte offsets: reads only bytes it has not
 * read, hands each complete line to a sink, notices a file that shrank or was
 * replaced, and treats a last line without its newline as a record still being
 * written (offered provisionally, taken back and re-read when the file grows).
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

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

const CHUNK = 4 * 1024 * 1024;
const HEAD = 256;
const MAX_SKIPPED_KEPT = 1000;

export class JsonlFile {
  /** bytes up to and including the last newline read */
  private committed = 0;
  private lines = 0;
  private tailMark: number | undefined;
  private identity: { dev: number; ino: number; head: Buffer } | undefined;
  private buf: Buffer = Buffer.allocUnsafe(CHUNK);
  private busy: Promise<UpdateResult> | undefined;
  readonly skipped: SkippedLine[] = [];
  skippedCount = 0;
  /** true while the last line of the file has no newline */
  pendingTail = false;

  constructor(
    readonly path: string,
    private readonly sink: LineSink,
  ) {}

  get bytesRead(): number {
    return this.committed;
  }

  get lineCount(): number {
    return this.lines;
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
    const st = await stat(this.path);
    const fh = await open(this.path, 'r');
    try {
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

  private async readFrom(fh: FileHandle, size: number, onProgress?: (p: ReadProgress) => void, signal?: AbortSignal): Promise<number> {
    let pos = this.committed;
    let carry = 0; // bytes at the start of buf carried from the previous chunk
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
    // the next chunk is read while this one is parsed
    const next = Buffer.allocUnsafe(CHUNK);
    const startRead = (at: number): Promise<number> => fh.read(next, 0, Math.min(CHUNK, size - at), at).then((r) => r.bytesRead);
    let inflight: Promise<number> | undefined = readPos < size ? startRead(readPos) : undefined;
    while (inflight) {
      const bytesRead = await inflight;
      if (bytesRead === 0) break;
      signal?.throwIfAborted();
      if (carry + bytesRead > this.buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, carry + bytesRead));
        this.buf.copy(bigger, 0, 0, carry);
        this.buf = bigger;
      }
      next.copy(this.buf, carry, 0, bytesRead);
      readPos += bytesRead;
      inflight = readPos < size ? startRead(readPos) : undefined;
      const filled = carry + bytesRead;
      const buf = this.buf;
      let lineStart = 0;
      for (;;) {
        const nl = buf.indexOf(0x0a, lineStart);
        if (nl < 0 || nl >= filled) break;
        this.handle(buf, lineStart, nl, pos + lineStart);
        lineStart = nl + 1;
      }
      pos += lineStart;
      this.committed = pos;
      carry = filled - lineStart;
      if (carry > 0 && lineStart > 0) buf.copy(buf, 0, lineStart, filled);
      this.sink.chunkDone?.();
      onProgress?.({ bytesDone: readPos, bytesTotal: size });
      await new Promise<void>((r) => setImmediate(r));
    }
    // the last line has no newline yet: offer it provisionally
    this.pendingTail = carry > 0 && !isBlank(this.buf, 0, carry);
    if (this.pendingTail) {
      const mark = this.sink.mark();
      const skippedBefore = this.skippedCount;
      const keptBefore = this.skipped.length;
      this.lines++;
      const err = this.sink.line(this.buf, 0, trimCr(this.buf, 0, carry), pos, this.lines);
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

  private handle(buf: Buffer, start: number, nl: number, fileOffset: number): void {
    this.lines++;
    const end = trimCr(buf, start, nl);
    if (isBlank(buf, start, end)) return;
    const err = this.sink.line(buf, start, end, fileOffset, this.lines);
    if (err !== undefined) {
      this.skippedCount++;
      if (this.skipped.length < MAX_SKIPPED_KEPT) this.skipped.push({ line: this.lines, message: err });
    }
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
  const fh = await open(path, 'r');
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
