/**
 * The fetch that `@huggingface/hub` is given. It follows redirects itself so that the
 * Authorization header never leaves the endpoint's origin (a CDN or Xet bridge redirect
 * gets none), carries the caller's AbortSignal, keeps how long the last 429 asked to wait
 * (`Retry-After`, else the `t=` of the IETF `RateLimit` header), and can cap the bodies
 * it hands on and watch the URLs asked for (a listing that loops), and drops a request
 * that receives nothing for a while (an API call on a link that went silent).
 */
import { StallWatch, linkedAbort } from './stallWatch';

export interface HubFetch {
  fetch: typeof fetch;
  /** seconds the Hub asked to wait in its last 429, if any */
  lastRetryAfter(): number | undefined;
  /** `X-Error-Code` of the last failed response (RepoNotFound, RevisionNotFound, EntryNotFound...) */
  lastErrorCode(): string | undefined;
  /** HTTP status of the last response */
  lastStatus(): number | undefined;
  /** the stall timeout (ms) of the watch that dropped the last request, if one did */
  lastStall(): number | undefined;
  /** the URL of the last request sent (after redirects: the CDN's, for a file) */
  lastUrl(): URL | undefined;
}

export interface HubFetchOptions {
  /** the most bytes a body may have, by URL and status (undefined: no limit) */
  bodyLimit?: (url: URL, status: number) => number | undefined;
  /** called before each request (redirects included); may throw to stop it */
  onRequest?: (url: URL) => void;
  /** a request that receives nothing (no headers, no body byte) for this long is aborted (ms; undefined: never) */
  stallMs?: number;
}

const MAX_REDIRECTS = 10;

export function makeHubFetch(endpoint: string, signal?: AbortSignal, base: typeof fetch = fetch, opts: HubFetchOptions = {}): HubFetch {
  const origin = new URL(endpoint).origin;
  let retryAfter: number | undefined;
  let errorCode: string | undefined;
  let status: number | undefined;
  let stall: number | undefined;
  let last: URL | undefined;
  const follow = async (input: string | URL | Request, init: RequestInit | undefined, signal: AbortSignal | null): Promise<Response> => {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    let method = init?.method ?? 'GET';
    let body = init?.body;
    for (let hop = 0; ; hop++) {
      if (url.origin !== origin) headers.delete('authorization');
      opts.onRequest?.(url);
      last = url;
      const res = await base(url, { ...init, method, body, headers, redirect: 'manual', signal });
      if (res.status === 429) retryAfter = waitSeconds(res.headers);
      status = res.status;
      if (res.status >= 400) errorCode = res.headers.get('x-error-code') ?? undefined;
      if (res.status < 300 || res.status >= 400 || res.status === 304) {
        const limit = opts.bodyLimit?.(url, res.status);
        return limit === undefined ? res : await capped(res, limit, url);
      }
      const loc = res.headers.get('location');
      if (!loc) return res;
      if (hop >= MAX_REDIRECTS) throw new Error(`too many redirects at ${url.origin}`);
      await res.body?.cancel();
      url = new URL(loc, url);
      if (res.status === 303) {
        method = 'GET';
        body = undefined;
      }
    }
  };
  const hubFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const parent = signal ?? init?.signal ?? null;
    const ms = opts.stallMs;
    if (ms === undefined) return follow(input, init, parent);
    stall = undefined;
    const link = linkedAbort(parent ?? undefined);
    let received = 0;
    const watch = new StallWatch(
      ms,
      () => received,
      () => {
        if (!parent?.aborted) stall = ms;
        link.abort();
      },
    );
    try {
      const res = await follow(input, init, link.signal);
      received++;
      return counted(
        res,
        (n) => (received += n),
        () => watch.stop(),
      );
    } catch (e) {
      watch.stop();
      throw e;
    }
  };
  return {
    fetch: hubFetch,
    lastRetryAfter: () => retryAfter,
    lastErrorCode: () => errorCode,
    lastStatus: () => status,
    lastStall: () => stall,
    lastUrl: () => last,
  };
}

/** The response with each body chunk reported to `moved`, and `done` called when the body ends, fails or is cancelled. */
function counted(res: Response, moved: (n: number) => void, done: () => void): Response {
  if (!res.body) {
    done();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(ctl): Promise<void> {
      try {
        const r = (await reader.read()) as { done: boolean; value?: Uint8Array };
        if (r.done || !r.value) {
          done();
          ctl.close();
        } else {
          moved(r.value.length);
          ctl.enqueue(r.value);
        }
      } catch (e) {
        done();
        ctl.error(e);
      }
    },
    cancel(reason): Promise<void> {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
/** What a 429 asks: `Retry-After` (seconds or a date), else the reset `t=` of `RateLimit` for a policy with nothing left. */
export function waitSeconds(h: Headers): number | undefined {
  const ra = h.get('retry-after')?.trim();
  if (ra) {
    const secs = /^\d+$/.test(ra) ? Number(ra) : (Date.parse(ra) - Date.now()) / 1000;
    if (Number.isFinite(secs)) return Math.max(0, secs);
  }
  // RateLimit: "resolvers";r=0;t=42  (several policies may be listed, comma-separated)
  const rl = h.get('ratelimit');
  if (!rl) return undefined;
  let wait: number | undefined;
  for (const item of rl.split(',')) {
    const r = /;\s*r=(\d+)/.exec(item);
    const t = /;\s*t=(\d+)/.exec(item);
    if (t && (!r || Number(r[1]) === 0)) wait = Math.max(wait ?? 0, Number(t[1]));
  }
  return wait;
}

class BodyTooBig extends Error {
  constructor(url: URL, limit: number) {
    super(`the answer to ${url.pathname} is over ${limit} bytes; refusing it`);
    this.name = 'BodyTooBig';
  }
}

/** The response with its body cut off (as an error) past `limit` bytes. */
async function capped(res: Response, limit: number, url: URL): Promise<Response> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await res.body?.cancel();
    throw new BodyTooBig(url, limit);
  }
  if (!res.body) return res;
  let seen = 0;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        seen += chunk.length;
        if (seen > limit) ctl.error(new BodyTooBig(url, limit));
        else ctl.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
