/**
 * Where a run came from, for its links: a run read in place (`hub:owner/name[@revision]`)
 * is its repo and revision; a folder a Hub repo's logs were downloaded into is that repo
 * at the commit it was downloaded at, kept in the extension's global state keyed by the
 * folder (recorded when the download ends); any other run is its local path.
 */
import { resolve } from 'node:path';
import type * as vscode from 'vscode';
import type { RunRef } from '../../core/links/link';
import { isHubRef, parseHubRef } from '../../core/hub/inPlace/hubRef';
import type { DownloadManager } from '../downloads/downloadManager';
import type { HubService } from '../hub/hubService';

const KEY = 'rlRunBrowser.logsOrigin';

type Origins = Record<string, { repo: string; revision: string }>;

/** The part of a VS Code Memento the origins use. */
export type OriginStore = Pick<vscode.Memento, 'get' | 'update'>;

let store: OriginStore | undefined;

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
    if (typeof ref !== 'string') return { kind: 'hub', repo: ref.repo, revision: ref.revision };
  }
  const o = memento?.get<Origins>(KEY, {})[resolve(root)];
  return o ? { kind: 'hub', repo: o.repo, revision: o.revision } : { kind: 'local', path: root };
}
