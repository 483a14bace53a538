/**
 * `rlrb mcp --http HOST:PORT`: streamable HTTP on a loopback address only, each POST served
 * statelessly by a fresh server; a request whose `Host` is not the loopback address it listens
 * on, or whose `Origin` is not a loopback origin, is refused with 403 (DNS rebinding).
 */
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { errorMessage } from '../../core/errorMessage';
import { UsageError } from '../args';
import { writeErr } from '../output/safeText';
import { connectServer } from './connect';
import { createServer } from './server';
import type { ServerConfig } from './opener';

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

async function handle(req: IncomingMessage, res: ServerResponse, config: ServerConfig, port: number): Promise<void> {
  const problem = rebindingProblem(req, port);
  if (problem !== undefined) return refuse(res, 403, problem);
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') return refuse(res, 404, 'the MCP endpoint is /mcp');
  if (req.method !== 'POST') return refuse(res, 405, 'this server is stateless: POST /mcp only');
  const server = createServer(config);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await connectServer(server, transport);
  await transport.handleRequest(req, res);
}

/** Serves until the process ends; resolves once listening, with the bound port. */
export async function serveHttp(config: ServerConfig, listen: { host: string; port: number }): Promise<{ server: Server; port: number }> {
  let port = listen.port;
  const http = createHttpServer((req, res) => {
    handle(req, res, config, port).catch((e: unknown) => {
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
  return { server: http, port };
}
