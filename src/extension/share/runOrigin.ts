/**
 * Where a run came from, for its links: a run read in place (`hub:owner/name[@revision]`)
 * is its repo at the commit it read (the revision asked for only while none is known); a
 * folder a Hub repo's logs were downloaded into is that repo at the commit it was downloaded
 * at, kept in the extension's global state keyed by the folder (recorded when the download
 * ends); any other run is its local path.
 */
import { resolve } from 'node:path';
import type * as vscode from 'vscode';
import { EXTENSION_ID, buildLink } from '../../core/links/link';
import type { LinkView, RunRef } from '../../core/links/link';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';
import type { DownloadManager } from '../downloads/downloadManager';
import type { HubService } from '../hub/hubService';

const KEY = 'rlRunBrowser.logsOrigin';

type Origins = Record<string, { repo: string; revision: string }>;

/** The part of a VS Code Memento the origins use. */
export type OriginStore = Pick<vscode.Memento, 'get' | 'update'>;

let store: OriginStore | undefined;

/** The commit a run read in place was read at, by its root (set by the in-place feature). */
let commitRead: (root: string) => string | undefined = () => undefined;

/** Tells the links which commit each run read in place read, so they name it rather than the branch asked for. */
export function setCommitRead(lookup: (root: string) => string | undefined): void {
  commitRead = lookup;
}

/** Records, when a logs download ends well, the repo and the commit its folder holds. */
export function recordLogsOrigins(
  memento: OriginStore,
  downloads: Pick<DownloadManager, 'onDidFinish'>,
  hub: Pick<HubService, 'state'>,
): vscode.Disposable {
  store = memento;
  return downloads.onDidFinish((r) => {
    const commit = hub.state(r.repo).listing?.commit;
    if (r.kind !== 'logs' || !r.ok || !commit) return;
    void memento.update(KEY, { ...memento.get<Origins>(KEY, {}), [resolve(r.dest)]: { repo: r.repo, revision: commit } });
  });
}

/** The run a link names for the run at `root`. */
export function runRefOf(root: string, memento: OriginStore | undefined = store): RunRef {
  if (isHubRef(root)) {
    const ref = parseHubRef(root);
    if (typeof ref !== 'string') return { kind: 'hub', repo: ref.repo, revision: commitRead(root) ?? ref.revision };
  }
  const o = memento?.get<Origins>(KEY, {})[resolve(root)];
  return o ? { kind: 'hub', repo: o.repo, revision: o.revision } : { kind: 'local', path: root };
}

/**
 * The one place a link to a run is built: every Copy Link (trajectory, turn, run, chart,
 * comparison) names its run by `runRefOf` and uses the scheme of the editor it is copied in
 * (`vscode.env.uriScheme`), since an editor routes to extensions only the links of its own
 * scheme. Throws LinkError for what a link cannot name.
 */
export function runLink(root: string, view: LinkView, scheme: string): string {
  return buildLink({ run: runRefOf(root), view }, EXTENSION_ID, scheme);
}
