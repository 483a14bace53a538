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
 *
 * The routes live in their own files: api.ts (/api/), resolve.ts (files), cdn.ts (the
 * second origin), sendFile.ts (bodies and file faults), gates.ts (token and Hub faults).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../../src/core/errorMessage';
import { apiRoute } from './api';
import { cdnRoute } from './cdn';
import { apiFailed, rateLimited } from './gates';
import { hubError, json, readBody } from './http';
import { resolveRoute } from './resolve';
import { datasetRoute } from './datasetCommit';
import type { DatasetStore } from './datasetCommit';
import { loadRepo, newState } from './state';
import type { EmulatorState } from './state';
import type { EmulatorOptions, Faults, HubEmulator } from './types';

export type { EmulatorFile, EmulatorOptions, EmulatorSettings, Faults, HubEmulator, InFlight, SeenRequest } from './types';

export async function startHubEmulator(o: EmulatorOptions): Promise<HubEmulator> {
  const st = newState(o);
  const datasets: DatasetStore = new Map();
  const hub = createServer((req, res) => guarded(res, () => hubRoute(st, datasets, req, res)));
  const cdn = createServer((req, res) => guarded(res, () => cdnRequest(st, req, res)));
  const hubPort = await listen(hub, o.port ?? 0);
  const cdnPort = await listen(cdn, o.cdnPort ?? 0);
  st.hubUrl = `http://127.0.0.1:${hubPort}`;
  // the second origin under another host name, as the CDN and the Xet bridge are: a client that compares
  // host names (the official Python one does) then treats it as foreign and sends it no token
  st.cdnUrl = `http://${o.cdnHost ?? 'localhost'}:${cdnPort}`;
  return {
    url: st.hubUrl,
    cdnUrl: st.cdnUrl,
    faults: st.faults,
    settings: st.settings,
    requests: st.requests,
    inFlight: st.inFlight,
    files: (repo) => st.repos.get(repo)?.files ?? [],
    commit: (repo) => st.repos.get(repo)?.commit ?? '',
    commits: (repo) => st.repos.get(repo)?.commits ?? [],
    datasets,
    rescan: (repo) => {
      const r = st.repos.get(repo);
      if (r) loadRepo(st, r.id, r.root);
    },
    close: async () => {
      await Promise.all([closeServer(hub), closeServer(cdn)]);
    },
  };
}

/** A route that throws answers 500 (or, with its headers out, loses its connection). */
function guarded(res: ServerResponse, route: () => void): void {
  try {
    route();
  } catch (e) {
    if (!res.headersSent) json(res, 500, { error: `emulator: ${errorMessage(e)}` });
    else res.destroy();
  }
}

function hubRoute(st: EmulatorState, datasets: DatasetStore, req: IncomingMessage, res: ServerResponse): void {
  record(st, 'hub', req, res);
  const url = new URL(req.url ?? '/', st.hubUrl);
  const path = decodeURIComponent(url.pathname);
  if (path === '/healthz') return json(res, 200, { ok: true });
  if (path.startsWith('/__emulator/')) return void control(st, req, res, path);
  if (rateLimited(st, res) || apiFailed(st, res, path)) return;
  const tokenOk = (r: IncomingMessage): boolean => st.validTokens.has(r.headers.authorization?.replace(/^Bearer /, '') ?? '');
  if (datasetRoute(req, res, path, { store: datasets, hubUrl: st.hubUrl, tokenOk })) return;
  if (apiRoute(st, req, res, url, path) || resolveRoute(st, req, res, path)) return;
  hubError(res, 404, undefined, "Sorry, we can't find the page you are looking for.");
}

function cdnRequest(st: EmulatorState, req: IncomingMessage, res: ServerResponse): void {
  record(st, 'cdn', req, res);
  cdnRoute(st, req, res);
}

/** Logs the request when its response ends (or its connection closes first). */
function record(st: EmulatorState, origin: 'hub' | 'cdn', req: IncomingMessage, res: ServerResponse): void {
  const startMs = performance.now();
  const seen = (): void =>
    void st.requests.push({
      origin,
      host: req.headers.host,
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      range: req.headers.range,
      status: res.statusCode,
      bytes: st.sentBytes.get(res) ?? 0,
      startMs,
      endMs: performance.now(),
    });
  res.on('finish', seen);
  res.on('close', () => {
    if (!res.writableFinished) seen();
  });
}

/** /__emulator/: faults, the request log and rescans, for a test or the e2e harness in another process. */
async function control(st: EmulatorState, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (path === '/__emulator/faults' && req.method === 'POST') {
    let next: Faults;
    try {
      next = JSON.parse((await readBody(req)) || '{}') as Faults;
    } catch (e) {
      // a bad request from a test must not take the emulator down for every other test
      return json(res, 400, { error: `faults: ${errorMessage(e)}` });
    }
    for (const k of Object.keys(st.faults) as (keyof Faults)[]) delete st.faults[k];
    Object.assign(st.faults, next);
    return json(res, 200, st.faults);
  }
  if (path === '/__emulator/requests') return json(res, 200, st.requests);
  if (path === '/__emulator/rescan' && req.method === 'POST') {
    for (const r of st.repos.values()) loadRepo(st, r.id, r.root);
    return json(res, 200, { ok: true });
  }
  json(res, 404, { error: 'unknown control route' });
}

function listen(s: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve((s.address() as AddressInfo).port));
  });
}

function closeServer(s: Server): Promise<void> {
  return new Promise((r) => {
    s.closeAllConnections();
    s.close(() => r());
  });
}
