/**
 * Reads the byte ranges of selected records in file order, from a local file (one file
 * handle) or a source that reads a range (a Hub log read in place: one range request a
 * read), with a bounded window: neighbouring ranges share one read, a gap larger than `maxGap` is
 * skipped, and no read is larger than `window` unless one record is. Memory is the
 * window (or the largest record), whatever the size of the file or the selection.
 */
import type { FileHandle } from 'node:fs/promises';
import { openLog } from '../log/logFile';

/** Where each record lies in the file (an index's offset and length columns). */
export interface RangeSource {
  offset(id: number): number;
  length(id: number): number;
}

/** A log that is not a local file: its bytes by range (a Hub log read in place). */
export interface RangeOrigin {
  /** `keep` false: what is fetched is not kept in a local cache of ranges (an export reads each record once) */
  readRange(offset: number, length: number, keep?: boolean): Promise<Buffer>;
}

/** Reads `span` bytes from `start`: fewer when the log ends before. */
interface SpanReader {
  read(start: number, span: number): Promise<Buffer>;
  close(): Promise<void>;
}

/** Reads from `fh`; `close` closes it when `owned`. */
function fileReader(fh: FileHandle, window: number, owned: boolean): SpanReader {
  let buf = Buffer.allocUnsafe(Math.min(window, 1 << 16));
  return {
    read: async (start, span) => {
      if (buf.length < span) buf = Buffer.allocUnsafe(Math.max(span, Math.min(buf.length * 2, window)));
      let got = 0;
      while (got < span) {
        const { bytesRead } = await fh.read(buf, got, span - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    },
    close: () => (owned ? fh.close() : Promise.resolve()),
  };
}

const originReader = (o: RangeOrigin): SpanReader => ({
  read: (start, span) => o.readRange(start, span, false),
  close: async () => undefined,
});

export interface ReadWindowOptions {
  /** largest read, in bytes (a single larger record is read alone) */
  window?: number;
  /** largest unselected gap read through rather than skipped */
  maxGap?: number;
  signal?: AbortSignal;
  /** after each read: bytes read so far */
  onRead?: (bytesRead: number) => void;
  /** the log already open (`openLog`), left open: a caller reading many selections of it opens it once */
  log?: FileHandle;
}

export interface RangeBytes {
  id: number;
  /** valid only until the next iteration step: copy what must outlive it */
  bytes: Buffer;
}

const DEFAULT_WINDOW = 1 << 20;
const DEFAULT_MAX_GAP = 64 * 1024;

/** The ids sorted by their offset in the file (stable), as a new array. */
export function inFileOrder(ids: ArrayLike<number>, src: RangeSource): Int32Array {
  return Int32Array.from(ids).sort((a, b) => src.offset(a) - src.offset(b) || a - b);
}

/** How many ids from `from` (in file order) one read covers. */
export function groupEnd(ids: ArrayLike<number>, from: number, src: RangeSource, window: number, maxGap: number): number {
  const start = src.offset(ids[from]!);
  let end = start + src.length(ids[from]!);
  let j = from + 1;
  for (; j < ids.length; j++) {
    const o = src.offset(ids[j]!);
    const e = o + src.length(ids[j]!);
    if (o < end || o - end > maxGap || e - start > window) break;
    end = e;
  }
  return j;
}

/**
 * Yields each range's bytes, for `ids` already in file order (see `inFileOrder`). A
 * range that the file no longer holds in full (the file shrank) is an error naming the file.
 */
export async function* readRanges(
  path: string,
  ids: ArrayLike<number>,
  src: RangeSource,
  opts: ReadWindowOptions & { origin?: RangeOrigin } = {},
): AsyncGenerator<RangeBytes> {
  const window = opts.window ?? DEFAULT_WINDOW;
  const maxGap = opts.maxGap ?? DEFAULT_MAX_GAP;
  const reader = opts.origin
    ? originReader(opts.origin)
    : opts.log
      ? fileReader(opts.log, window, false)
      : fileReader(await openLog(path), window, true);
  try {
    let total = 0;
    for (let i = 0; i < ids.length;) {
      opts.signal?.throwIfAborted();
      const j = groupEnd(ids, i, src, window, maxGap);
      const start = src.offset(ids[i]!);
      const span = src.offset(ids[j - 1]!) + src.length(ids[j - 1]!) - start;
      const buf = await reader.read(start, span);
      total += buf.length;
      opts.onRead?.(total);
      for (; i < j; i++) {
        const id = ids[i]!;
        const from = src.offset(id) - start;
        const len = src.length(id);
        if (from + len > buf.length)
          throw new Error(`${path}: the file changed on disk (the record at byte ${start + from} is gone); index it again`);
        yield { id, bytes: buf.subarray(from, from + len) };
      }
    }
  } finally {
    await reader.close();
  }
}
