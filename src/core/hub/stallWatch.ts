/** The watchdog of a transfer: it drops one that delivers nothing for a while (no error types here: the callers say what a stall means). */

/**
 * Drops a transfer that delivers nothing for `ms`: it samples a byte counter a few times
 * a period (nothing is added to the per-chunk path) and aborts the attempt. Once the counter
 * has moved (the server answered), the watch is `answeredMs`: a server that has answered and
 * then goes silent is dropped sooner than one still working out its first answer.
 */
export class StallWatch {
  private last = -1;
  private since = Date.now();
  private timer: ReturnType<typeof setInterval>;
  stalled = false;
  /** the silence (ms) after which the watch fired */
  firedAfter: number;

  constructor(
    readonly ms: number,
    count: () => number,
    abort: () => void,
    readonly answeredMs = ms,
  ) {
    this.firedAfter = ms;
    this.timer = setInterval(
      () => {
        const n = count();
        const now = Date.now();
        const limit = n > 0 ? Math.min(ms, answeredMs) : ms;
        if (n !== this.last) {
          this.last = n;
          this.since = now;
        } else if (now - this.since >= limit) {
          this.stalled = true;
          this.firedAfter = limit;
          this.stop();
          abort();
        }
      },
      // a tenth of the watch: a stall is seen at most a tenth late (a quarter cost 2.5 s of a 10 s watch)
      Math.max(20, Math.min(ms, answeredMs) / 10),
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
