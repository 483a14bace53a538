/** The Hub's failures, as the user should read them. */
import type { HubFetch } from './hubFetch';
import { redact } from './config';

export type HubErrorKind =
  'not-found' | 'bad-token' | 'revision-not-found' | 'entry-not-found' | 'rate-limited' | 'offline' | 'server' | 'cancelled' | 'other';

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'HubError';
  }

  /** Worth another try: the link dropped, the server failed, or the Hub asked to wait. */
  get retriable(): boolean {
    return this.kind === 'offline' || this.kind === 'server' || this.kind === 'rate-limited';
  }
}

interface ApiErrorLike {
  statusCode?: number;
  message?: string;
  name?: string;
  cause?: unknown;
  code?: string;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

function networkCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    const c = cur as ApiErrorLike;
    if (typeof c.code === 'string' && NETWORK_CODES.has(c.code)) return c.code;
    cur = c.cause;
  }
  const msg = (e as ApiErrorLike)?.message ?? '';
  if (/fetch failed|terminated|other side closed|socket hang up|network|connection lost/i.test(msg)) return 'connection lost';
  return undefined;
}

/**
 * Who answered at `url`, for messages: the Hub (the endpoint's origin) or the CDN a file
 * request was redirected to, with its host, so that a CDN's failure is not blamed on the Hub.
 */
export function whoAt(url: URL | string | undefined, endpoint: string): string {
  if (url === undefined) return `the Hub (${hostOf(endpoint)})`;
  const u = typeof url === 'string' ? new URL(url) : url;
  return u.origin === new URL(endpoint).origin ? `the Hub (${u.host})` : `the CDN (${u.host})`;
}

const hostOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
};

export interface HubErrorContext {
  endpoint: string;
  repo: string;
  revision?: string;
  path?: string;
  token?: string;
  tokenSource?: string;
  hubFetch?: HubFetch;
}

/**
 * Turns whatever a Hub call threw into a HubError with a message for people. The token
 * (and anything shaped like one) is redacted from every message: a server may echo it.
 */
export function toHubError(e: unknown, ctx: HubErrorContext): HubError {
  const he = classify(e, ctx);
  const message = redact(he.message, ctx.token);
  return message === he.message ? he : new HubError(he.kind, message, he.retryAfterSeconds, he.status);
}

function classify(e: unknown, ctx: HubErrorContext): HubError {
  if (e instanceof HubError) return e;
  const err = e as ApiErrorLike;
  const stall = ctx.hubFetch?.lastStall();
  const who = whoAt(ctx.hubFetch?.lastUrl(), ctx.endpoint);
  if (stall !== undefined)
    return new HubError(
      'offline',
      `${who} sent nothing for ${(stall / 1000).toFixed(1)} s${ctx.path ? ` while answering for ${ctx.path}` : ''}; check the network`,
    );
  if (err?.name === 'AbortError') return new HubError('cancelled', 'cancelled');
  const status = err?.statusCode;
  const code = ctx.hubFetch?.lastErrorCode();
  const what = ctx.path ? `${ctx.repo}/${ctx.path}` : ctx.repo;
  if (status === undefined) {
    const net = networkCode(e);
    if (net === 'connection lost' || net === 'ECONNRESET' || net === 'EPIPE' || net === 'UND_ERR_SOCKET')
      return new HubError('offline', `the connection to ${who} dropped${ctx.path ? ` while fetching ${ctx.path}` : ''}`);
    if (net) return new HubError('offline', `cannot reach ${who} (${net}); check the network or the endpoint setting`);
    return new HubError('other', redact(`${what}: ${err?.message ?? String(e)}`, ctx.token));
  }
  if (status === 429) {
    const wait = ctx.hubFetch?.lastRetryAfter();
    return new HubError(
      'rate-limited',
      `${who} rate-limited this client${wait !== undefined ? `; it asks to wait ${Math.ceil(wait)} s` : ''}`,
      wait,
      status,
    );
  }
  if (status === 401 && code !== 'RepoNotFound' && code !== 'GatedRepo') {
    return new HubError(
      'bad-token',
      `the Hub rejected the token${ctx.tokenSource ? ` (from ${ctx.tokenSource})` : ''}: sign in again or set HF_TOKEN`,
      undefined,
      status,
    );
  }
  if (code === 'RepoNotFound' || ((status === 401 || status === 404) && code === undefined && !ctx.path)) {
    return new HubError(
      'not-found',
      ctx.token
        ? `repository ${ctx.repo} not found at ${ctx.endpoint}, or the token cannot read it`
        : `repository ${ctx.repo} not found at ${ctx.endpoint}, or it is private: sign in to Hugging Face or set HF_TOKEN`,
      undefined,
      status,
    );
  }
  if (code === 'GatedRepo' || status === 403)
    return new HubError('not-found', `${ctx.repo} is gated or forbidden for this token`, undefined, status);
  if (code === 'RevisionNotFound')
    return new HubError('revision-not-found', `revision "${ctx.revision ?? 'main'}" not found in ${ctx.repo}`, undefined, status);
  if (code === 'EntryNotFound' || status === 404)
    return new HubError('entry-not-found', `${what} not found at revision ${ctx.revision ?? 'main'}`, undefined, status);
  if (status >= 500) return new HubError('server', `${who} answered HTTP ${status} for ${what}`, undefined, status);
  return new HubError('other', redact(`${what}: HTTP ${status}: ${err.message ?? ''}`.trim(), ctx.token), undefined, status);
}
