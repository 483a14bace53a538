/**
 * The behaviour tags' cost, measured finely interleaved: the log is copied slice by slice
 * (about 16 MB, cut at a line end) into a growing file, and after each slice two indexes
 * of that file, one with the tags and one without, each read the new slice, in alternating
 * order. Both read every byte of the whole log; a slowdown of the machine that lasts longer
 * than a slice (a neighbour on a shared host) falls on both alike, where whole-file rounds
 * seconds apart can land on one mode only.
 */
import { appendFileSync, closeSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { CreditIndex } from '../src/core/log/creditIndex';

const SLICE_BYTES = 16 << 20;

export interface InterleavedCost {
  slices: number;
  withMs: number;
  withoutMs: number;
  /** with / without over the whole log, wall and CPU time */
  ratio: number;
  cpuRatio: number;
  /** the median of the slices' own ratios */
  sliceMedian: number;
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The next slice of `fd` from `pos`: whole lines, about SLICE_BYTES. */
function nextSlice(fd: number, pos: number, size: number, buf: Buffer): Buffer {
  const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
  const end = pos + n >= size ? n : buf.lastIndexOf(10, n - 1) + 1;
  if (end <= 0) throw new Error(`a line longer than ${buf.length} bytes at byte ${pos}`);
  return buf.subarray(0, end);
}

interface Side {
  index: CreditIndex;
  ms: number;
  cpu: number;
}

async function timedUpdate(side: Side): Promise<number> {
  const t0 = performance.now();
  const c0 = cpuMs();
  await side.index.update();
  const ms = performance.now() - t0;
  side.ms += ms;
  side.cpu += cpuMs() - c0;
  return ms;
}

/** `log` indexed with and without the tags, slice by slice into `growing` (removed after). */
export async function interleavedTagCost(log: string, growing: string): Promise<InterleavedCost> {
  writeFileSync(growing, '');
  const withTags: Side = { index: new CreditIndex(growing, undefined, undefined, {}), ms: 0, cpu: 0 };
  const without: Side = { index: new CreditIndex(growing, undefined, undefined, { noBehaviour: true }), ms: 0, cpu: 0 };
  const size = statSync(log).size;
  const fd = openSync(log, 'r');
  const buf = Buffer.allocUnsafe(SLICE_BYTES);
  const ratios: number[] = [];
  try {
    for (let pos = 0, k = 0; pos < size; k++) {
      const slice = nextSlice(fd, pos, size, buf);
      appendFileSync(growing, slice);
      pos += slice.length;
      (globalThis as { gc?: () => void }).gc?.();
      const [first, second] = k % 2 === 0 ? [without, withTags] : [withTags, without];
      const a = await timedUpdate(first);
      const b = await timedUpdate(second);
      ratios.push(first === withTags ? a / b : b / a);
    }
  } finally {
    closeSync(fd);
    rmSync(growing, { force: true });
  }
  if (withTags.index.size !== without.index.size)
    throw new Error(`the two indexes disagree: ${withTags.index.size} and ${without.index.size}`);
  return {
    slices: ratios.length,
    withMs: withTags.ms,
    withoutMs: without.ms,
    ratio: withTags.ms / without.ms,
    cpuRatio: withTags.cpu / without.cpu,
    sliceMedian: median(ratios),
  };
}
