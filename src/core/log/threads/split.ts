/** Where to cut a log into parts: each part starts at a line's start, so that no line (nor character) is cut. */
import type { FileHandle } from 'node:fs/promises';

const WINDOW = 64 * 1024;

/** Offset just after the first newline at or after `from`, or `limit` when there is none before it. */
async function lineStartAfter(fh: FileHandle, from: number, limit: number): Promise<number> {
  const buf = Buffer.allocUnsafe(WINDOW);
  for (let at = from; at < limit; at += WINDOW) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(WINDOW, limit - at), at);
    if (bytesRead === 0) break;
    const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
    if (nl >= 0) return at + nl + 1;
  }
  return limit;
}

/** Offset just after the file's last newline (0 when it has none). */
export async function endOfLastLine(fh: FileHandle, size: number): Promise<number> {
  const buf = Buffer.allocUnsafe(WINDOW);
  for (let end = size; end > 0; end -= WINDOW) {
    const at = Math.max(0, end - WINDOW);
    const { bytesRead } = await fh.read(buf, 0, end - at, at);
    const nl = buf.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (nl >= 0) return at + nl + 1;
  }
  return 0;
}

/**
 * The parts of [0, end) cut near `targets` (byte offsets): a cut moves forward to the start
 * of the next line (a target that is a line's start stays). Parts may be empty (a line
 * longer than the distance between two targets); they cover [0, end) in order.
 */
export async function cutAt(fh: FileHandle, end: number, targets: number[]): Promise<[number, number][]> {
  const cuts: number[] = [0];
  for (const t of [...targets].sort((a, b) => a - b)) {
    const prev = cuts[cuts.length - 1]!;
    const at = t <= 0 ? 0 : t >= end ? end : await lineStartAfter(fh, t - 1, end);
    cuts.push(Math.max(prev, at));
  }
  cuts.push(end);
  return cuts.slice(1).map((c, i) => [cuts[i]!, c]);
}

/** A part is at least this long, where the file allows (smaller parts cost their overhead for little balance). */
export const MIN_PART_BYTES = 8 * 1024 * 1024;

/**
 * The cuts of [0, end) for `n` threads that each take the next part when they finish one:
 * each part is half of what is left over `n` (guided self-scheduling), so the first parts are
 * long (few overheads) and the last ones short, and the threads finish within a short part of
 * each other whatever a core's speed or a byte's cost. Parts are at least `MIN_PART_BYTES`
 * (a quarter of an even share, in a smaller file).
 */
export function guidedTargets(end: number, n: number): number[] {
  const floor = Math.max(1, Math.min(MIN_PART_BYTES, Math.ceil(end / (4 * n))));
  const out: number[] = [];
  for (let at = 0; ;) {
    at += Math.max(floor, Math.ceil((end - at) / (2 * n)));
    if (at >= end) return out;
    out.push(at);
  }
}
