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

/** At most this many runs read in place are remembered per workspace. */
export const MAX_REMEMBERED = 50;

/**
 * The runs read in place a workspace remembers (a list of `hub:owner/name[@revision]`), read
 * back as untrusted input: a value that is not a list is dropped whole, a bad entry skips
 * that entry only, each with one line naming `where` and the entry.
 */
export function parseRemembered(v: unknown, where: string): { refs: HubRef[]; problems: string[] } {
  if (v === undefined) return { refs: [], problems: [] };
  if (!Array.isArray(v)) return { refs: [], problems: [`${where}: not a list; ignored`] };
  const refs: HubRef[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  v.slice(0, MAX_REMEMBERED).forEach((x, i) => {
    const ref = typeof x === 'string' && isHubRef(x) ? parseHubRef(x.slice(0, 300)) : 'not a hub:owner/name[@revision] text';
    if (typeof ref === 'string') problems.push(`${where}[${i}]: ${ref}; skipped`);
    else if (!seen.has(hubRefText(ref))) {
      seen.add(hubRefText(ref));
      refs.push(ref);
    }
  });
  if (v.length > MAX_REMEMBERED) problems.push(`${where}: ${v.length - MAX_REMEMBERED} entries past the first ${MAX_REMEMBERED} ignored`);
  return { refs, problems };
}
