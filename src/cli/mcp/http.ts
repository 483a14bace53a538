/**
 * `rlrb mcp --http HOST:PORT`: streamable HTTP on a loopback address only, each POST served
 * statelessly by a fresh server over one shared, bounded cache of opened runs; a request whose
 * `Host` is not the loopback address it listens on, or whose `Origin` is not a loopback origin,
 * is refused with 403 (DNS rebinding); one without `Authorization: Bearer <the server's token>`
 * with 401 (any local process or user could otherwise read what the server's owner can).
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorMessage } from '../../core/errorMessage';
import { UsageError } from '../args';
import { writeErr } from '../output/safeText';
import { connectServer } from './connect';
import { createServer } from './server';
import { RunCache } from './opener';
import type { ServerConfig } from './opener';

/** A fresh token for a server that was given none: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time (digests: the lengths never differ). */
export function authorized(req: IncomingMessage, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `HOST:PORT` checked: a loopback host (localhost, 127.x.x.x, ::1) and a port 0..65535. */
export function parseListen(v: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(v);
  const host = m?.[1]?.replace(/^\[|\]$/g, '');
  const port = Number(m?.[2]);
  if (!m || host === undefined || port > 65535) throw new UsageError(`--http takes HOST:PORT (e.g. 127.0.0.1:8765), not "${v}"`);
  const loopback = host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
  if (!loopback) throw new UsageError(`--http ${v}: serves on a loopback address only (127.0.0.1, ::1 or localhost)`);
  return { host, port };
}

/** Whether a `Host` or `Origin` names a loopback host (any port). */
function loopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || (isIP(hostname) === 4 && hostname.startsWith('127.'));
}

/** Why a request is refused (DNS rebinding), or undefined. */
export function rebindingProblem(req: IncomingMessage, port: number): string | undefined {
  const host = req.headers.host;
  if (host === undefined) return 'missing Host header';
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return 'bad Host header';
  }
  if (!loopbackHostname(url.hostname) || Number(url.port || 80) !== port) return `Host ${host} is not this loopback server`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let o: URL;
    try {
      o = new URL(origin);
    } catch {
      return 'bad Origin header';
    }
    if (!loopbackHostname(o.hostname)) return `Origin ${origin} is not a loopback origin`;
  }
  return undefined;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

interface Served {
  config: ServerConfig;
  token: string;
  cache: RunCache;
}

async function handle(req: IncomingMessage, res: ServerResponse, s: Served, port: number): Promise<void> {
  const problem = rebindingProblem(req, port);
  if (problem !== undefined) return refuse(res, 403, problem);
  if (!authorized(req, s.token)) {
    res.setHeader('www-authenticate', 'Bearer');
    return refuse(res, 401, 'send Authorization: Bearer <token> (the token rlrb mcp printed at start, or the one it was given)');
  }
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return refuse(res, 404, 'the MCP endpoint is /mcp');
  if (req.method !== 'POST') return refuse(res, 405, 'this server is stateless: POST /mcp only');
  const server = createServer(s.config, s.cache);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    const closed = (e: unknown): void => writeErr(`rlrb mcp: cannot close a request's session: ${errorMessage(e)}\n`);
    transport.close().catch(closed);
    server.close().catch(closed);
  });
  await connectServer(server, transport);
  await transport.handleRequest(req, res);
}

/** Serves until the process ends, each request needing `token`; resolves once listening, with the bound port. */
export async function serveHttp(
  config: ServerConfig,
  listen: { host: string; port: number },
  token: string,
): Promise<{ server: Server; port: number; cache: RunCache }> {
  let port = listen.port;
  const served: Served = { config, token, cache: new RunCache() };
  const http = createHttpServer((req, res) => {
    handle(req, res, served, port).catch((e: unknown) => {
      writeErr(`rlrb mcp: ${errorMessage(e)}\n`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
    });
  });
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(listen.port, listen.host, () => ok());
  });
  const addr = http.address();
  if (addr !== null && typeof addr === 'object') port = addr.port;
  return { server: http, port, cache: served.cache };
}
