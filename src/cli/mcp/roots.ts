/**
 * What the MCP server may read: run paths under its roots (symlinks resolved before the check)
 * or `hub:owner/name[@revision]` refs; anything else is refused naming the allowed roots.
 */
import { existsSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isHubRef } from '../../core/hub/inPlace/hubRef';
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

/**
 * The run `ref` names, checked: a Hub ref as given, else a path (relative: against each root in
 * turn) whose real path lies under a root.
 */
export function checkRun(ref: string, roots: readonly string[]): string {
  if (isHubRef(ref)) return ref;
  const candidates = isAbsolute(ref) ? [ref] : roots.map((r) => join(r, ref));
  const found = candidates.find((c) => existsSync(c));
  const allowed = `allowed: paths under ${roots.join(', ')}, or hub:owner/name[@revision]`;
  if (found === undefined) throw new ToolError(`run ${JSON.stringify(ref)}: no such file or folder (${allowed})`);
  const real = realpathSync(found);
  if (!roots.some((r) => isUnder(real, r))) throw new ToolError(`run ${JSON.stringify(ref)} is outside the roots (${allowed})`);
  return real;
}
