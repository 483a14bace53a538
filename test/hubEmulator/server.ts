/**
 * A Hub emulator: serves folders as model repos with the Hub's real routes, headers and
 * error shapes, so that the real `@huggingface/hub` client talks to it over HTTP on
 * 127.0.0.1. LFS files resolve with a 302 to a second origin. In Xet mode (the default,
 * as on huggingface.co since 2025) that origin stands for the Xet bridge
 * (cas-bridge.xethub.hf.co): the resolve route answers a probe that accepts
 * `application/vnd.xet-fileinfo+json` with the Xet headers, a plain GET with a 302 to a
 * signed bridge URL that expires (then 403 AccessDenied, XML), and the tree lists both
 * `lfs.oid` and `xetHash`. Without Xet mode the second origin is a content-addressed CDN.
 * Faults can be injected for tests. Not shipped in the VSIX.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { datasetRoute } from './datasetCommit';
import type { DatasetStore } from './datasetCommit';
import { errorMessage } from '../../src/core/errorMessage';

export interface EmulatorFile {
  path: string;
  abs: string;
  size: number;
  /** git blob sha1 */
  oid: string;
  /** sha256 when stored with LFS */
  lfs: string | undefined;
  /** the Xet content hash of an LFS file (here derived from its sha256) */
  xetHash: string | undefined;
}

export interface Faults {
  /** cut the connection after this many body bytes, for the next `dropCount` file responses */
  dropAfterBytes?: number;
  dropCount?: number;
  /** answer the next N file requests with 500/502/503 */
  serverErrors?: number;
  /** the status `serverErrors` answer with (default: 503, 502 and 500 in turn) */
  serverErrorStatus?: number;
  /** answer the next `count` /api/ requests with `status` (the Hub failing, not the link) */
  apiErrors?: { count: number; status: number };
  /** the next `count` /api/ requests get nothing, not even headers, or (`afterHeaders`) their headers and one byte; the connection stays open */
  apiSilent?: { count: number; afterHeaders: boolean };
  /**
   * answer the next N requests (any route) with 429: `Retry-After` when `retryAfter` is set,
   * the IETF `RateLimit: "resolvers";r=0;t=N` header when `reset` is
   */
  rateLimit?: { count: number; retryAfter?: number; reset?: number };
  /** flip one byte in the next N file bodies */
  corrupt?: number;
  /** throttle file bodies to this many bytes a second */
  trickleBytesPerSecond?: number;
  /**
   * cap each TCP connection at this many bytes a second over all the file bodies it carries
   * (a CDN's per-connection limit: more connections get more bytes, one connection never more)
   */
  connectionBytesPerSecond?: number;
  /** answer the next `count` ranged file requests (not the one-byte probes) with 429 and `Retry-After` */
  rangeRateLimit?: { count: number; retryAfter?: number };
  /** apply file faults only to paths containing this */
  pathContains?: string;
  /** send this many body bytes, then nothing more (the connection stays open), for the next `count` file bodies */
  stall?: { afterBytes: number; count: number };
  /**
   * accept the next `count` file requests of more than one byte, plain GETs of the whole file or
   * (`ranged`) range requests, and never answer them, not even the headers (the connection stays
   * open until the client gives up)
   */
  noHeaders?: { count: number; ranged: boolean };
  /** answer the next N ranged file requests with 200 and the whole file, as CDNs sometimes do */
  ignoreRange?: number;
  /** answer the next N ranged file requests (from a byte > 0) with 206 for a range that starts one byte early */
  wrongContentRange?: number;
  /** answer the next N ranged file requests (of more than one byte) with the right Content-Range and one byte more than it (Content-Length saying so) */
  rangeExtraByte?: number;
  /** answer the next N ranged file requests (of more than one byte) gzip'd: Content-Encoding gzip, the range of the gzip'd file under the right Content-Range */
  gzipRange?: number;
  /** by repo path: serve the bytes of this local file instead (the tree still names the real file's size and hashes) */
  substitute?: Record<string, string>;
  /** the next N redirects to the bridge carry a URL that has already expired */
  expiredRedirects?: number;
  /** the next N resolve requests answer 400 with the Authorization header they carried in the message */
  echoAuthorization?: number;
  /** fields merged into the tree entry of a path (any JSON, to play a hostile Hub) */
  treeOverride?: Record<string, Record<string, unknown>>;
  /** pad every tree page with this many spaces */
  treePadBytes?: number;
  /** tree pages name themselves as the next page */
  treeLinkLoop?: boolean;
  /** tree pages always name a next page, empty ones past the end */
  treeEndless?: boolean;
}

export interface EmulatorSettings {
  /** the Hub is Xet-backed (see above) */
  xet: boolean;
  /** how long a signed bridge URL stays valid */
  bridgeTtlSeconds: number;
}

export interface SeenRequest {
  origin: 'hub' | 'cdn';
  method: string;
  url: string;
  authorization: string | undefined;
  range: string | undefined;
  status: number;
  /** file body bytes written (0 for other routes) */
  bytes: number;
  /** when the request came and when its response ended (performance.now(), ms) */
  startMs: number;
  endMs: number;
}

/** File bodies being sent right now, and the most at once since the last reset. */
export interface InFlight {
  now: number;
  peak: number;
}

export interface EmulatorOptions {
  /** repo id -> folder */
  repos: Record<string, string>;
  /** when set, every Hub route needs `Authorization: Bearer <token>` */
  requiredToken?: string;
  /** tokens that /api/whoami-v2 accepts (the required one included) */
  validTokens?: string[];
  /** tree page size (the Hub uses 1000 for recursive listings; tests use less) */
  pageSize?: number;
  port?: number;
  cdnPort?: number;
  /** repos that are private: without a valid token they answer 401 */
  privateRepos?: string[];
  /** default: Xet mode on, bridge URLs valid for an hour */
  settings?: Partial<EmulatorSettings>;
  /** paths stored with LFS whatever their size (as a repo's .gitattributes can say) */
  lfsPaths?: RegExp;
}

export interface HubEmulator {
  url: string;
  cdnUrl: string;
  faults: Faults;
  /** may be changed while it runs */
  settings: EmulatorSettings;
  requests: SeenRequest[];
  /** file responses (either origin) open at once; `peak` may be reset to 0 by a test */
  inFlight: InFlight;
  files(repo: string): EmulatorFile[];
  commit(repo: string): string;
  /** dataset repos created and committed to through the write routes (datasetCommit.ts) */
  datasets: DatasetStore;
  /** Re-reads a repo's folder (after files changed on disk). */
  rescan(repo: string): void;
  close(): Promise<void>;
}

const LFS_NAMES = /\.(distcp|safetensors|pt|pth|bin|ckpt|gz|zip|tar|metadata)$|^\.metadata$/;
const LFS_THRESHOLD = 10 * 1024 * 1024;

function gitBlobSha1(buf: Buffer): string {
  return createHash('sha1').update(`blob ${buf.length}\0`).update(buf).digest('hex');
}

function hashFile(abs: string, size: number): { sha1: string; sha256: string } {
  const s1 = createHash('sha1').update(`blob ${size}\0`);
  const s256 = createHash('sha256');
  if (size < 64 << 20) {
    const b = readFileSync(abs);
    return { sha1: s1.update(b).digest('hex'), sha256: s256.update(b).digest('hex') };
  }
  const h = openSync(abs, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  let pos = 0;
  for (;;) {
    const n = readSync(h, buf, 0, buf.length, pos);
    if (n === 0) break;
    s1.update(buf.subarray(0, n));
    s256.update(buf.subarray(0, n));
    pos += n;
  }
  closeSync(h);
  return { sha1: s1.digest('hex'), sha256: s256.digest('hex') };
}

function scan(root: string, lfsPaths?: RegExp): EmulatorFile[] {
  const out: EmulatorFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) {
        walk(abs);
        continue;
      }
      const path = relative(root, abs).split(sep).join('/');
      const { sha1, sha256 } = hashFile(abs, st.size);
      const lfs = LFS_NAMES.test(name) || st.size >= LFS_THRESHOLD || lfsPaths?.test(path) === true;
      // an LFS file's git blob is its pointer file
      const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${st.size}\n`;
      out.push({
        path,
        abs,
        size: st.size,
        oid: lfs ? gitBlobSha1(Buffer.from(pointer)) : sha1,
        lfs: lfs ? sha256 : undefined,
        xetHash: lfs ? createHash('sha256').update(`xet:${sha256}`).digest('hex') : undefined,
      });
    }
  };
  walk(root);
  return out;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function hubError(
  res: ServerResponse,
  status: number,
  code: string | undefined,
  message: string,
  headers: Record<string, string> = {},
): void {
  json(
    res,
    status,
    { error: message },
    {
      ...(code ? { 'X-Error-Code': code, 'X-Error-Message': message.split('\n')[0]! } : {}),
      'X-Request-Id': `Root=1-${randomBytes(8).toString('hex')}`,
      ...headers,
    },
  );
}

interface RepoState {
  id: string;
  root: string;
  files: EmulatorFile[];
  commit: string;
}

export async function startHubEmulator(o: EmulatorOptions): Promise<HubEmulator> {
  const repos = new Map<string, RepoState>();
  const load = (id: string, root: string): void => {
    const files = scan(root, o.lfsPaths);
    const commit = createHash('sha1')
      .update(files.map((f) => `${f.path}:${f.oid}`).join('\n'))
      .digest('hex');
    repos.set(id, { id, root, files, commit });
  };
  for (const [id, root] of Object.entries(o.repos)) load(id, root);
  const faults: Faults = {};
  const settings: EmulatorSettings = { xet: true, bridgeTtlSeconds: 3600, ...o.settings };
  const requests: SeenRequest[] = [];
  const inFlight: InFlight = { now: 0, peak: 0 };
  /** body bytes sent per response, for the request log */
  const sentBytes = new WeakMap<ServerResponse, number>();
  /** when each connection may send its next byte under `connectionBytesPerSecond` */
  const connectionFree = new WeakMap<object, number>();
  const pageSize = o.pageSize ?? 1000;
  const secret = randomBytes(16);
  const datasets: DatasetStore = new Map();
  const valid = new Set([...(o.validTokens ?? []), ...(o.requiredToken ? [o.requiredToken] : [])]);
  const privateRepos = new Set(o.privateRepos ?? []);
  let hubUrl = '';
  let cdnUrl = '';

  const record = (origin: 'hub' | 'cdn', req: IncomingMessage, res: ServerResponse): void => {
    const startMs = performance.now();
    const seen = (): void =>
      void requests.push({
        origin,
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        range: req.headers.range,
        status: res.statusCode,
        bytes: sentBytes.get(res) ?? 0,
        startMs,
        endMs: performance.now(),
      });
    res.on('finish', seen);
    res.on('close', () => {
      if (!res.writableFinished) seen();
    });
  };

  const takeRateLimit = (res: ServerResponse): boolean => {
    const rl = faults.rateLimit;
    if (rl && rl.count > 0) {
      rl.count--;
      hubError(res, 429, 'RateLimited', 'You have been rate-limited; you can retry this action later.', {
        ...(rl.retryAfter !== undefined ? { 'Retry-After': String(rl.retryAfter) } : {}),
        ...(rl.reset !== undefined ? { RateLimit: `"resolvers";r=0;t=${rl.reset}`, 'RateLimit-Policy': '"resolvers";q=3000;w=300' } : {}),
      });
      return true;
    }
    return false;
  };

  /** Sends a file (or a range of it), applying the file faults. */
  const sendFile = (req: IncomingMessage, res: ServerResponse, f: EmulatorFile, headers: Record<string, string>): void => {
    const faultsApply = !faults.pathContains || f.path.includes(faults.pathContains);
    if (faultsApply && (faults.serverErrors ?? 0) > 0) {
      faults.serverErrors!--;
      const status = faults.serverErrorStatus ?? [500, 502, 503][faults.serverErrors! % 3]!;
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end("Internal Error - We're working hard to fix this as soon as possible!");
      return;
    }
    let start = 0;
    let end = f.size - 1;
    let status = 200;
    const range = req.headers.range;
    if (range) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
      if (!m || (m[1] === '' && m[2] === '')) {
        res.writeHead(416, { 'Content-Range': `bytes */${f.size}` });
        res.end();
        return;
      }
      if (m[1] === '') {
        start = Math.max(0, f.size - Number(m[2]));
      } else {
        start = Number(m[1]);
        if (m[2] !== '') end = Math.min(end, Number(m[2]));
      }
      if (start >= f.size || start > end) {
        res.writeHead(416, { 'Content-Range': `bytes */${f.size}` });
        res.end();
        return;
      }
      status = 206;
      if (faultsApply && length(start, end) > 1 && (faults.ignoreRange ?? 0) > 0) {
        faults.ignoreRange!--;
        [start, end, status] = [0, f.size - 1, 200];
      } else if (faultsApply && start > 0 && (faults.wrongContentRange ?? 0) > 0) {
        faults.wrongContentRange!--;
        start -= 1;
      }
    }
    if (faultsApply && status === 206 && length(start, end) > 1 && (faults.rangeExtraByte ?? 0) > 0) {
      faults.rangeExtraByte!--;
      const body = Buffer.concat([readFileSync(f.abs).subarray(start, end + 1), Buffer.from('x')]);
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${f.size}`, 'Content-Length': String(body.length) });
      res.end(body);
      return;
    }
    if (faultsApply && status === 206 && length(start, end) > 1 && (faults.gzipRange ?? 0) > 0) {
      faults.gzipRange!--;
      const body = gzipSync(readFileSync(f.abs)).subarray(start, end + 1);
      res.writeHead(206, {
        ...headers,
        'Content-Encoding': 'gzip',
        'Content-Range': `bytes ${start}-${end}/${f.size}`,
        'Content-Length': String(body.length),
      });
      res.end(body);
      return;
    }
    const rr = faults.rangeRateLimit;
    if (faultsApply && rr && rr.count > 0 && range !== undefined && length(start, end) > 1) {
      rr.count--;
      res.writeHead(429, {
        'Content-Type': 'text/plain',
        ...(rr.retryAfter !== undefined ? { 'Retry-After': String(rr.retryAfter) } : {}),
      });
      res.end('Too Many Requests');
      return;
    }
    const nh = faults.noHeaders;
    if (faultsApply && nh && nh.count > 0 && nh.ranged === (range !== undefined) && length(start, end) > 1) {
      nh.count--;
      return;
    }
    const bodyLength = f.size === 0 ? 0 : length(start, end);
    inFlight.now++;
    inFlight.peak = Math.max(inFlight.peak, inFlight.now);
    res.once('close', () => inFlight.now--);
    res.writeHead(status, {
      ...headers,
      'Accept-Ranges': 'bytes',
      'Content-Length': String(bodyLength),
      'Content-Type': 'application/octet-stream',
      ...(status === 206 ? { 'Content-Range': `bytes ${start}-${end}/${f.size}` } : {}),
    });
    if (req.method === 'HEAD' || bodyLength === 0) {
      res.end();
      return;
    }
    // body faults count only bodies they can act on (not the one-byte probes clients send)
    const drop =
      faultsApply && faults.dropAfterBytes !== undefined && faults.dropAfterBytes < bodyLength && (faults.dropCount ?? 1) > 0
        ? faults.dropAfterBytes
        : undefined;
    if (drop !== undefined) faults.dropCount = (faults.dropCount ?? 1) - 1;
    const corrupt = faultsApply && bodyLength > 1 && (faults.corrupt ?? 0) > 0;
    if (corrupt) faults.corrupt!--;
    const st = faults.stall;
    const stall = faultsApply && st && st.count > 0 && st.afterBytes < bodyLength ? st.afterBytes : undefined;
    if (stall !== undefined) st!.count--;
    const trickle = faultsApply ? faults.trickleBytesPerSecond : undefined;
    void pump(res, faults.substitute?.[f.path] ?? f.abs, start, end, {
      drop,
      corrupt,
      trickle,
      stall,
      cap: faults.connectionBytesPerSecond,
    });
  };
  const length = (start: number, end: number): number => end - start + 1;

  /** Writes bytes [start, end] of a file, with backpressure and the body faults. */
  const pump = async (
    res: ServerResponse,
    abs: string,
    start: number,
    end: number,
    o: { drop: number | undefined; corrupt: boolean; trickle: number | undefined; stall: number | undefined; cap: number | undefined },
  ): Promise<void> => {
    const fh = await open(abs, 'r');
    const buf = Buffer.allocUnsafe(o.trickle ? 16 * 1024 : o.cap ? 64 * 1024 : 256 * 1024);
    let pos = start;
    let sent = 0;
    try {
      while (pos <= end && !res.destroyed) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, end - pos + 1), pos);
        if (bytesRead === 0) break;
        const c = Buffer.from(buf.subarray(0, bytesRead));
        if (o.corrupt && sent === 0) c[0] = c[0]! ^ 0xff;
        pos += bytesRead;
        if (o.drop !== undefined && sent + c.length > o.drop) {
          res.write(c.subarray(0, Math.max(0, o.drop - sent)));
          sentBytes.set(res, Math.max(sent, o.drop));
          await new Promise((r) => setTimeout(r, 10));
          res.socket?.destroy();
          return;
        }
        if (o.stall !== undefined && sent + c.length > o.stall) {
          // a stalled transfer: some bytes, then silence until the client gives up
          res.write(c.subarray(0, Math.max(0, o.stall - sent)));
          sentBytes.set(res, Math.max(sent, o.stall));
          await new Promise((r) => res.once('close', r));
          return;
        }
        sent += c.length;
        sentBytes.set(res, sent);
        if (o.cap && res.socket) await connectionTurn(res.socket, c.length, o.cap);
        // a client that goes away while the socket is full never drains it: the wait ends with it
        if (!res.write(c) && !res.destroyed) await drainedOrClosed(res);
        // no wait after the last byte: the response ends when the client has it all
        if (o.trickle && pos <= end) await new Promise((r) => setTimeout(r, (c.length / o.trickle!) * 1000));
      }
      res.end();
    } catch {
      res.destroy();
    } finally {
      await fh.close();
    }
  };

  /** Waits for the response's socket to drain, or to close. */
  const drainedOrClosed = (res: ServerResponse): Promise<void> =>
    new Promise((r) => {
      const done = (): void => {
        res.off('drain', done).off('close', done);
        r();
      };
      res.on('drain', done).on('close', done);
    });

  /** Waits until a connection under a bytes/s cap may send `n` more bytes (shared by every response on it). */
  const connectionTurn = async (socket: object, n: number, cap: number): Promise<void> => {
    const now = performance.now();
    const start = Math.max(now, connectionFree.get(socket) ?? now);
    connectionFree.set(socket, start + (n / cap) * 1000);
    if (start > now) await new Promise((r) => setTimeout(r, start - now));
  };

  const authOk = (
    req: IncomingMessage,
    repo: string | undefined,
  ): { ok: true } | { ok: false; status: number; code: string | undefined; message: string } => {
    const h = req.headers.authorization;
    const token = h?.startsWith('Bearer ') ? h.slice(7) : undefined;
    if (token !== undefined && !valid.has(token))
      return { ok: false, status: 401, code: undefined, message: 'Invalid credentials in Authorization header' };
    const needs = o.requiredToken !== undefined || (repo !== undefined && privateRepos.has(repo));
    if (needs && token === undefined) {
      return {
        ok: false,
        status: 401,
        code: 'RepoNotFound',
        message: `Repository Not Found for url: ${hubUrl}${req.url}.\nPlease make sure you specified the correct \`repo_id\` and \`repo_type\`.\nIf you are trying to access a private or gated repo, make sure you are authenticated.`,
      };
    }
    return { ok: true };
  };

  const entry = (f: EmulatorFile): Record<string, unknown> => ({
    type: 'file',
    oid: f.oid,
    size: f.size,
    path: f.path,
    ...(f.lfs ? { lfs: { oid: f.lfs, size: f.size, pointerSize: 134 } } : {}),
    ...(f.lfs && settings.xet ? { xetHash: f.xetHash } : {}),
    ...(faults.treeOverride?.[f.path] ?? {}),
  });

  const hub = createServer((req, res) => {
    try {
      hubRoute(req, res);
    } catch (e) {
      if (!res.headersSent) json(res, 500, { error: `emulator: ${errorMessage(e)}` });
      else res.destroy();
    }
  });

  function hubRoute(req: IncomingMessage, res: ServerResponse): void {
    record('hub', req, res);
    const url = new URL(req.url ?? '/', hubUrl);
    const path = decodeURIComponent(url.pathname);
    if (path === '/healthz') return json(res, 200, { ok: true });
    if (path.startsWith('/__emulator/')) return control(req, res, path);
    if (takeRateLimit(res)) return;
    const as = faults.apiSilent;
    if (as && as.count > 0 && path.startsWith('/api/')) {
      as.count--;
      if (as.afterHeaders) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{');
      }
      return;
    }
    const ae = faults.apiErrors;
    if (ae && ae.count > 0 && path.startsWith('/api/')) {
      ae.count--;
      res.writeHead(ae.status, { 'Content-Type': 'text/plain' });
      res.end("Internal Error - We're working hard to fix this as soon as possible!");
      return;
    }
    const bearer = (r: IncomingMessage): boolean => valid.has(r.headers.authorization?.replace(/^Bearer /, '') ?? '');
    if (datasetRoute(req, res, path, { store: datasets, hubUrl, tokenOk: bearer })) return;
    if (path === '/api/whoami-v2') {
      const h = req.headers.authorization;
      const token = h?.startsWith('Bearer ') ? h.slice(7) : undefined;
      if (!token || !valid.has(token)) return hubError(res, 401, undefined, 'Invalid credentials in Authorization header');
      return json(res, 200, {
        type: 'user',
        id: '66a0000000000000000000aa',
        name: 'demo-user',
        fullname: 'Demo User',
        email: 'demo@example.com',
        emailVerified: true,
        isPro: false,
        canPay: false,
        avatarUrl: '',
        periodEnd: null,
        billingMode: 'postpaid',
        orgs: [],
        auth: { type: 'access_token', accessToken: { displayName: 'rlrb-test', role: 'read', createdAt: '2026-01-01T00:00:00.000Z' } },
      });
    }
    // /api/models/{owner}/{name}[/revision/{rev}] | /tree/{rev}[/{path}] | /paths-info/{rev}
    let m = /^\/api\/models\/([^/]+\/[^/]+)(?:\/(revision|tree|paths-info)\/([^/]+)(\/.*)?)?$/.exec(path);
    if (m) {
      const repo = repos.get(m[1]!);
      const auth = authOk(req, m[1]);
      if (!auth.ok) return hubError(res, auth.status, auth.code, auth.message);
      if (!repo)
        return hubError(
          res,
          401,
          'RepoNotFound',
          `Repository Not Found for url: ${hubUrl}${req.url}.\nPlease make sure you specified the correct \`repo_id\` and \`repo_type\`.\nIf you are trying to access a private or gated repo, make sure you are authenticated.`,
        );
      const kind = m[2];
      const rev = m[3] ?? 'main';
      if (rev !== 'main' && rev !== 'HEAD' && rev !== repo.commit) return hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      if (kind === undefined || kind === 'revision') {
        return json(res, 200, {
          _id: '66a0000000000000000000bb',
          id: repo.id,
          modelId: repo.id,
          author: repo.id.split('/')[0],
          sha: repo.commit,
          private: privateRepos.has(repo.id),
          gated: false,
          disabled: false,
          downloads: 0,
          likes: 0,
          lastModified: '2026-09-23T00:00:00.000Z',
          tags: ['reinforcement-learning'],
          pipeline_tag: 'reinforcement-learning',
          library_name: 'transformers',
          siblings: repo.files.map((f) => ({ rfilename: f.path })),
          createdAt: '2026-09-01T00:00:00.000Z',
          usedStorage: repo.files.reduce((s, f) => s + f.size, 0),
        });
      }
      if (kind === 'paths-info') {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString('utf8');
        });
        req.on('end', () => {
          let paths: string[] = [];
          try {
            paths = (JSON.parse(body) as { paths?: string[] }).paths ?? [];
          } catch {
            return hubError(res, 400, 'BadRequest', 'Invalid JSON body');
          }
          const out = paths.flatMap((p) => {
            const f = repo.files.find((x) => x.path === p);
            if (f) return [entry(f)];
            if (repo.files.some((x) => x.path.startsWith(p + '/')))
              return [{ type: 'directory', oid: createHash('sha1').update(p).digest('hex'), size: 0, path: p }];
            return [];
          });
          json(res, 200, out, { 'X-Repo-Commit': repo.commit });
        });
        return;
      }
      // tree
      const sub = (m[4] ?? '').replace(/^\//, '');
      const recursive = url.searchParams.get('recursive') === 'true';
      const prefix = sub === '' ? '' : sub + '/';
      if (sub !== '' && !repo.files.some((f) => f.path.startsWith(prefix)))
        return hubError(res, 404, 'EntryNotFound', `${sub} does not exist on "${rev}"`);
      const items: Record<string, unknown>[] = [];
      const dirs = new Set<string>();
      for (const f of repo.files) {
        if (!f.path.startsWith(prefix)) continue;
        const rest = f.path.slice(prefix.length);
        const parts = rest.split('/');
        // directories first-seen order, as the Hub lists them alongside files
        for (let i = 1; i < parts.length; i++) {
          if (!recursive && i > 1) break;
          const d = prefix + parts.slice(0, i).join('/');
          if (!dirs.has(d)) {
            dirs.add(d);
            items.push({ type: 'directory', oid: createHash('sha1').update(d).digest('hex'), size: 0, path: d });
          }
        }
        if (recursive || parts.length === 1) items.push(entry(f));
      }
      const cursor = Number(url.searchParams.get('cursor') ?? '0');
      const pageItems = items.slice(cursor, cursor + pageSize);
      const headers: Record<string, string> = { 'X-Repo-Commit': repo.commit };
      if (cursor + pageSize < items.length || faults.treeEndless) {
        const next = new URL(url.toString());
        next.searchParams.set('cursor', String(cursor + pageSize));
        headers['Link'] = `<${next.toString()}>; rel="next"`;
      }
      if (faults.treeLinkLoop) headers['Link'] = `<${url.toString()}>; rel="next"`;
      if (faults.treePadBytes) {
        const text = JSON.stringify(pageItems) + ' '.repeat(faults.treePadBytes);
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
        res.end(text);
        return;
      }
      return json(res, 200, pageItems, headers);
    }
    // /{owner}/{name}/resolve/{rev}/{path}
    m = /^\/([^/]+\/[^/]+)\/(resolve|raw)\/([^/]+)\/(.+)$/.exec(path);
    if (m) {
      const repo = repos.get(m[1]!);
      const auth = authOk(req, m[1]);
      if (!auth.ok) return hubError(res, auth.status, auth.code, auth.message);
      if (!repo) return hubError(res, 401, 'RepoNotFound', `Repository Not Found for url: ${hubUrl}${req.url}.`);
      const rev = m[3]!;
      if (rev !== 'main' && rev !== repo.commit) return hubError(res, 404, 'RevisionNotFound', `Invalid rev id: ${rev}`);
      const f = repo.files.find((x) => x.path === m[4]);
      if (!f) return hubError(res, 404, 'EntryNotFound', `${m[4]} does not exist on "${rev}"`);
      if ((faults.echoAuthorization ?? 0) > 0) {
        faults.echoAuthorization!--;
        return hubError(
          res,
          400,
          'BadRequest',
          `Bad request: header "Authorization: ${req.headers.authorization ?? ''}" not accepted here`,
        );
      }
      const common = { 'X-Repo-Commit': repo.commit, ETag: `"${f.lfs ?? f.oid}"` };
      if (f.lfs && m[2] === 'resolve' && settings.xet) return xetResolve(req, res, repo, f, common);
      if (f.lfs && m[2] === 'resolve') {
        const expires = String(Math.floor(Date.now() / 1000) + 3600);
        const sig = createHmac('sha256', secret).update(`${f.lfs}:${expires}`).digest('hex');
        const location = `${cdnUrl}/repos/${repo.id.replace('/', '--')}/${f.lfs}?Expires=${expires}&Signature=${sig}`;
        res.writeHead(302, {
          ...common,
          Location: location,
          'X-Linked-Etag': `"${f.lfs}"`,
          'X-Linked-Size': String(f.size),
          'Content-Length': '0',
        });
        res.end();
        return;
      }
      return sendFile(req, res, f, common);
    }
    hubError(res, 404, undefined, "Sorry, we can't find the page you are looking for.");
  }

  /** The Xet-backed resolve route: file info for a probe that asks for it, else a 302 to a signed bridge URL. */
  function xetResolve(req: IncomingMessage, res: ServerResponse, repo: RepoState, f: EmulatorFile, common: Record<string, string>): void {
    const xetHash = f.xetHash!;
    const linked = { 'X-Linked-Size': String(f.size), 'X-Linked-Etag': `"${f.lfs}"`, 'X-Xet-Hash': xetHash };
    if ((req.headers.accept ?? '').includes('application/vnd.xet-fileinfo+json')) {
      const refreshUrl = `${hubUrl}/api/models/${repo.id}/xet-read-token/${repo.commit}`;
      const reconstructionUrl = `${cdnUrl}/v1/reconstructions/${xetHash}`;
      const body = JSON.stringify({ casUrl: cdnUrl, hash: xetHash, refreshUrl, reconstructionUrl, etag: f.lfs, size: f.size });
      res.writeHead(200, {
        ...common,
        ...linked,
        'Content-Type': 'application/vnd.xet-fileinfo+json',
        'Content-Length': String(Buffer.byteLength(body)),
        Link: `<${refreshUrl}>; rel="xet-auth", <${reconstructionUrl}>; rel="xet-reconstruction-info"`,
      });
      res.end(body);
      return;
    }
    const expired = (faults.expiredRedirects ?? 0) > 0;
    if (expired) faults.expiredRedirects!--;
    const expires = String(Math.floor(Date.now() / 1000) + (expired ? -60 : settings.bridgeTtlSeconds));
    const sig = createHmac('sha256', secret).update(`${xetHash}:${expires}`).digest('hex');
    const range = encodeURIComponent(`bytes=0-${Math.max(0, f.size - 1)}`);
    const location = `${cdnUrl}/xet-bridge-us/${xetHash}?X-Xet-Signed-Range=${range}&Expires=${expires}&Signature=${sig}`;
    res.writeHead(302, { ...common, ...linked, Location: location, 'Content-Length': '0' });
    res.end();
  }

  const accessDenied = (res: ServerResponse, why: string): void => {
    res.writeHead(403, { 'Content-Type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${why}</Message></Error>`);
  };

  /** The bridge: a signed URL per Xet hash, checked when the request starts. */
  function bridge(req: IncomingMessage, res: ServerResponse, url: URL, xetHash: string): void {
    const expires = url.searchParams.get('Expires') ?? '';
    const sig = createHmac('sha256', secret).update(`${xetHash}:${expires}`).digest('hex');
    if (url.searchParams.get('Signature') !== sig) return accessDenied(res, 'Invalid signature');
    if (Number(expires) * 1000 < Date.now()) return accessDenied(res, 'Request has expired');
    const f = [...repos.values()].flatMap((r) => r.files).find((x) => x.xetHash === xetHash);
    if (!f) {
      res.writeHead(404);
      res.end();
      return;
    }
    sendFile(req, res, f, { ETag: `"${f.lfs}"`, 'Cache-Control': 'public, max-age=604800, immutable' });
  }

  const cdn = createServer((req, res) => {
    record('cdn', req, res);
    const url = new URL(req.url ?? '/', cdnUrl);
    const x = /^\/xet-bridge-us\/([0-9a-f]{64})$/.exec(url.pathname);
    if (x) return bridge(req, res, url, x[1]!);
    const m = /^\/repos\/([^/]+)\/([0-9a-f]{64})$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404);
      res.end();
      return;
    }
    const expires = url.searchParams.get('Expires') ?? '';
    const sig = createHmac('sha256', secret).update(`${m[2]}:${expires}`).digest('hex');
    if (url.searchParams.get('Signature') !== sig || Number(expires) * 1000 < Date.now()) {
      res.writeHead(403, { 'Content-Type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access denied</Message></Error>');
      return;
    }
    const repo = repos.get(m[1]!.replace('--', '/'));
    const f = repo?.files.find((x) => x.lfs === m[2]);
    if (!f) {
      res.writeHead(404);
      res.end();
      return;
    }
    sendFile(req, res, f, { ETag: `"${f.lfs}"`, 'Cache-Control': 'public, max-age=604800, immutable', 'X-Cache': 'Miss from emulator' });
  });

  function control(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (path === '/__emulator/faults' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        for (const k of Object.keys(faults) as (keyof Faults)[]) delete faults[k];
        Object.assign(faults, JSON.parse(body || '{}') as Faults);
        json(res, 200, faults);
      });
      return;
    }
    if (path === '/__emulator/requests') return json(res, 200, requests);
    if (path === '/__emulator/rescan' && req.method === 'POST') {
      for (const r of repos.values()) load(r.id, r.root);
      return json(res, 200, { ok: true });
    }
    json(res, 404, { error: 'unknown control route' });
  }

  const listen = (s: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
    });
  const hubPort = await listen(hub, o.port ?? 0);
  const cdnPort = await listen(cdn, o.cdnPort ?? 0);
  hubUrl = `http://127.0.0.1:${hubPort}`;
  cdnUrl = `http://127.0.0.1:${cdnPort}`;
  const closeServer = (s: Server): Promise<void> =>
    new Promise((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  return {
    url: hubUrl,
    cdnUrl,
    faults,
    settings,
    requests,
    inFlight,
    files: (repo) => repos.get(repo)?.files ?? [],
    commit: (repo) => repos.get(repo)?.commit ?? '',
    datasets,
    rescan: (repo) => {
      const r = repos.get(repo);
      if (r) load(r.id, r.root);
    },
    close: async () => {
      await Promise.all([closeServer(hub), closeServer(cdn)]);
    },
  };
}
