/**
 * How many cores other processes keep busy now: the machine's CPU time (`os.cpus()`) over the
 * span since this module was loaded, less this process's own. The 1-minute load average lags:
 * after a build, or the index a moment before, it still counts a core as busy for a minute
 * after that core went idle, and a second thread that would pay was not started. A span too
 * short to judge, or too long to say "now" (a long-running host), tells nothing: the caller
 * then falls back to the load average.
 */
import { cpus } from 'node:os';

export interface CpuSnapshot {
  /** ms on the monotonic clock */
  at: number;
  /** CPU ms every core spent busy since boot */
  machineMs: number;
  /** CPU ms this process spent, every thread of it */
  ownMs: number;
}

/** A span shorter than this says little: the cores' times tick every 10 ms (two cores over 100 ms: within 0.2 of a core). */
const MIN_SPAN_MS = 100;
/** A span longer than this is not "now". */
const MAX_SPAN_MS = 10_000;

export function cpuSnapshot(): CpuSnapshot {
  let busy = 0;
  for (const c of cpus()) busy += c.times.user + c.times.nice + c.times.sys + c.times.irq;
  const own = process.cpuUsage();
  return { at: performance.now(), machineMs: busy, ownMs: (own.user + own.system) / 1000 };
}

/** The cores other processes kept busy between two snapshots; undefined when the span is too short or too long to judge. */
export function othersBusy(from: CpuSnapshot, to: CpuSnapshot): number | undefined {
  const span = to.at - from.at;
  if (span < MIN_SPAN_MS || span > MAX_SPAN_MS) return undefined;
  return Math.max(0, (to.machineMs - from.machineMs - (to.ownMs - from.ownMs)) / span);
}

/** Taken when the process loads this module: the CLI's entry imports it first, so it is the process's start. */
const loaded = cpuSnapshot();

/**
 * The cores other processes keep busy since this process started; undefined when that says
 * nothing (see `othersBusy`). Asked for sooner than `MIN_SPAN_MS` after the start, it waits for
 * the rest of it first (a CLI chooses its threads some 40 ms after it starts).
 */
export async function busyCoresNow(): Promise<number | undefined> {
  const early = MIN_SPAN_MS - (performance.now() - loaded.at);
  if (early > 0) await new Promise((r) => setTimeout(r, early));
  return othersBusy(loaded, cpuSnapshot());
}
