/**
 * How a Hub transfer survives a bad link: a stall watchdog that drops a transfer which
 * delivers nothing for a while, and bounded retries with doubling backoff (or the wait a
 * 429 asks for). The downloader and the logs read in place share them.
 */
import { HubError } from './errors';
import { StallWatch, linkedAbort } from './stallWatch';

/** The retry policy's knobs (the downloader's options carry the same names). */
export interface RetryPolicy {
  /** attempts after the first, for dropped links, stalls, 5xx and 429 (default 6) */
  retries?: number;
  /** first backoff, doubled each time (ms, default 500) */
  backoffMs?: number;
  /** a transfer that delivers no byte for this long (ms, default 30000) is dropped and resumed */
  stallTimeoutMs?: number;
}

export const DEFAULT_RETRIES = 6;
export const DEFAULT_STALL_MS = 30_000;
const DEFAULT_BACKOFF_MS = 500;
const MAX_WAIT_MS = 60_000;

export const cancelled = (): HubError => new HubError('cancelled', 'cancelled');

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((res, rej) => {
    const t = setTimeout(res, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        rej(cancelled());
      },
      { once: true },
    );
  });

/** The wait before retry number `failures` (from 1): the Hub's Retry-After for a 429, else the doubling backoff; at most a minute. */
export function retryWaitMs(e: HubError, failures: number, p: RetryPolicy): number {
  const wait =
    e.kind === 'rate-limited' && e.retryAfterSeconds !== undefined
      ? e.retryAfterSeconds * 1000
      : (p.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (failures - 1);
  return Math.min(wait, MAX_WAIT_MS);
}

/** Whether failure number `failures` (from 1) of `e` is worth another try under `p`. */
export const shouldRetry = (e: HubError, failures: number, p: RetryPolicy): boolean =>
  e.retriable && failures <= (p.retries ?? DEFAULT_RETRIES);

/**
 * A transfer's watch after the server answered (headers or bytes): a connection that went
 * silent then is dropped after this long (or the stall timeout, if shorter), and its span
 * resumed at once on a new one. Ten seconds is the official client's read timeout too.
 */
export const DEFAULT_ANSWERED_STALL_MS = 10_000;

/**
 * A download's first wait for the server's answer (its headers), on a span's first attempt: a
 * request that got no answer in this long is dropped and made again at once, so that it costs
 * at most about 16 s rather than the 30 s stall timeout. A retry after such a stall waits the
 * whole stall timeout (a server slow to answer, not a lost request, is then given its time).
 */
export const DEFAULT_FIRST_ANSWER_STALL_MS = 15_000;

/** A transfer dropped by its stall watch: retried at once on a new connection, without shrinking the pool. */
export class StallError extends HubError {
  constructor(
    readonly ms: number,
    from = 'the server',
    /** the server had not answered (no headers, no byte) */
    readonly beforeAnswer = false,
  ) {
    super('offline', `no byte for ${(ms / 1000).toFixed(1)} s from ${from}; dropping that connection and resuming on a new one`);
  }
}

/** The one line a stall ends a transfer with. */
export const stallError = (ms: number, from?: string, beforeAnswer?: boolean): StallError => new StallError(ms, from, beforeAnswer);

/**
 * Runs one attempt under a stall watch from its start, the request and its response headers
 * included: `attempt` gets a signal that the watch (or `parent`) aborts, and reports each
 * byte it receives with `moved` (`moved(0)`: the headers came). Once something came, the
 * watch is `answeredMs`. A stalled attempt fails with the stall's one line (naming `from()`).
 */
export async function watched<T>(
  ms: number,
  parent: AbortSignal | undefined,
  attempt: (signal: AbortSignal, moved: (n: number) => void) => Promise<T>,
  answeredMs = ms,
  from?: () => string | undefined,
): Promise<T> {
  const { signal, abort } = linkedAbort(parent);
  let received = 0;
  let answered = false;
  const watch = new StallWatch(ms, () => received + (answered ? 1 : 0), abort, answeredMs);
  try {
    return await attempt(signal, (n) => {
      received += n;
      answered = true;
    });
  } catch (e) {
    if (watch.stalled && !parent?.aborted) throw stallError(watch.firedAfter, from?.(), !answered);
    throw e;
  } finally {
    watch.stop();
  }
}

/**
 * Runs `attempt` until it succeeds, fails with an error not worth retrying, or has been
 * retried `retries` times, waiting the backoff between tries. Anything not a HubError, or
 * one `worth` says is not worth another try, is thrown as it is.
 */
export async function retrying<T>(
  p: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  worth: (e: HubError) => boolean = () => true,
): Promise<T> {
  for (let failures = 0; ;) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof HubError) || signal?.aborted) throw e;
      failures++;
      if (!worth(e) || !shouldRetry(e, failures, p))
        throw failures > 1 ? new HubError(e.kind, `${e.message} (after ${failures - 1} retries)`, e.retryAfterSeconds, e.status) : e;
      await sleep(retryWaitMs(e, failures, p), signal);
    }
  }
}
