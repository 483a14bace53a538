/**
 * Links into the extension: `vscode://rl-run-browser.rl-run-browser/open?…` naming a run
 * (`run=` an absolute local path, or `repo=owner/name&revision=R`) and at most one view:
 * a trajectory (`iteration`, then `group`, `rollout`, `turn`, each needing the one
 * before), a dashboard `metric`, or a comparison with a second run (`compare=` an
 * absolute path or `owner/name@revision`).
 *
 * VS Code hands a URI handler the query percent-decoded once, so the builder encodes
 * each value twice (`/`, `:` and `@` stay plain, so usual paths stay readable) and the
 * parser takes the query as VS Code hands it: split on `&` and `=`, then decode each value.
 */
import { hasControl, metricProblem, pathProblem, repoProblem, revisionProblem, shown, wholeNumber } from './values';

export const EXTENSION_ID = 'rl-run-browser.rl-run-browser';
export const LINK_PATH = '/open';
const MAX_QUERY = 16 * 1024;

export type RunRef = { kind: 'local'; path: string } | { kind: 'hub'; repo: string; revision: string };

export type LinkView =
  | { kind: 'run' }
  | { kind: 'trajectories'; iteration: number; group?: number; rollout?: number; turn?: number }
  | { kind: 'metric'; metric: string }
  | { kind: 'compare'; other: RunRef };

export interface RunLink {
  run: RunRef;
  view: LinkView;
}

/** A link that cannot be opened; the message is one line, fit to show as it is. */
export class LinkError extends Error {}

const PARAMS = ['run', 'repo', 'revision', 'iteration', 'group', 'rollout', 'turn', 'metric', 'compare'] as const;
type Param = (typeof PARAMS)[number];
const CHAIN = ['iteration', 'group', 'rollout', 'turn'] as const;

function encodeValue(v: string): string {
  const once = encodeURIComponent(v).replace(/%2F/g, '/').replace(/%3A/g, ':').replace(/%40/g, '@');
  return once.replace(/%/g, '%25');
}

function check(problem: string | undefined): void {
  if (problem !== undefined) throw new LinkError(problem);
}

function checkRun(r: RunRef): void {
  if (r.kind === 'local') check(pathProblem(r.path));
  else {
    check(repoProblem(r.repo));
    check(revisionProblem(r.revision));
  }
}

function compareValue(r: RunRef): string {
  return r.kind === 'local' ? r.path : `${r.repo}@${r.revision}`;
}

function viewParams(v: LinkView): [Param, string][] {
  switch (v.kind) {
    case 'run':
      return [];
    case 'metric':
      return [['metric', v.metric]];
    case 'compare':
      checkRun(v.other);
      return [['compare', compareValue(v.other)]];
    case 'trajectories': {
      const out: [Param, string][] = [];
      for (const k of CHAIN) {
        const n = v[k];
        if (n === undefined) break;
        if (!Number.isSafeInteger(n) || n < 0) throw new LinkError(`${k} must be a whole number from 0 to 2^53 - 1, not ${n}`);
        out.push([k, String(n)]);
      }
      return out;
    }
  }
}

/**
 * The link's text; throws LinkError for what `parseLink` would refuse. `scheme` is the
 * editor's own (`vscode.env.uriScheme`: `vscode`, `vscode-insiders`, `code-oss` in
 * code-server), since an editor routes to extensions only the links of its own scheme.
 */
export function buildLink(link: RunLink, extensionId: string = EXTENSION_ID, scheme = 'vscode'): string {
  if (!/^[a-z][a-z0-9+.-]*$/.test(scheme)) throw new LinkError(`"${shown(scheme)}" is not a URI scheme`);
  checkRun(link.run);
  const params: [Param, string][] =
    link.run.kind === 'local'
      ? [['run', link.run.path]]
      : [
          ['repo', link.run.repo],
          ['revision', link.run.revision],
        ];
  params.push(...viewParams(link.view));
  const text = `${scheme}://${extensionId}${LINK_PATH}?${params.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&')}`;
  parseLink(LINK_PATH, text.slice(text.indexOf('?') + 1).replace(/%25/g, '%'));
  return text;
}

function splitQuery(query: string): Map<Param, string> {
  if (query.length > MAX_QUERY) throw new LinkError(`the link is longer than ${MAX_QUERY} characters`);
  if (query === '') throw new LinkError('the link names no run (run= or repo=)');
  const values = new Map<Param, string>();
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (key === '') throw new LinkError('the link has an empty parameter');
    if (!(PARAMS as readonly string[]).includes(key)) throw new LinkError(`unknown parameter "${shown(key)}" in the link`);
    const name = key as Param;
    if (values.has(name)) throw new LinkError(`parameter "${name}" is given twice`);
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      throw new LinkError(`parameter "${name}" is not valid percent-encoding`);
    }
    if (value === '') throw new LinkError(`parameter "${name}" is empty`);
    if (hasControl(value)) throw new LinkError(`parameter "${name}" holds a control character`);
    values.set(name, value);
  }
  return values;
}

function runOf(p: Map<Param, string>): RunRef {
  const run = p.get('run');
  const repo = p.get('repo');
  const revision = p.get('revision');
  if (run !== undefined && repo !== undefined) throw new LinkError('the link names both a local run and a Hub repo');
  if (run !== undefined) {
    if (revision !== undefined) throw new LinkError('revision goes with repo, not with a local run');
    return { kind: 'local', path: run };
  }
  if (repo === undefined) throw new LinkError('the link names no run (run= or repo=)');
  if (revision === undefined) throw new LinkError('a Hub repo in a link needs its revision');
  return { kind: 'hub', repo, revision };
}

/** A path starts with `/`, `\\` or a drive; anything else is `owner/name@revision` (neither part can hold an `@`). */
function compareOf(v: string): RunRef {
  if (v.startsWith('/') || v.startsWith('\\') || /^[A-Za-z]:/.test(v)) return { kind: 'local', path: v };
  const parts = v.split('@');
  if (parts.length !== 2) throw new LinkError('compare takes an absolute path or owner/name@revision');
  return { kind: 'hub', repo: parts[0]!, revision: parts[1]! };
}

function viewOf(p: Map<Param, string>): LinkView {
  const metric = p.get('metric');
  const compare = p.get('compare');
  const chain = CHAIN.filter((k) => p.has(k));
  const kinds = [metric !== undefined, compare !== undefined, chain.length > 0].filter(Boolean).length;
  if (kinds > 1) throw new LinkError('a link opens one view: a trajectory, a metric or a comparison');
  if (metric !== undefined) {
    check(metricProblem(metric));
    return { kind: 'metric', metric };
  }
  if (compare !== undefined) return { kind: 'compare', other: compareOf(compare) };
  if (chain.length === 0) return { kind: 'run' };
  const view: { kind: 'trajectories'; iteration: number; group?: number; rollout?: number; turn?: number } = {
    kind: 'trajectories',
    iteration: 0,
  };
  CHAIN.forEach((k, i) => {
    const s = p.get(k);
    if (s === undefined) {
      const later = CHAIN.slice(i + 1).find((l) => p.has(l));
      if (later !== undefined) throw new LinkError(`${later} needs ${k}`);
      return;
    }
    const n = wholeNumber(s);
    if (n === undefined) throw new LinkError(`${k} must be a whole number from 0 to 2^53 - 1, not "${shown(s)}"`);
    view[k] = n;
  });
  return view;
}

/**
 * The link's run and view, from a URI's path and query as VS Code hands them to a URI
 * handler (`uri.path`, `uri.query`). Throws LinkError with a one-line message for a link
 * it refuses. It does not look whether the run exists: the caller does.
 */
export function parseLink(path: string, query: string): RunLink {
  if (path !== LINK_PATH) throw new LinkError(`unknown link path "${shown(path)}" (expected ${LINK_PATH})`);
  const p = splitQuery(query);
  const run = runOf(p);
  checkRun(run);
  const view = viewOf(p);
  if (view.kind === 'compare') checkRun(view.other);
  return { run, view };
}
