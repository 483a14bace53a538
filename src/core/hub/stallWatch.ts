/** The watchdog of a transfer: it drops one that delivers nothing for a while (no error types here: the callers say what a stall means). */

/**
 * Drops a transfer that delivers nothing for `ms`: it samples a byte counter a few times
 * a period (nothing is added to the per-chunk path) and aborts the attempt.
 */
export class StallWatch {
  private last = -1;
  private since = Date.now();
  private timer: ReturnType<typeof setInterval>;
  stalled = false;

  constructor(
    readonly ms: number,
    count: () => number,
    abort: () => void,
  ) {
    this.timer = setInterval(
      () => {
        const n = count();
        const now = Date.now();
        if (n !== this.last) {
          this.last = n;
          this.since = now;
        } else if (now - this.since >= ms) {
          this.stalled = true;
          this.stop();
          abort();
        }
      },
      Math.max(20, ms / 4),
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A signal aborted by `parent` or by calling `abort` (one attempt's, under a watchdog). */
export function linkedAbort(parent: AbortSignal | undefined): { signal: AbortSignal; abort: () => void } {
  const ac = new AbortController();
  return { signal: parent ? AbortSignal.any([parent, ac.signal]) : ac.signal, abort: () => ac.abort() };
}
