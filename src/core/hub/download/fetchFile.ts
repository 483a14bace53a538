/**
 * Fetch and verify one file: the rest of it is appended to its partial (an HTTP range from
 * the bytes already there), hashed as it arrives, and checked against its digest; dropped
 * links, 5xx and 429 are retried with backoff, a wrong byte restarts the file once.
 */
import type { Hash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { downloadFile, fileDownloadInfo } from '@huggingface/hub';
import { makeHubFetch } from '../hubFetch';
import type { HubFetch } from '../hubFetch';
import { HubError, toHubError } from '../errors';
import type { DownloadItem, DownloadOptions } from './types';
import { DownloadError } from './types';
import { expectedDigest, fileSize, hashFile, newHasher } from './digest';
import { partialPath } from './paths';
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

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((res, rej) => {
    const t = setTimeout(res, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        rej(new HubError('cancelled', 'cancelled'));
      },
      { once: true },
    );
  });

const cancelled = (): HubError => new HubError('cancelled', 'cancelled');

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
  const retries = o.retries ?? 6;
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
    const hasher = newHasher(it);
    await hashFile(part, hasher, have);
    try {
      if (have < it.size) fetchedHere += await fetchRest(c, it, part, have, hasher);
    } catch (e) {
      const he = e instanceof DownloadError ? e : hubError(c, it, e);
      if (he instanceof HubError && he.kind === 'cancelled') throw he;
      if (o.signal?.aborted) throw cancelled();
      // ours already name the file
      if (he instanceof DownloadError) throw he;
      if (he.retriable && ++failures <= retries) {
        const wait =
          he.kind === 'rate-limited' && he.retryAfterSeconds !== undefined
            ? he.retryAfterSeconds * 1000
            : (o.backoffMs ?? 500) * 2 ** (failures - 1);
        meter.emit(`${it.target}: ${he.message}; retrying in ${(wait / 1000).toFixed(1)} s (${failures}/${retries})`);
        await sleep(Math.min(wait, 60_000), o.signal);
        continue;
      }
      throw new DownloadError(`${it.path}: ${he.message}${failures > retries ? ` (after ${retries} retries)` : ''}`, it.path, e);
    }
    const got = hasher.digest('hex');
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

/** Opens the body of bytes [have, size) of a file, through the Hub's resolve route. */
async function openBody(c: FetchContext, it: DownloadItem, have: number, hf: HubFetch): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const { o } = c;
  const creds = o.token ? { accessToken: o.token } : {};
  const repo = { type: 'model' as const, name: c.repo };
  let blob: Blob | null;
  try {
    const info = await fileDownloadInfo({ repo, path: it.path, revision: c.commit, hubUrl: o.endpoint, fetch: hf.fetch, ...creds });
    if (!info) throw new HubError('entry-not-found', `${it.path} is no longer in ${c.repo} at ${c.commit.slice(0, 8)}`);
    if (info.size !== it.size)
      throw new DownloadError(
        `${it.path}: the Hub now says ${info.size} bytes, the listing said ${it.size}; refresh and try again`,
        it.path,
      );
    blob = await downloadFile({
      repo,
      path: it.path,
      revision: c.commit,
      hubUrl: o.endpoint,
      fetch: hf.fetch,
      xet: false,
      downloadInfo: { ...info, xet: undefined },
      ...creds,
    });
  } catch (e) {
    throw e instanceof DownloadError || e instanceof HubError ? e : hubError(c, it, e, hf);
  }
  if (!blob) throw new HubError('entry-not-found', `${it.path} not found`);
  return blob.slice(have, it.size).stream().getReader();
}

/** Appends bytes [have, size) to `part`, feeding the hasher; returns the bytes fetched. */
async function fetchRest(c: FetchContext, it: DownloadItem, part: string, have: number, hasher: Hash): Promise<number> {
  const { o, meter } = c;
  const hf = makeHubFetch(o.endpoint, o.signal, o.baseFetch);
  const reader = await openBody(c, it, have, hf);
  const w = await PartialWriter.open(part, o.flushEveryBytes ?? FLUSH_EVERY, c.syncs).catch((e: unknown) => {
    void reader.cancel().catch(() => undefined);
    throw e;
  });
  try {
    const onAbort = (): void => {
      void reader.cancel().catch(() => undefined);
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let received = 0;
    try {
      for (;;) {
        let r: Awaited<ReturnType<typeof reader.read>>;
        try {
          r = await reader.read();
        } catch (e) {
          throw hubError(c, it, readFailure(e, hf), hf);
        }
        if (r.done) break;
        const chunk = r.value;
        if (have + received + chunk.length > it.size)
          throw new HubError('server', `${it.path}: the server sent more bytes than the file has`);
        received += chunk.length;
        await w.push(chunk);
        hasher.update(chunk);
        // progress counts bytes as they arrive; what is pending is written on any exit
        meter.received(chunk.length);
      }
      await w.drain();
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
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

/** The library's stream fails with a bare message; the status, if any, is in hubFetch. */
function readFailure(e: unknown, hf: HubFetch): unknown {
  const status = hf.lastStatus();
  if (status !== undefined && status >= 400) return Object.assign(new Error(String(e)), { statusCode: status });
  return typeof e === 'string' ? new Error(`connection lost: ${e}`) : e;
}
