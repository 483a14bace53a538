/** `hub:owner/name[@revision]`: a Hub repo whose logs are read in place. */

export interface HubRef {
  repo: string;
  /** as given; `main` when none */
  revision: string;
}

const REPO = /^[\w.-]+\/[\w.-]+$/;
const REVISION = /^[\w./-]{1,200}$/;

export const isHubRef = (s: string): boolean => s.startsWith('hub:');

/** The repo and revision of `hub:owner/name[@revision]`, or a one-line reason it is not one. */
export function parseHubRef(s: string): HubRef | string {
  const body = s.slice('hub:'.length);
  const at = body.indexOf('@');
  const repo = at < 0 ? body : body.slice(0, at);
  const revision = at < 0 ? 'main' : body.slice(at + 1);
  if (!REPO.test(repo)) return `"${repo}" is not a repo id (hub:owner/name[@revision])`;
  if (!REVISION.test(revision) || revision.includes('..')) return `"${revision}" is not a revision (a branch, tag or commit id)`;
  return { repo, revision };
}

/** How a run read in place is named: `hub:owner/name`, with `@revision` unless it is main. */
export function hubRefText(r: HubRef): string {
  return `hub:${r.repo}${r.revision === 'main' ? '' : `@${r.revision}`}`;
}
