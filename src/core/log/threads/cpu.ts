/** The CPU time of the calling thread (Linux: `/proc/thread-self/schedstat`), for the benchmark's serial-fraction figures. */
import { readFileSync } from 'node:fs';

export interface ThreadCpu {
  /** time this thread ran on a core since it started, in ms */
  cpuMs: number;
  /** time it was ready to run but waited for a core (the machine's load), in ms */
  waitMs: number;
}

/** This thread's CPU and run-queue wait since it started; undefined where the system does not say (not Linux). */
export function threadCpu(): ThreadCpu | undefined {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ').map(Number);
    return run === undefined || wait === undefined || !Number.isFinite(run + wait) ? undefined : { cpuMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}
