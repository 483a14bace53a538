/** A run's Hub repo: its iterations under resume/ and hf/, which one is latest, its logs. */
import { downloadFile, listFiles, modelInfo } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import { DEFAULT_STALL_MS } from './retry';
import { HubError, toHubError } from './errors';
import { redact } from './config';
import type { HubFile, RefusedEntry } from './treeEntry';
import { checkTreeEntry, isRefused, isSha1, shown } from './treeEntry';

export interface HubConnection {
  endpoint: string;
  token?: string;
  /** where the token came from, for messages */
  tokenSource?: string;
  signal?: AbortSignal;
  /** the underlying fetch (tests may wrap it) */
  baseFetch?: typeof fetch;
  /** an API call (repo info, listing, paths info) that receives nothing for this long is dropped, ms (default 30000) */
  stallTimeoutMs?: number;
}

/** The stall watch of `c`'s API calls. */
export const apiStall = (c: HubConnection): { stallMs: number } => ({ stallMs: c.stallTimeoutMs ?? DEFAULT_STALL_MS });

export type CheckpointKind = 'resume' | 'hf';

export interface IterationInfo {
  kind: CheckpointKind;
  iteration: number;
  /** e.g. resume/iter_0000039 */
  dir: string;
  files: HubFile[];
  bytes: number;
  /** named by resume/latest_checkpointed_iteration.txt (resume only) */
  isLatest: boolean;
}

export interface RunListing {
  repo: string;
  revision: string;
  commit: string;
  resume: IterationInfo[];
  hf: IterationInfo[];
  /** N of resume/latest_checkpointed_iteration.txt, null when absent or unreadable */
  latest: number | null;
  logs: HubFile[];
  files: HubFile[];
  totalBytes: number;
  warnings: string[];
  /** tree entries left out because something in them is wrong (each also in warnings) */
  refused?: RefusedEntry[];
}

export const LATEST_FILE = 'resume/latest_checkpointed_iteration.txt';
const ITER_RE = /^(resume|hf)\/iter_(\d{7,})\/(.+)$/;
/** The latest file holds a number: more than this is not a latest file. */
const LATEST_MAX_BYTES = 64;
/** A tree page of 1000 entries is a few hundred KB. */
const TREE_PAGE_MAX_BYTES = 8 << 20;
/** An error body is a line or two. */
const ERROR_BODY_MAX_BYTES = 1 << 20;
/** 1000 pages of 1000 entries: far more files than a run repo holds. */
const MAX_TREE_PAGES = 1000;

export function iterDirName(n: number): string {
  return `iter_${String(n).padStart(7, '0')}`;
}

/** Parses the latest file: a whole number (at most 2^53 - 1), a newline allowed. */
export function parseLatest(text: string): number | null {
  const t = text.trim();
  return /^\d{1,16}$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : null;
}

/**
 * The iteration an `iter_<digits>` folder stands for, or why it is left out: the folder
 * must be written the way the trainer writes it (at least 7 digits, zero-padded to 7 and
 * no further), so that `iter_0000019` and `iter_00000000000000000019` never merge, and
 * its number must be exact (at most 2^53 - 1).
 */
function iterationOf(digits: string): number | string {
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) return 'its number is past 2^53 and cannot be kept exact';
  if (digits !== String(n).padStart(7, '0')) return `it is not zero-padded the way the trainer writes it (${iterDirName(n)})`;
  return n;
}

/** Groups a flat file listing into the run's shape (pure; tested directly). */
export function shapeListing(
  repo: string,
  revision: string,
  commit: string,
  files: HubFile[],
  latest: number | null,
  warnings: string[] = [],
  refused: RefusedEntry[] = [],
): RunListing {
  const iters = new Map<string, IterationInfo>();
  const logs: HubFile[] = [];
  const leftOut = new Set<string>();
  for (const f of files) {
    const m = ITER_RE.exec(f.path);
    if (m) {
      const kind = m[1] as CheckpointKind;
      const n = iterationOf(m[2]!);
      if (typeof n === 'string') {
        const dir = `${kind}/iter_${m[2]}`;
        if (!leftOut.has(dir)) warnings.push(`${dir} is left out: ${n}`);
        leftOut.add(dir);
        continue;
      }
      const key = `${kind}:${n}`;
      let it = iters.get(key);
      if (!it) {
        it = { kind, iteration: n, dir: `${kind}/iter_${m[2]}`, files: [], bytes: 0, isLatest: kind === 'resume' && n === latest };
        iters.set(key, it);
      }
      it.files.push(f);
      it.bytes += f.size;
    } else if (f.path.startsWith('logs/')) {
      logs.push(f);
    }
  }
  const list = (k: CheckpointKind): IterationInfo[] =>
    [...iters.values()].filter((i) => i.kind === k).sort((a, b) => a.iteration - b.iteration);
  const resume = list('resume');
  if (latest !== null && !resume.some((i) => i.iteration === latest))
    warnings.push(`${LATEST_FILE} names iteration ${latest}, which has no folder under resume/`);
  return {
    repo,
    revision,
    commit,
    resume,
    hf: list('hf'),
    latest,
    logs,
    files,
    totalBytes: files.reduce((s, f) => s + f.size, 0),
    warnings,
    refused,
  };
}

/** Lists a run repo at a revision: one recursive listing, pagination followed to the end. */
export async function listRun(repo: string, revision: string, c: HubConnection): Promise<RunListing> {
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, {
    ...apiStall(c),
    bodyLimit: (url, status) => (status >= 400 ? ERROR_BODY_MAX_BYTES : url.pathname.includes('/tree/') ? TREE_PAGE_MAX_BYTES : undefined),
    onRequest: treePageGuard(repo),
  });
  const ctx = { endpoint: c.endpoint, repo, revision, token: c.token, tokenSource: c.tokenSource, hubFetch: hf };
  const creds = c.token ? { accessToken: c.token } : {};
  let commit: string;
  try {
    const info = await modelInfo({ name: repo, revision, hubUrl: c.endpoint, fetch: hf.fetch, additionalFields: ['sha'], ...creds });
    const sha = (info as { sha?: unknown }).sha;
    if (sha !== undefined && !isSha1(sha))
      throw new HubError('server', `the Hub answered a commit id for ${repo} that is not 40 hex digits: ${shown(sha)}`);
    commit = sha ?? revision;
  } catch (e) {
    throw toHubError(e, ctx);
  }
  const files: HubFile[] = [];
  const refused: RefusedEntry[] = [];
  try {
    let index = 0;
    for await (const e of listFiles({
      repo: { type: 'model', name: repo },
      revision: commit,
      recursive: true,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      ...creds,
    })) {
      const f = checkTreeEntry(e, index++);
      if (f === null) continue;
      if (isRefused(f)) refused.push(f);
      else files.push(f);
    }
  } catch (e) {
    throw toHubError(e, ctx);
  }
  const warnings = refused.map((r) => `refusing ${shown(r.path)} from the Hub's listing: ${r.reason}`);
  let latest: number | null = null;
  if (files.some((f) => f.path === LATEST_FILE)) {
    const lf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, {
      ...apiStall(c),
      bodyLimit: (_url, status) => (status >= 400 ? ERROR_BODY_MAX_BYTES : LATEST_MAX_BYTES),
    });
    try {
      const blob = await downloadFile({
        repo: { type: 'model', name: repo },
        path: LATEST_FILE,
        revision: commit,
        hubUrl: c.endpoint,
        fetch: lf.fetch,
        xet: false,
        ...creds,
      });
      const text = blob ? await blob.text() : '';
      latest = parseLatest(text);
      if (latest === null) warnings.push(`${LATEST_FILE} does not hold a whole number: ${shown(text.slice(0, 40))}`);
    } catch (e) {
      warnings.push(`cannot read ${LATEST_FILE}: ${toHubError(e, { ...ctx, path: LATEST_FILE, hubFetch: lf }).message}`);
    }
  }
  return shapeListing(
    repo,
    revision,
    commit,
    files,
    latest,
    warnings.map((w) => redact(w, c.token)),
    refused,
  );
}

/** Stops a tree listing whose `Link: rel="next"` points back at a page, or that goes on and on. */
function treePageGuard(repo: string): (url: URL) => void {
  const seen = new Set<string>();
  return (url) => {
    if (!url.pathname.includes('/tree/')) return;
    const key = url.toString();
    if (seen.has(key)) throw new HubError('server', `the Hub's listing of ${repo} points back at a page it already sent; stopped`);
    seen.add(key);
    if (seen.size > MAX_TREE_PAGES)
      throw new HubError('server', `the Hub's listing of ${repo} goes on past ${MAX_TREE_PAGES} pages; stopped`);
  };
}

/** Checks a token with the Hub's whoami; returns the account name. */
export async function whoAmIName(c: HubConnection & { token: string }): Promise<string> {
  const { whoAmI } = await import('@huggingface/hub');
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, apiStall(c));
  try {
    const me = await whoAmI({ accessToken: c.token, hubUrl: c.endpoint, fetch: hf.fetch });
    return me.name;
  } catch (e) {
    throw toHubError(e, { endpoint: c.endpoint, repo: 'whoami', token: c.token, tokenSource: 'the token given', hubFetch: hf });
  }
}

/** The repo's page on the Hub website. */
export function repoWebUrl(endpoint: string, repo: string, path?: string, revision = 'main'): string {
  return `${endpoint}/${repo}${path ? `/tree/${encodeURIComponent(revision)}/${path}` : ''}`;
}
