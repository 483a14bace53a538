/**
 * Fetch and verify one file: the rest of it is appended to its partial (an HTTP range from
 * the bytes already there), hashed as it arrives, and checked against its digest; dropped
 * links, stalls, 5xx, 429 and expired bridge URLs are retried with backoff, a wrong byte
 * restarts the file once.
 */
import type { Hash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileDownloadInfo } from '@huggingface/hub';
import { makeHubFetch } from '../hubFetch';
import type { HubFetch } from '../hubFetch';
import { HubError, toHubError } from '../errors';
import type { DownloadItem, DownloadOptions } from './types';
import { DownloadError } from './types';
import { expectedDigest, fileSize, hashFile, newHasher } from './digest';
import { partialPath } from './paths';
import { shown } from '../treeEntry';
import { DEFAULT_RETRIES, DEFAULT_STALL_MS, cancelled, retryWaitMs, shouldRetry, sleep, watched } from '../retry';
import type { ProgressMeter } from './progress';
import { PartialWriter } from './partialWriter';
import type { SyncSlots } from './partialWriter';

const FLUSH_EVERY = 32 << 20;

export interface FetchContext {
  repo: string;
  commit: string;
  stateDir: string;
  o: DownloadOptions;
  meter: ProgressMeter;
  syncs: SyncSlots;
}

function hubError(c: FetchContext, it: DownloadItem, e: unknown, hf?: HubFetch): HubError {
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

/** Fetches the rest of a file into its partial and verifies it; returns the bytes fetched. */
export async function fetchAndVerify(c: FetchContext, it: DownloadItem): Promise<number> {
  const { o, meter } = c;
  const part = partialPath(c.stateDir, it);
  await mkdir(dirname(part), { recursive: true });
  const retries = o.retries ?? DEFAULT_RETRIES;
  let failures = 0;
  let mismatches = 0;
  let fetchedHere = 0;
  for (;;) {
    if (o.signal?.aborted) throw cancelled();
    let have = (await fileSize(part)) ?? 0;
    if (have > it.size) {
      await rm(part, { force: true });
      meter.discard(Math.min(have, it.size));
      have = 0;
    }
    const h = { hasher: newHasher(it) };
    await hashFile(part, h.hasher, have);
    try {
      if (it.size === 0) await writeFile(part, '');
      else if (have < it.size) fetchedHere += await fetchRest(c, it, part, have, h);
    } catch (e) {
      const he = e instanceof DownloadError ? e : hubError(c, it, e);
      if (he instanceof HubError && he.kind === 'cancelled') throw he;
      if (o.signal?.aborted) throw cancelled();
      // ours already name the file
      if (he instanceof DownloadError) throw he;
      if (shouldRetry(he, ++failures, o)) {
        const wait = retryWaitMs(he, failures, o);
        meter.emit(`${it.target}: ${he.message}; retrying in ${(wait / 1000).toFixed(1)} s (${failures}/${retries})`);
        await sleep(wait, o.signal);
        continue;
      }
      throw new DownloadError(`${it.path}: ${he.message}${failures > retries ? ` (after ${retries} retries)` : ''}`, it.path, e);
    }
    const got = h.hasher.digest('hex');
    const want = expectedDigest(it);
    if (got === want.hex) return fetchedHere;
    // a wrong byte somewhere: never keep it; start this file again once
    await rm(part, { force: true });
    meter.discard(it.size);
    if (++mismatches <= 1) {
      meter.emit(`${it.target}: checksum mismatch, fetching it again from the start`);
      continue;
    }
    throw new DownloadError(
      `${it.path}: checksum mismatch twice (expected ${want.algo} ${want.hex}, got ${got}); nothing was put in place`,
      it.path,
    );
  }
}

/** Each segment of a repo path encoded for a URL: file names may hold #, ?, % or \\. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

interface Body {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** the server ignored the range and sends the whole file from byte 0 */
  fromZero: boolean;
}

/**
 * Opens the body of bytes [have, size) of a file through the Hub's resolve route (which
 * may redirect to a CDN or a signed Xet bridge URL: resolved again on every attempt, so an
 * expired one is replaced). A 206 must be for exactly the range asked; a 200 to a ranged
 * request is the whole file.
 */
async function openBody(c: FetchContext, it: DownloadItem, have: number, hf: HubFetch): Promise<Body> {
  const { o } = c;
  const creds = o.token ? { accessToken: o.token } : {};
  const repo = { type: 'model' as const, name: c.repo };
  const path = encodePath(it.path);
  const info = await fileDownloadInfo({ repo, path, revision: c.commit, hubUrl: o.endpoint, fetch: hf.fetch, ...creds });
  if (!info) throw new HubError('entry-not-found', `${it.path} is no longer in ${c.repo} at ${c.commit.slice(0, 8)}`);
  if (info.size !== it.size)
    throw new DownloadError(`${it.path}: the Hub now says ${info.size} bytes, the listing said ${it.size}; refresh and try again`, it.path);
  const headers: Record<string, string> = {};
  if (o.token) headers['Authorization'] = `Bearer ${o.token}`;
  if (have > 0) headers['Range'] = `bytes=${have}-${it.size - 1}`;
  const res = await hf.fetch(info.url, { headers });
  const from = new URL(res.url || info.url).origin;
  const refuse = async (e: Error): Promise<never> => {
    await res.body?.cancel().catch(() => undefined);
    throw e;
  };
  if (res.status === 403 && from !== new URL(o.endpoint).origin)
    return refuse(
      new HubError('server', `the signed download URL from ${from} expired or was refused (HTTP 403); resolving it again`, undefined, 403),
    );
  if (!res.ok) return refuse(Object.assign(new Error(`HTTP ${res.status}`), { statusCode: res.status }));
  if (res.status === 206) {
    const want = `bytes ${have}-${it.size - 1}/${it.size}`;
    const got = res.headers.get('content-range');
    if (got?.trim() !== want)
      return refuse(
        new HubError('server', `${from} answered with Content-Range ${shown(got)} to a request for ${want}; refused`, undefined, 206),
      );
  } else if (res.status !== 200) {
    return refuse(new HubError('server', `${from} answered HTTP ${res.status} to a file request`, undefined, res.status));
  }
  if (!res.body) return refuse(new HubError('server', `${from} sent no body for ${it.path}`));
  return { reader: res.body.getReader(), fromZero: res.status === 200 && have > 0 };
}

/**
 * Appends bytes [have, size) to `part`, feeding the hasher (replaced when the file restarts
 * from 0); returns the bytes fetched. The stall watchdog runs from the request on, so a
 * server that never sends the headers is dropped too.
 */
async function fetchRest(c: FetchContext, it: DownloadItem, part: string, have: number, h: { hasher: Hash }): Promise<number> {
  const { o } = c;
  let hf: HubFetch | undefined;
  try {
    return await watched(o.stallTimeoutMs ?? DEFAULT_STALL_MS, o.signal, (signal, moved) => {
      hf = makeHubFetch(o.endpoint, signal, o.baseFetch);
      return fetchBody(c, it, part, have, h, hf, moved);
    });
  } catch (e) {
    throw e instanceof DownloadError || e instanceof HubError ? e : hubError(c, it, e, hf);
  }
}

async function fetchBody(
  c: FetchContext,
  it: DownloadItem,
  part: string,
  have: number,
  h: { hasher: Hash },
  hf: HubFetch,
  count: (n: number) => void,
): Promise<number> {
  const { o, meter } = c;
  const { reader, fromZero } = await openBody(c, it, have, hf);
  const w = await PartialWriter.open(part, o.flushEveryBytes ?? FLUSH_EVERY, c.syncs).catch((e: unknown) => {
    void reader.cancel().catch(() => undefined);
    throw e;
  });
  try {
    if (fromZero) {
      // the server ignored the range: this body is the whole file, so the partial starts over
      await w.restart();
      meter.discard(have);
      meter.emit(`${it.target}: the server sent the whole file instead of bytes ${have}-; starting it again from byte 0`);
      have = 0;
      h.hasher = newHasher(it);
    }
    const hasher = h.hasher;
    let received = 0;
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        const chunk = r.value;
        if (have + received + chunk.length > it.size)
          throw new HubError('server', `${it.path}: the server sent more bytes than the file has`);
        received += chunk.length;
        count(chunk.length);
        await w.push(chunk);
        hasher.update(chunk);
        // progress counts bytes as they arrive; what is pending is written on any exit
        meter.received(chunk.length);
      }
      await w.drain();
    } finally {
      await w.settle();
    }
    const syncError = w.flushError;
    if (syncError) throw new DownloadError(`${it.path}: cannot flush ${part} to disk: ${syncError.message}`, it.path, syncError);
    if (o.signal?.aborted) throw cancelled();
    if (have + w.bytesWritten < it.size)
      throw new HubError('offline', `the connection closed after ${have + w.bytesWritten} of ${it.size} bytes`);
    return w.bytesWritten;
  } finally {
    await w.close();
  }
}
