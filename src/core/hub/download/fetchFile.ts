/**
 * Fetch one range of a file into its partial, or a span of its consecutive ranges by one
 * request: an HTTP range request (to the signed URL kept
 * from an earlier range, else through the Hub's resolve route), its bytes written in place
 * at their offset, about 1 MB a write with one write in flight. A 206 must be for exactly
 * the range asked; a 200 to a ranged request is the whole file, of which the range is taken.
 * The stall watchdog runs from the request on, so a server that never sends the headers is
 * dropped too.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { makeHubFetch } from '../hubFetch';
import type { HubFetch } from '../hubFetch';
import { HubError, toHubError, whoAt } from '../errors';
import type { DownloadItem, DownloadOptions } from './types';
import { DownloadError } from './types';
import { shown } from '../treeEntry';
import { DEFAULT_ANSWERED_STALL_MS, DEFAULT_FIRST_ANSWER_STALL_MS, DEFAULT_STALL_MS, cancelled, watched } from '../retry';
import type { ProgressMeter } from './progress';
import type { FileJob, Quota } from './fileJob';
import type { RangeState } from './manifest';
import { rangeDone } from './manifest';
import type { FileSource } from './source';
import { errorMessage } from '../../errorMessage';

export { encodePath } from './source';

const FLUSH_EVERY = 32 << 20;
const WRITE_BATCH = 1 << 20;
/**
 * A cancelled body's connection closes a moment after the cancel resolves (a few ms, more
 * in a cold process); fetch does not tell when. The slot is held
 * this long after it, so the next request does not overlap the closing one at the server.
 */
const CLOSING_MS = 50;

/** Bytes as MB with one decimal, for the line a cut transfer ends with. */
const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

export interface FetchContext {
  repo: string;
  commit: string;
  o: DownloadOptions;
  meter: ProgressMeter;
  /** the background flushes allowed at once over all files */
  syncs: Quota;
  /** every byte that arrives, for the pool's rate */
  moved: (n: number) => void;
  /** how long a read waited for bytes (ms), for the pool's judgement of the link */
  waited: (ms: number) => void;
  /** a connection received `bytes` over `ms` since its last read, for the pool's rate a connection */
  flowed: (ms: number, bytes: number) => void;
}

/** A signed URL kept from an earlier range expired: resolved again at once, not a failure of the link. */
export class SignedUrlExpired extends HubError {
  constructor(
    readonly url: string,
    from: string,
  ) {
    super('server', `the signed download URL from ${from} expired (HTTP 403); resolving it again`, undefined, 403);
  }
}

export function hubError(c: FetchContext, it: DownloadItem, e: unknown, hf?: HubFetch): HubError {
  const { o } = c;
  return toHubError(e, {
    endpoint: o.endpoint,
    repo: c.repo,
    revision: c.commit,
    path: it.path,
    token: o.token,
    ...(hf ? { hubFetch: hf } : { tokenSource: o.tokenSource }),
  });
}

/**
 * Consecutive ranges of one file fetched by one request (the first may be begun, the
 * others are not). Another connection may take its unstarted rest (`ranges` is then cut
 * short): the request then ends at the end of the range it is in.
 */
export interface Span {
  ranges: RangeState[];
  /** the range being written */
  cur: number;
}

/** What the scheduler is told of as a span's request runs. */
export interface SpanHooks {
  /** a range's bytes are all written */
  rangeDone: (r: RangeState) => void;
}

/**
 * One attempt at the rest of a span, under the stall watch; bytes that arrived are written on
 * any exit. `patient`: the last attempt got no answer in time, this one waits the whole stall
 * timeout for it (else the shorter first-answer watch).
 */
export async function fetchRange(
  c: FetchContext,
  job: FileJob,
  src: FileSource,
  span: Span,
  hooks: SpanHooks,
  patient = false,
): Promise<void> {
  const { o } = c;
  let hf: HubFetch | undefined;
  const ms = o.stallTimeoutMs ?? DEFAULT_STALL_MS;
  const first = patient ? ms : Math.min(ms, o.firstAnswerStallMs ?? DEFAULT_FIRST_ANSWER_STALL_MS);
  try {
    await watched(
      first,
      o.signal,
      (signal, moved) => {
        hf = makeHubFetch(o.endpoint, signal, o.baseFetch);
        return fetchBody(c, job, src, span, hf, moved, signal, hooks);
      },
      Math.min(ms, DEFAULT_ANSWERED_STALL_MS),
      () => (hf ? whoAt(hf.lastUrl(), o.endpoint) : undefined),
    );
  } catch (e) {
    throw e instanceof DownloadError || e instanceof HubError ? e : hubError(c, job.it, e, hf);
  }
}

interface Body {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** bytes of the body before the range (a 200 to a ranged request: the whole file) */
  skip: number;
}

async function openBody(c: FetchContext, job: FileJob, src: FileSource, from: number, end: number, hf: HubFetch): Promise<Body> {
  const { o } = c;
  const it = job.it;
  const last = end - 1;
  const { url, signed } = await src.url(hf);
  const headers: Record<string, string> = {};
  if (o.token) headers['Authorization'] = `Bearer ${o.token}`;
  const ranged = from > 0 || last < it.size - 1;
  if (ranged) headers['Range'] = `bytes=${from}-${last}`;
  const res = await hf.fetch(url, { headers });
  const finalUrl = res.url || url;
  const origin = new URL(finalUrl).origin;
  const refuse = async (e: Error): Promise<never> => {
    await res.body?.cancel().catch(() => undefined);
    throw e;
  };
  if (res.status === 403 && origin !== new URL(o.endpoint).origin) {
    if (signed) return refuse(new SignedUrlExpired(url, origin));
    return refuse(
      new HubError(
        'server',
        `the signed download URL from ${origin} expired or was refused (HTTP 403); resolving it again`,
        undefined,
        403,
      ),
    );
  }
  if (!res.ok) return refuse(Object.assign(new Error(`HTTP ${res.status}`), { statusCode: res.status }));
  if (res.status === 206) {
    const want = `bytes ${from}-${last}/${it.size}`;
    const got = res.headers.get('content-range');
    if (got?.trim() !== want)
      return refuse(
        new HubError('server', `${origin} answered with Content-Range ${shown(got)} to a request for ${want}; refused`, undefined, 206),
      );
  } else if (res.status !== 200) {
    return refuse(
      new HubError('server', `${whoAt(finalUrl, o.endpoint)} answered HTTP ${res.status} for ${it.path}`, undefined, res.status),
    );
  }
  if (!res.body) return refuse(new HubError('server', `${origin} sent no body for ${it.path}`));
  src.answered(finalUrl);
  const skip = res.status === 200 && ranged ? from : 0;
  if (skip > 0) c.meter.emit(`${it.target}: the server sent the whole file instead of bytes ${from}-${last}; taking that range from it`);
  return { reader: res.body.getReader(), skip };
}

/** The first range of the span not yet written to its end (its length when every one is). */
const firstOpen = (span: Span): number => {
  let i = 0;
  while (i < span.ranges.length && rangeDone(span.ranges[i]!)) i++;
  return i;
};

async function fetchBody(
  c: FetchContext,
  job: FileJob,
  src: FileSource,
  span: Span,
  hf: HubFetch,
  count: (n: number) => void,
  signal: AbortSignal,
  hooks: SpanHooks,
): Promise<void> {
  const { o, meter } = c;
  const it = job.it;
  span.cur = firstOpen(span);
  let r = span.ranges[span.cur];
  if (!r) return;
  const from = r.start + r.have;
  const asked = span.ranges[span.ranges.length - 1]!.end;
  const { reader, skip } = await openBody(c, job, src, from, asked, hf);
  // the headers came: the server answered, the shorter stall watch applies from here
  count(0);
  // a read pending when the attempt is aborted did not always settle (Node 20's fetch,
  // under load): the abort cancels the body, which ends the pending read
  // (a cancel that fails has nothing left to cancel: the body is gone either way)
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  if (signal.aborted) cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  const fh = await job.handle().catch((e: unknown) => {
    void reader.cancel().catch(() => undefined);
    throw e;
  });
  const flushEvery = o.flushEveryBytes ?? FLUSH_EVERY;
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let inflight: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const flush = async (into: RangeState): Promise<void> => {
    await inflight;
    if (pendingLen === 0) return;
    const bufs = pending;
    const n = pendingLen;
    pending = [];
    pendingLen = 0;
    const at = into.start + into.have;
    inflight = fh.writev(bufs, at).then(
      () => job.wrote(into, at, bufs, n, flushEvery, c.syncs),
      (e: unknown) => {
        writeError ??= e;
      },
    );
  };
  let skipLeft = skip;
  /** the stream's position: the next byte's offset in the file */
  let pos = from;
  const who = whoAt(hf.lastUrl(), o.endpoint);
  /** a connection that ended before the span did, in one line naming who it was to and how far it came */
  const closedEarly = (): HubError =>
    new HubError('offline', `the connection to ${who} closed after ${mb(pos)} of ${mb(it.size)} of ${it.path}`);
  /** when the last read returned bytes (the wait for the first byte is no connection's rate) */
  let lastAt: number | undefined;
  try {
    reading: for (;;) {
      const readAt = performance.now();
      let got: Awaited<ReturnType<typeof reader.read>>;
      try {
        got = await reader.read();
      } catch (e) {
        // aborted (a stall, a cancel): said where the abort is handled
        if (signal.aborted) throw e;
        throw closedEarly();
      }
      const now = performance.now();
      c.waited(now - readAt);
      if (got.done) break;
      let chunk = got.value;
      if (lastAt !== undefined) c.flowed(now - lastAt, chunk.length);
      lastAt = now;
      count(chunk.length);
      if (skipLeft > 0) {
        const s = Math.min(skipLeft, chunk.length);
        skipLeft -= s;
        chunk = chunk.subarray(s);
      }
      if (skip === 0 && pos + chunk.length > asked)
        throw new HubError('server', `${it.path}: the server sent more bytes than the range has`);
      while (chunk.length > 0) {
        const piece = chunk.subarray(0, r.end - pos);
        chunk = chunk.subarray(piece.length);
        pos += piece.length;
        c.moved(piece.length);
        pending.push(piece);
        pendingLen += piece.length;
        meter.received(piece.length);
        if (pos < r.end) {
          if (pendingLen >= WRITE_BATCH) await flush(r);
          continue;
        }
        // a range's end: told once its bytes are written (reading goes on meanwhile)
        await flush(r);
        const ended = r;
        inflight = inflight.then(() => {
          if (writeError === undefined) hooks.rangeDone(ended);
        });
        const next = span.ranges[span.cur + 1];
        if (next) {
          span.cur++;
          r = next;
          continue;
        }
        // the span's end: the body ends here, unless its rest went to other connections
        // meanwhile, or the server sent the whole file: then it is not read on
        if (skip === 0 && pos === asked) continue;
        await reader.cancel().catch(() => undefined);
        await delay(CLOSING_MS);
        break reading;
      }
      // a write failed: stop reading; the error is thrown below, naming the partial
      if (writeError !== undefined) break;
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    // what arrived intact is kept for the next attempt
    await flush(r).catch(() => undefined);
    await inflight;
  }
  if (writeError !== undefined)
    throw new DownloadError(`${it.path}: cannot write ${job.part}: ${errorMessage(writeError)}`, it.path, writeError);
  if (job.syncError)
    throw new DownloadError(`${it.path}: cannot flush ${job.part} to disk: ${job.syncError.message}`, it.path, job.syncError);
  if (o.signal?.aborted) throw cancelled();
  // the watchdog's abort (a stall) ended the read early
  if (signal.aborted) throw new HubError('offline', `the transfer of ${it.path} was dropped`);
  if (!rangeDone(r)) throw closedEarly();
}
