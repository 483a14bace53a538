/** Whether a repo can be followed: a well-formed name, and a model repo the endpoint knows. */
import { modelInfo } from '@huggingface/hub';
import { makeHubFetch } from './hubFetch';
import { HubError, toHubError } from './errors';
import { apiStall } from './model';
import type { HubConnection } from './model';

/** `owner/name` or `name`, in the characters the Hub allows (no `..`, no leading or trailing dot or dash). */
const REPO_NAME = /^(?:[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9])?\/)?[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9])?$/;

/** Why `name` is not a repo name, or undefined when it is one. */
export function repoNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'give a repo as owner/name';
  if (!REPO_NAME.test(name) || name.includes('..') || name.includes('--'))
    return `"${name.slice(0, 100)}" is not a Hub repo name (owner/name: letters, digits, "-", "_", ".")`;
  return undefined;
}

export type RepoCheck = { state: 'found' } | { state: 'not-found'; message: string } | { state: 'error'; message: string };

/** Asks the endpoint for the repo's model info; a malformed name is refused before any request. */
export async function checkRepo(name: string, c: HubConnection): Promise<RepoCheck> {
  const bad = repoNameProblem(name);
  if (bad) return { state: 'error', message: bad };
  const hf = makeHubFetch(c.endpoint, c.signal, c.baseFetch, { ...apiStall(c), bodyLimit: () => 1024 * 1024 });
  try {
    await modelInfo({ name, hubUrl: c.endpoint, fetch: hf.fetch, ...(c.token ? { accessToken: c.token } : {}) });
    return { state: 'found' };
  } catch (e) {
    const he = e instanceof HubError ? e : toHubError(e, { endpoint: c.endpoint, repo: name, token: c.token, hubFetch: hf });
    return he.kind === 'not-found' ? { state: 'not-found', message: he.message } : { state: 'error', message: he.message };
  }
}
