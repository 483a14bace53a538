/**
 * The connection pool's bound: a semaphore whose limit adapts. It starts with `initial`
 * connections (one by default) and doubles them each half window while ranges wait and the rate grows with them
 * (a slow start, as TCP's); the first doubling that buys nothing is given back and ends the
 * slow start. From then on it adds one a window while the bytes a window grew with the last
 * one added (one that bought nothing is given back; another is tried after a plateau of a
 * few seconds). A 429, a 5xx or a stall halves it (at most once a window, never below one)
 * and holds it there for a few windows. A throttled server thus gets fewer connections,
 * never none: every range is retried on the connections that remain. So a link that one
 * connection fills (the CPU is the limit) stays at one or two, and a CDN that caps each
 * connection gets many within a second or two. The limit never exceeds `max`.
 *
 * Each connection's own rate (its bytes over the time it was receiving them, told by
 * `flowed`) judges a growth too: a connection added late in a window, still on its way to
 * its first byte, does not make the growth look like nothing. When the connections added
 * kept each connection's rate (a cap per connection: each one adds the same rate), the slow
 * start grows by four at its next step rather than two; when they did not, the pool keeps as
 * many connections as the rate they brought is worth, not fewer than before the growth.
 *
 * With `busy` (the share of the last window this thread was busy), one connection is not
 * doubled when the doubling could not pass the judgement above even if the rate grew until
 * the thread is busy all the time: one connection that already keeps the thread 70% busy
 * can at most make it 1.4x, where a doubling must make 1.5x. A client that is its own
 * limit (Node's fetch, the hash and the writes on one thread) thus stays at one connection
 * from the first window, and pays no trial of a second one. The thread's load is not the
 * download's alone (an extension host's other work, a profiler): when one connection's
 * reads waited for their bytes most of the time (`waited`, at least `LINK_WAIT` of the
 * span), the link is what holds it back and it doubles whatever the thread's load.
 */
export interface AdaptiveOptions {
  initial: number;
  max: number;
  /** how often the rate is judged (ms) */
  windowMs: number;
  /** a line for the progress events when the server pushed back */
  onBackoff?: (line: string) => void;
  /** the share (0-1) of the time since its last call this thread was busy; without it every growth is tried */
  busy?: () => number;
}

/** The event loop's utilization since the last call (the first call: since the first call). */
export function eventLoopBusy(): () => number {
  let mark = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const u = performance.eventLoopUtilization(now, mark).utilization;
    mark = now;
    return u;
  };
}

/**
 * The share of a span one connection's reads waited for bytes above which the link, not
 * the thread, is the limit: behind a capped link nearly all of a read is waiting, while a
 * busy thread shows far less (the wait then holds the fetch's own parsing).
 */
const LINK_WAIT = 0.9;
/** A rate counts as grown when it beats the last by this share of what the connections added would add. */
const GROWTH_SHARE = 0.5;
/**
 * A growth kept each connection's rate when it stayed within this share of the rate before it,
 * either way: one that rose more is a connection warming up (its first second), not a cap.
 */
const FLAT_SHARE = 0.8;
/** The slow start's step after a growth that kept each connection's rate. */
const FAST_STEP = 4;
/** A growth is judged once its connections received for this share of the span (in all)... */
const COVERED = 0.75;
/** ...or once it waited this many half windows for that. */
const MAX_DEFERRED = 2;
/** Windows without growth after a back-off. */
const COOLDOWN_WINDOWS = 3;
/** Windows on a plateau before trying one more connection again. */
const PLATEAU_WINDOWS = 8;

export class AdaptiveLimit {
  private current: number;
  private active = 0;
  private peakActive = 0;
  private readonly waiters: (() => void)[] = [];
  private bytes = 0;
  private throttledWindow = false;
  private grew = false;
  private stopped = false;
  private base = 0;
  private cooldown = 0;
  private plateau = 0;
  /** doubling (true) or adding one (false) */
  private slowStart = true;
  /** connections the last growth added */
  private added = 0;
  /** half windows since the rate was last judged */
  private halves = 0;
  /** bytes arrived in a half window before this one (the rate is judged from the next) */
  private flowing = false;
  /** the thread's busy share over the span the last rate was judged on (0: the link is the limit) */
  private load = 0;
  /** ms the reads waited for bytes since the rate was last judged (every connection's summed) */
  private waits = 0;
  /** connection-ms the connections were receiving since the rate was last judged, and their bytes */
  private flowMs = 0;
  private flowBytes = 0;
  /** one connection's rate (bytes a ms) when the pool was judged before its last growth (0: unknown) */
  private basePerConnection = 0;
  /** the last growth kept each connection's rate: the slow start's next step is `FAST_STEP` */
  private fast = false;
  /** half windows a growth's judgement waited for the connections it added to receive */
  private deferred = 0;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly o: AdaptiveOptions) {
    this.current = Math.max(1, Math.min(o.initial, o.max));
    this.timer = setInterval(() => this.tick(), Math.max(1, o.windowMs / 2));
    this.timer.unref();
  }

  /**
   * Every half window: the slow start judges each half (it reaches 16 connections in two
   * windows from one, so a download starts on one connection without a slower ramp), later
   * each whole window. The rate is in bytes a whole window either way.
   */
  private tick(): void {
    // the first bytes' half window holds the request's start (the resolve, the redirect, the
    // connection): a base measured there would make the first doubling look like growth
    if (!this.flowing) {
      this.flowing = this.bytes > 0;
      this.restart();
      return;
    }
    this.halves++;
    if (!this.slowStart && this.halves < 2) return;
    const span = (this.halves * this.o.windowMs) / 2;
    // a growth is judged once the connections it added receive (most of the span, over all
    // of them): their wait for a first byte says nothing of the link, and the connections
    // before them alone would show each connection's rate as it was
    const receiving = this.flowMs === 0 || this.flowMs >= COVERED * Math.max(1, this.active) * span;
    if (this.grew && !receiving && this.deferred++ < MAX_DEFERRED) return this.restart();
    this.deferred = 0;
    const busy = this.o.busy?.() ?? 0;
    const waitShare = this.waits / span;
    this.load = this.current === 1 && waitShare >= LINK_WAIT ? 0 : busy;
    const rate = (this.bytes * 2) / this.halves;
    const perConnection = this.flowMs > 0 ? this.flowBytes / this.flowMs : 0;
    this.restart();
    this.judge(rate, perConnection);
  }

  /** A new span to measure: what was counted is dropped. */
  private restart(): void {
    this.halves = 0;
    this.bytes = 0;
    this.waits = 0;
    this.flowMs = 0;
    this.flowBytes = 0;
    this.o.busy?.();
  }

  get limit(): number {
    return this.current;
  }

  get inUse(): number {
    return this.active;
  }

  get peak(): number {
    return this.peakActive;
  }

  /** Waits for a connection slot; false when `signal` was aborted (or the pool stopped) meanwhile. */
  async acquire(signal: AbortSignal | undefined): Promise<boolean> {
    while (this.active >= this.current) {
      if (signal?.aborted || this.stopped) return false;
      await new Promise<void>((r) => {
        const done = (): void => {
          signal?.removeEventListener('abort', done);
          r();
        };
        this.waiters.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
    if (signal?.aborted || this.stopped) return false;
    this.active++;
    this.peakActive = Math.max(this.peakActive, this.active);
    return true;
  }

  release(): void {
    this.active--;
    this.wake();
  }

  /** Bytes that arrived on some connection. */
  moved(n: number): void {
    this.bytes += n;
  }

  /** A connection received `bytes` over `ms` (from its last read to this one; not the wait for its first byte). */
  flowed(ms: number, bytes: number): void {
    this.flowMs += ms;
    this.flowBytes += bytes;
  }

  /** A connection's read waited `ms` for its bytes. */
  waited(ms: number): void {
    this.waits += ms;
  }

  /** The server pushed back (429, 5xx, a stall): fewer connections. */
  throttled(): void {
    if (this.throttledWindow) return;
    this.throttledWindow = true;
    const next = Math.max(1, Math.floor(this.current / 2));
    if (next < this.current) this.o.onBackoff?.(`the server pushed back: ${this.current} → ${next} connections`);
    this.current = next;
    this.slowStart = false;
    this.fast = false;
    this.cooldown = COOLDOWN_WINDOWS;
    this.base = 0;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    for (const w of this.waiters.splice(0)) w();
  }

  private judge(rate: number, perConnection: number): void {
    const throttled = this.throttledWindow;
    this.throttledWindow = false;
    const grew = this.grew;
    this.grew = false;
    if (throttled) return;
    if (this.cooldown > 0) {
      this.base = rate;
      this.basePerConnection = perConnection;
      // the cooldown over: try one more connection again, as at the start
      if (--this.cooldown === 0 && this.waiters.length > 0) this.grow();
      return;
    }
    if (grew) {
      const before = Math.max(1, this.current - this.added);
      // each connection's rate times the connections: the rate once the added ones are receiving too
      const kept = this.basePerConnection > 0 && perConnection > 0 ? perConnection / this.basePerConnection : 0;
      const held = kept * this.current > before + GROWTH_SHARE * this.added;
      if (held || rate > this.base * (1 + (GROWTH_SHARE * this.added) / before)) {
        this.fast = kept >= FLAT_SHARE && kept <= 1 / FLAT_SHARE && this.added >= before;
        this.base = Math.max(rate, held ? perConnection * this.current * this.o.windowMs : 0);
        this.basePerConnection = perConnection;
        if (this.waiters.length > 0) this.grow();
      } else {
        // what was added bought little: keep what it was worth, add one at a time from now on
        const worth = kept > 0 ? Math.round(kept * this.current) : before;
        this.current = Math.max(before, Math.min(worth, this.current - 1));
        this.slowStart = false;
        this.fast = false;
        this.base = Math.max(this.base, rate);
        this.plateau = 0;
      }
      return;
    }
    if (this.waiters.length === 0) return;
    if (this.base === 0 || ++this.plateau >= PLATEAU_WINDOWS) {
      this.base = rate;
      this.basePerConnection = perConnection;
      this.plateau = 0;
      this.grow();
    }
  }

  private grow(): void {
    if (this.current >= this.o.max) return;
    const step = this.fast ? FAST_STEP : 2;
    const next = Math.min(this.slowStart ? this.current * step : this.current + 1, this.o.max, this.room());
    if (next <= this.current) {
      // the thread is the limit: no more connections can pass the judgement; one at a time from now on
      this.slowStart = false;
      this.plateau = 0;
      return;
    }
    this.added = next - this.current;
    this.current = next;
    this.grew = true;
    this.wake();
  }

  /**
   * The most connections whose rate could pass the judgement, if each added one brought its
   * share until the thread is busy all the time: x times the connections passes while
   * min(x, 1 / load) >= 1 + GROWTH_SHARE (x - 1).
   */
  private room(): number {
    // from one connection only: with more, each one's own cost (a CDN's pacing, its
    // requests) makes the thread's load a poor guide to what another one would bring
    if (this.load <= 0 || this.current > 1) return Infinity;
    const headroom = 1 / Math.min(1, this.load);
    return Math.floor(this.current * (1 + (headroom - 1) / GROWTH_SHARE) + 1e-9);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}
