/** A run's Hub repo: its iterations under resume/ and hf/, which one is latest, its logs. */
import { downloadFile, listFiles, modelInfo } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import { toHubError } from './errors';

export interface HubConnection {
  endpoint: string;
  token?: string;
  /** where the token came from, for messages */
  tokenSource?: string;
  signal?: AbortSignal;
  /** the underlying fetch (tests may wrap it) */
  baseFetch?: typeof fetch;
}

export interface HubFile {
  path: string;
  size: number;
  /** git blob sha1 */
  oid: string;
  /** sha256 of the content, for LFS files */
  lfsSha256?: string;
  xetHash?: string;
}

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
}

export const LATEST_FILE = 'resume/latest_checkpointed_iteration.txt';
const ITER_RE = /^(resume|hf)\/iter_(\d{7,})\/(.+)$/;

export function iterDirName(n: number): string {
  return `iter_${String(n).padStart(7, '0')}`;
}

/** Parses the latest file: a whole number, a newline allowed. */
export function parseLatest(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** Groups a flat file listing into the run's shape (pure; tested directly). */
export function shapeListing(
  repo: string,
  revision: string,
  commit: string,
  files: HubFile[],
  latest: number | null,
  warnings: string[] = [],
): RunListing {
  const iters = new Map<string, IterationInfo>();
  const logs: HubFile[] = [];
  for (const f of files) {
    const m = ITER_RE.exec(f.path);
    if (m) {
      const kind = m[1] as CheckpointKind;
      const n = Number(m[2]);
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
  };
}

/** Lists a run repo at a revision: one recursive listing, pagination followed to the end. */
export async function listRun(repo: string, revision: string, c: HubConnection): Promise<RunListing> {
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch);
  const ctx = { endpoint: c.endpoint, repo, revision, token: c.token, tokenSource: c.tokenSource, hubFetch: hf };
  const creds = c.token ? { accessToken: c.token } : {};
  let commit: string;
  try {
    const info = await modelInfo({ name: repo, revision, hubUrl: c.endpoint, fetch: hf.fetch, additionalFields: ['sha'], ...creds });
    commit = (info as { sha?: string }).sha ?? revision;
  } catch (e) {
    throw toHubError(e, ctx);
  }
  const files: HubFile[] = [];
  try {
    for await (const e of listFiles({
      repo: { type: 'model', name: repo },
      revision: commit,
      recursive: true,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      ...creds,
    })) {
      if (e.type !== 'file') continue;
      files.push({
        path: e.path,
        size: e.size,
        oid: e.oid ?? '',
        ...(e.lfs ? { lfsSha256: e.lfs.oid } : {}),
        ...(e.xetHash ? { xetHash: e.xetHash } : {}),
      });
    }
  } catch (e) {
    throw toHubError(e, ctx);
  }
  const warnings: string[] = [];
  let latest: number | null = null;
  if (files.some((f) => f.path === LATEST_FILE)) {
    try {
      const blob = await downloadFile({
        repo: { type: 'model', name: repo },
        path: LATEST_FILE,
        revision: commit,
        hubUrl: c.endpoint,
        fetch: hf.fetch,
        xet: false,
        ...creds,
      });
      const text = blob ? await blob.text() : '';
      latest = parseLatest(text);
      if (latest === null) warnings.push(`${LATEST_FILE} does not hold a whole number: ${JSON.stringify(text.slice(0, 40))}`);
    } catch (e) {
      warnings.push(`cannot read ${LATEST_FILE}: ${toHubError(e, { ...ctx, path: LATEST_FILE }).message}`);
    }
  }
  return shapeListing(repo, revision, commit, files, latest, warnings);
}

/** Checks a token with the Hub's whoami; returns the account name. */
export async function whoAmIName(c: HubConnection & { token: string }): Promise<string> {
  const { whoAmI } = await import('@huggingface/hub');
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch);
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
