/**
 * What the MCP server may read: run paths under its roots (symlinks resolved before the check)
 * or `hub:owner/name[@revision]` refs of the followed repos (`--repo`); anything else is refused
 * naming what is allowed. The files of a run are checked again each time they are read
 * (src/core/log/logFile.ts).
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';
import { ToolError } from './limits';

/** The roots, each resolved to its real path once. */
export function realRoots(dirs: readonly string[]): string[] {
  const list = dirs.length > 0 ? dirs : [process.cwd()];
  return list.map((d) => {
    try {
      return realpathSync(resolve(d));
    } catch {
      throw new ToolError(`--root ${d}: no such folder`);
    }
  });
}

/** Whether the real path `p` is `root` or inside it. */
export function isUnder(p: string, root: string): boolean {
  const r = relative(root, p);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r) && r.split(sep)[0] !== '..');
}

/** A Hub ref of one of the followed `repos`, as given; anything else refused (the server's token must not read any repo asked for). */
function checkHubRef(ref: string, repos: readonly string[]): string {
  const r = parseHubRef(ref);
  if (typeof r === 'string') throw new ToolError(`run ${JSON.stringify(ref)}: ${r}`);
  if (repos.includes(r.repo)) return ref;
  const allowed = repos.length > 0 ? repos.map((x) => `hub:${x}`).join(', ') : 'no --repo given';
  throw new ToolError(`hub:${r.repo} is not a followed repo (allowed: ${allowed})`);
}

/**
 * The run `ref` names, checked: a Hub ref of a followed repo as given, else a path (relative:
 * against each root in turn) whose real path lies under a root.
 */
export function checkRun(ref: string, roots: readonly string[], repos: readonly string[] = []): string {
  if (isHubRef(ref)) return checkHubRef(ref, repos);
  const candidates = isAbsolute(ref) ? [ref] : roots.map((r) => join(r, ref));
  const found = candidates.find((c) => existsSync(c));
  const allowed = `allowed: paths under ${roots.join(', ')}, or hub:owner/name[@revision] of a followed repo`;
  const named = JSON.stringify(ref.length > 300 ? `${ref.slice(0, 300)}…` : ref);
  if (found === undefined) throw new ToolError(`run ${named}: no such file or folder (${allowed})`);
  const real = realpathSync(found);
  if (!roots.some((r) => isUnder(real, r))) throw new ToolError(`run ${named} is outside the roots (${allowed})`);
  return real;
}
