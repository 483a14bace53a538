/**
 * Proxies: the fetch every Hub call and download goes through when a proxy is set. It is
 * undici's own `fetch` with its `EnvHttpProxyAgent` as the dispatcher (Node 20's global
 * fetch is an older undici that takes no proxy): requests to an https endpoint are tunnelled
 * through the proxy with CONNECT, so the Authorization header (which only the endpoint's
 * origin ever gets, see hubFetch.ts) travels inside the tunnel, never as a header the proxy
 * reads. Hosts that `NO_PROXY` names are reached directly.
 */
import type { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici';
import { HubError } from './errors';

export interface ProxySettings {
  /** proxy URL for http:// hosts ('' for none) */
  http: string;
  /** proxy URL for https:// hosts ('' for none: the http one, if any, is used) */
  https: string;
  /** hosts (host, host:port, .domain, *) reached without the proxy, comma- or space-separated */
  noProxy: string;
  /** where the proxy came from, for messages ("HTTPS_PROXY", "the http.proxy setting") */
  source: string;
}

/** The value of an environment variable, lowercase name first (as curl, Python and undici read them), and which name it was. */
function envVar(env: NodeJS.ProcessEnv, name: string): { name: string; value: string } | undefined {
  for (const n of [name.toLowerCase(), name]) {
    const v = env[n]?.trim();
    if (v) return { name: n, value: v };
  }
  return undefined;
}

/** The proxy the environment sets (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, and their lowercase forms), if any. */
export function proxyFromEnv(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const https = envVar(env, 'HTTPS_PROXY');
  const http = envVar(env, 'HTTP_PROXY');
  if (!https && !http) return undefined;
  const source = [https?.name, http?.name].filter((n): n is string => n !== undefined).join(' / ');
  return checked({
    http: http?.value ?? '',
    https: https?.value ?? '',
    noProxy: envVar(env, 'NO_PROXY')?.value ?? '',
    source,
  });
}

/**
 * The proxy of an editor's `http.proxy` (and `http.noProxy`) setting, else the environment's.
 * The setting's proxy serves both schemes; `NO_PROXY` still applies when the setting names
 * no hosts of its own.
 */
export function proxyFromSetting(
  proxy: string | undefined,
  noProxy: readonly string[] | undefined,
  env: NodeJS.ProcessEnv = process.env,
): ProxySettings | undefined {
  const p = proxy?.trim();
  if (!p) return proxyFromEnv(env);
  const hosts = (noProxy ?? []).map((h) => h.trim()).filter((h) => h !== '');
  return checked({
    http: p,
    https: p,
    noProxy: hosts.length > 0 ? hosts.join(',') : (envVar(env, 'NO_PROXY')?.value ?? ''),
    source: 'the http.proxy setting',
  });
}

/** A proxy given as `host:port` is an http proxy (as curl reads it); other schemes (socks) are refused in one line. */
function checked(s: ProxySettings): ProxySettings {
  const norm = (v: string): string => {
    if (v === '') return v;
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `http://${v}`;
    let u: URL;
    try {
      u = new URL(withScheme);
    } catch {
      throw new HubError('other', `the proxy "${shownProxy(v)}" from ${s.source} is not a URL`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new HubError(
        'other',
        `the proxy ${shownProxy(v)} from ${s.source} is ${u.protocol.slice(0, -1)}; only http and https proxies are supported`,
      );
    return u.toString();
  };
  return { ...s, http: norm(s.http), https: norm(s.https) };
}

/** A proxy URL without its user and password, for messages. */
export function shownProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

interface ErrLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  address?: unknown;
  port?: unknown;
  hostname?: unknown;
}

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The proxy's failure in `e`, as one line naming the proxy, when it is the proxy that failed (not the host behind it). */
export function proxyFailure(e: unknown, proxies: readonly string[], source: string): HubError | undefined {
  const hosts = proxies.filter((p) => p !== '').map((p) => new URL(p));
  for (let cur = e as ErrLike | undefined, i = 0; cur && i < 6; cur = cur.cause as ErrLike | undefined, i++) {
    const msg = typeof cur.message === 'string' ? cur.message : '';
    // the proxy answered the CONNECT (or the forwarded request) with an error of its own
    const tunnel = /^Proxy response \((\d{3})\)/.exec(msg);
    if (tunnel) {
      const p = hosts[0];
      return new HubError(
        'other',
        `the proxy ${p ? `${p.protocol}//${p.host}` : ''} (from ${source}) refused to open a tunnel: HTTP ${tunnel[1]}`,
        undefined,
        Number(tunnel[1]),
      );
    }
    const code = typeof cur.code === 'string' ? cur.code : undefined;
    if (!code || !CONNECT_CODES.has(code)) continue;
    const port = typeof cur.port === 'number' ? String(cur.port) : undefined;
    const host = typeof cur.hostname === 'string' ? cur.hostname : typeof cur.address === 'string' ? cur.address : undefined;
    const p = hosts.find((u) => (host === undefined || sameHost(u.hostname, host)) && (port === undefined || port === portOf(u)));
    if (p && (host !== undefined || port !== undefined))
      return new HubError(
        'other',
        `cannot reach the proxy ${p.protocol}//${p.host} (from ${source}): ${code}; check it, or list the Hub's host in NO_PROXY`,
      );
  }
  return undefined;
}

const portOf = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80');
const sameHost = (a: string, b: string): boolean => a.replace(/^\[|\]$/g, '').toLowerCase() === b.replace(/^\[|\]$/g, '').toLowerCase();

const made = new Map<string, typeof fetch>();

/**
 * A fetch through the proxy `s` (one agent, so one connection pool, per distinct setting). A
 * proxy that cannot be reached fails at once with one line naming it: no retry brings back
 * a proxy that is down, and six retries of a listing would take a minute to say so.
 */
export function proxiedFetch(s: ProxySettings): typeof fetch {
  const key = JSON.stringify([s.http, s.https, s.noProxy]);
  const have = made.get(key);
  if (have) return have;
  // undici is loaded at the first request through a proxy: a command that makes none (most) does not pay for loading it
  let client: Promise<{ agent: EnvHttpProxyAgent; fetch: typeof undiciFetch }> | undefined;
  const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    client ??= import('undici').then((u) => ({
      agent: new u.EnvHttpProxyAgent({ httpProxy: s.http, httpsProxy: s.https, noProxy: s.noProxy }),
      fetch: u.fetch,
    }));
    const { agent, fetch: undiciFetch } = await client;
    try {
      // undici's Response is the web Response Node's own fetch returns (another copy of the same classes)
      return await undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: agent,
      });
    } catch (e) {
      throw proxyFailure(e, [s.https, s.http], s.source) ?? e;
    }
  };
  made.set(key, f);
  return f;
}
