/** Where a repo's logs are at a revision: its commit and the tree entries of the two logs (checked before use). */
import { modelInfo, pathsInfo } from '@huggingface/hub';
import { makeHubFetch } from '../hubFetch';
import { HubError, toHubError } from '../errors';
import { apiStall } from '../model';
import type { HubConnection } from '../model';
import { checkTreeEntry, isRefused, isSha1, shown } from '../treeEntry';
import type { HubLogTarget } from './hubLogSource';
import type { HubRef } from './hubRef';

export const CREDIT_PATH = 'logs/ws_credit_log.jsonl';
export const METRICS_PATH = 'logs/ws_metrics.jsonl';
/** the checkpoint evaluations (section 8), read in place at their reference path only */
export const EVAL_PATH = 'logs/eval_log.jsonl';
const INFO_MAX_BYTES = 8 << 20;

export interface HubLogs {
  commit: string;
  credit: HubLogTarget | undefined;
  metrics: HubLogTarget | undefined;
  evals?: HubLogTarget | undefined;
}

export async function resolveHubLogs(ref: HubRef, c: HubConnection): Promise<HubLogs> {
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, { ...apiStall(c), bodyLimit: () => INFO_MAX_BYTES });
  const ctx = { endpoint: c.endpoint, repo: ref.repo, revision: ref.revision, token: c.token, tokenSource: c.tokenSource, hubFetch: hf };
  const creds = c.token ? { accessToken: c.token } : {};
  try {
    const info = await modelInfo({
      name: ref.repo,
      revision: ref.revision,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      additionalFields: ['sha'],
      ...creds,
    });
    const sha = (info as { sha?: unknown }).sha;
    if (!isSha1(sha)) throw new HubError('other', `the Hub answered a commit id for ${ref.repo} that is not 40 hex digits: ${shown(sha)}`);
    const entries = await pathsInfo({
      repo: { type: 'model', name: ref.repo },
      paths: [CREDIT_PATH, METRICS_PATH, EVAL_PATH],
      revision: sha,
      hubUrl: c.endpoint,
      fetch: hf.fetch,
      ...creds,
    });
    const target = (path: string): HubLogTarget | undefined => {
      const i = entries.findIndex((e) => e.path === path);
      if (i < 0) return undefined;
      const f = checkTreeEntry(entries[i], i);
      if (f === null) return undefined;
      // a lying answer: asking again gets the same listing, so it is refused at once ('other' is never retried)
      if (isRefused(f)) throw new HubError('other', `refusing ${shown(f.path)} from the Hub: ${f.reason}`);
      return { repo: ref.repo, commit: sha, path, size: f.size, key: f.lfsSha256 ?? f.oid };
    };
    return { commit: sha, credit: target(CREDIT_PATH), metrics: target(METRICS_PATH), evals: target(EVAL_PATH) };
  } catch (e) {
    throw toHubError(e, ctx);
  }
}
