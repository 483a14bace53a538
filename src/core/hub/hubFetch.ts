/**
 * The fetch that `@huggingface/hub` is given. It follows redirects itself so that the
 * Authorization header never leaves the endpoint's origin (a CDN redirect gets none),
 * carries the caller's AbortSignal, and keeps the `Retry-After` of the last 429.
 */

export interface HubFetch {
  fetch: typeof fetch;
  /** seconds the Hub asked to wait in its last 429, if any */
  lastRetryAfter(): number | undefined;
  /** `X-Error-Code` of the last failed response (RepoNotFound, RevisionNotFound, EntryNotFound...) */
  lastErrorCode(): string | undefined;
  /** HTTP status of the last response */
  lastStatus(): number | undefined;
}

const MAX_REDIRECTS = 10;

export function makeHubFetch(endpoint: string, signal?: AbortSignal, base: typeof fetch = fetch): HubFetch {
  const origin = new URL(endpoint).origin;
  let retryAfter: number | undefined;
  let errorCode: string | undefined;
  let status: number | undefined;
  const hubFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    let method = init?.method ?? 'GET';
    let body = init?.body;
    for (let hop = 0; ; hop++) {
      if (url.origin !== origin) headers.delete('authorization');
      const res = await base(url, { ...init, method, body, headers, redirect: 'manual', signal: signal ?? init?.signal ?? null });
      if (res.status === 429) {
        const ra = res.headers.get('retry-after');
        const secs = ra === null ? NaN : /^\d+$/.test(ra.trim()) ? Number(ra) : (Date.parse(ra) - Date.now()) / 1000;
        retryAfter = Number.isFinite(secs) ? Math.max(0, secs) : undefined;
      }
      status = res.status;
      if (res.status >= 400) errorCode = res.headers.get('x-error-code') ?? undefined;
      if (res.status < 300 || res.status >= 400 || res.status === 304) return res;
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
  return { fetch: hubFetch, lastRetryAfter: () => retryAfter, lastErrorCode: () => errorCode, lastStatus: () => status };
}
