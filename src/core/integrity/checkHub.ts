/**
 * docs/format.md section 9 for a run's Hub repo, before a byte of a shard is fetched: the listing's
 * names and sizes, each resume iteration's `.metadata` (read whole, bounded) and each hf shard's
 * 8 bytes and header by range through `@huggingface/hub`'s own safetensors parser.
 */
import { downloadFile, parseSafetensorsMetadata } from '@huggingface/hub';
import type { HubConnection, IterationInfo, RunListing } from '../hub/model';
import { apiStall, listRun } from '../hub/model';
import { makeHubFetch } from '../hub/hubFetch';
import { toHubError } from '../hub/errors';
import { readDistcpMetadata } from './distcpMetadata';
import type { DistcpMetadata } from './distcpMetadata';
import { DEFAULT_PICKLE_LIMITS } from './pickle';
import { INDEX_FILE, MAX_HEADER_BYTES, MAX_INDEX_BYTES, SINGLE_FILE, shardsFromIndex, summarizeHeader } from './safetensorsHeader';
import type { SafetensorsHeader } from './safetensorsHeader';
import type { FileEntry, HfCheck, IntegrityCheck, ResumeCheck } from './types';
import { byCodePoint, hfVerdict, latestVerdict, resumeVerdict, sortedReport } from './verdict';

const ERROR_BODY_MAX_BYTES = 1 << 20;

/** Lists the repo at `revision` and checks every iteration of it. */
export async function checkHubRepo(repo: string, revision: string, c: HubConnection): Promise<IntegrityCheck> {
  return checkListing(await listRun(repo, revision, c), c);
}

/** Iterations checked at once: each is a few small requests, so the time is latency, not bytes. */
const CHECK_CONCURRENCY = 4;

/** Checks the iterations of a listing already made (the tree has one). */
export async function checkListing(listing: RunListing, c: HubConnection): Promise<IntegrityCheck> {
  const out: IntegrityCheck = {
    report: { resume: {}, hf: {}, latest: latestVerdict({}, null) },
    files: { resume: {}, hf: {} },
    warnings: [...listing.warnings],
  };
  const jobs = [...listing.resume, ...listing.hf].map((it) => async (): Promise<void> => {
    const key = it.dir.slice(it.kind.length + 1);
    out.files[it.kind][key] = entries(it);
    if (it.kind === 'resume') out.report.resume[key] = await checkResumeIteration(listing, it, c);
    else out.report.hf[key] = await checkHfIteration(listing, it, c);
  });
  await inPool(jobs, CHECK_CONCURRENCY);
  out.report.latest = latestVerdict(out.report.resume, listing.latest);
  // the keys in order, whichever iteration answered first
  out.report = sortedReport(out.report);
  out.files = { resume: sortedKeys(out.files.resume), hf: sortedKeys(out.files.hf) };
  return out;
}

/** Runs the jobs, at most `limit` at a time. */
async function inPool(jobs: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => byCodePoint(a, b)));
}

/** An iteration's files by their name inside its folder. */
export function entries(it: IterationInfo): FileEntry[] {
  return it.files.map((f) => ({ name: f.path.slice(it.dir.length + 1), size: f.size })).sort((a, b) => byCodePoint(a.name, b.name));
}

export async function checkResumeIteration(listing: RunListing, it: IterationInfo, c: HubConnection): Promise<ResumeCheck> {
  const files = entries(it);
  const md = files.find((f) => f.name === '.metadata');
  if (!md) return resumeVerdict(files, undefined);
  if (md.size > DEFAULT_PICKLE_LIMITS.maxBytes)
    return resumeVerdict(files, {
      ok: false,
      reason: `.metadata is ${md.size} bytes, over the ${DEFAULT_PICKLE_LIMITS.maxBytes} a reader accepts`,
    });
  let read: DistcpMetadata;
  try {
    read = readDistcpMetadata(await fetchSmall(listing, `${it.dir}/.metadata`, DEFAULT_PICKLE_LIMITS.maxBytes, c));
  } catch (e) {
    return { complete: null, reason: `cannot read .metadata: ${(e as Error).message}` };
  }
  return resumeVerdict(files, read);
}

export async function checkHfIteration(listing: RunListing, it: IterationInfo, c: HubConnection): Promise<HfCheck> {
  const files = entries(it);
  let shards: string[] | { reason: string } = [SINGLE_FILE];
  if (files.some((f) => f.name === INDEX_FILE)) {
    try {
      shards = shardsFromIndex(new TextDecoder().decode(await fetchSmall(listing, `${it.dir}/${INDEX_FILE}`, MAX_INDEX_BYTES, c)));
    } catch (e) {
      shards = { reason: `cannot read ${INDEX_FILE}: ${(e as Error).message}` };
    }
  }
  const headers = new Map<string, SafetensorsHeader | Error>();
  if (Array.isArray(shards)) {
    const present = new Set(files.map((f) => f.name));
    // A missing shard decides it already: no header is worth a request then.
    if (shards.every((s) => present.has(s)))
      for (const s of shards) {
        const h = await shardHeader(listing, `${it.dir}/${s}`, c);
        if (h === undefined)
          return { complete: null, reason: `cannot read the header of ${s}`, shards: shards.length, missing: [], parameters: null };
        headers.set(s, h);
      }
  }
  return hfVerdict(shards, files, headers);
}

/**
 * One shard's header through the Hub client's parser. The parser does not say how long the header
 * was, and a short file is told by it: the length is the range it asked for after the first 8 bytes.
 * undefined: the Hub could not be read (cannot tell); an Error: the header is malformed.
 */
async function shardHeader(listing: RunListing, path: string, c: HubConnection): Promise<SafetensorsHeader | Error | undefined> {
  let headerLength: number | undefined;
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, {
    ...apiStall(c),
    bodyLimit: (_url, status) => (status >= 400 ? ERROR_BODY_MAX_BYTES : MAX_HEADER_BYTES),
  });
  const watched = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const range = new Headers(init?.headers).get('range');
    const m = range ? /^bytes=8-(\d+)$/.exec(range) : null;
    if (m) headerLength = Number(m[1]) - 7;
    return hf.fetch(input, init);
  };
  try {
    // The parser hands its params on to downloadFile: `xet: false` asks for plain range requests,
    // a header being a few KB that the Xet reconstruction would cost more requests to get.
    const params: Parameters<typeof parseSafetensorsMetadata>[0] & { xet: false } = {
      repo: { type: 'model', name: listing.repo },
      path,
      revision: listing.commit,
      hubUrl: c.endpoint,
      fetch: watched,
      xet: false,
      ...(c.token ? { accessToken: c.token } : {}),
    };
    const r = await parseSafetensorsMetadata(params);
    if (r.sharded || headerLength === undefined) return undefined;
    return summarizeHeader(r.header, headerLength);
  } catch (e) {
    if ((e as Error).name === 'SafetensorParseError') return e as Error;
    return undefined;
  }
}

async function fetchSmall(listing: RunListing, path: string, limit: number, c: HubConnection): Promise<Uint8Array> {
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, {
    ...apiStall(c),
    bodyLimit: (_url, status) => (status >= 400 ? ERROR_BODY_MAX_BYTES : limit),
  });
  try {
    const blob = await downloadFile({
      repo: { type: 'model', name: listing.repo },
      path,
      revision: listing.commit,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      xet: false,
      ...(c.token ? { accessToken: c.token } : {}),
    });
    if (!blob) throw new Error(`${path} is not on the Hub`);
    return new Uint8Array(await blob.arrayBuffer());
  } catch (e) {
    throw toHubError(e, { endpoint: c.endpoint, repo: listing.repo, revision: listing.commit, token: c.token, path, hubFetch: hf });
  }
}
