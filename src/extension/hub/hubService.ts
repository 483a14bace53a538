/** The followed Hub repos: their listings, the token (SecretStorage), the endpoint. */
import * as vscode from 'vscode';
import { listRun, whoAmIName } from '../../core/hub/model';
import type { HubConnection, RunListing } from '../../core/hub/model';
import { resolveEndpoint, resolveToken } from '../../core/hub/config';
import { proxiedFetch, proxyFromSetting } from '../../core/hub/proxy';
import { Disposable } from '../dispose';
import { errorMessage } from '../../core/errorMessage';
import { checkListing } from '../../core/integrity/checkHub';
import type { IntegrityCheck } from '../../core/integrity/types';
import { background } from '../background';
import type { FailureLog } from '../background';

const TOKEN_KEY = 'rlRunBrowser.hfToken';

export interface RepoState {
  listing: RunListing | undefined;
  error: string | undefined;
  loading: boolean;
  /** docs/format.md section 9 for the listing's iterations, once checked (in the background, after the listing) */
  integrity?: IntegrityCheck;
}

export class HubService extends Disposable {
  private readonly states = new Map<string, RepoState>();
  private readonly changed = this._register(new vscode.EventEmitter<string | undefined>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private endpointSetting: () => string | undefined,
    /** rlRunBrowser.stallTimeoutSeconds, in ms: an API call that receives nothing for this long is dropped */
    private stallMs: () => number,
    /** where a failure nobody waits for goes (a refresh started by a timer or a tree) */
    private readonly log: FailureLog,
  ) {
    super();
  }

  state(repo: string): RepoState {
    return this.states.get(repo) ?? { listing: undefined, error: undefined, loading: false };
  }

  endpoint(): string {
    return resolveEndpoint(this.endpointSetting());
  }

  async connection(signal?: AbortSignal): Promise<HubConnection> {
    const stored = await this.secrets.get(TOKEN_KEY);
    const t = await resolveToken(stored);
    return {
      endpoint: this.endpoint(),
      ...(t.token ? { token: t.token, tokenSource: t.source === 'stored' ? 'the token you signed in with' : (t.file ?? t.source) } : {}),
      ...(signal ? { signal } : {}),
      stallTimeoutMs: this.stallMs(),
      ...proxied(),
    };
  }

  /** `refresh` without waiting: the tree shows the outcome, a failure of the refresh itself goes to the log. */
  startRefresh(repo: string): void {
    background(this.refresh(repo), this.log, `cannot refresh ${repo}`);
  }

  async refresh(repo: string): Promise<void> {
    const prev = this.state(repo);
    this.states.set(repo, { ...prev, loading: true });
    this.changed.fire(repo);
    try {
      const listing = await listRun(repo, 'main', await this.connection());
      // the same commit holds the same checkpoints: its check (a .metadata of a few MB per resume iteration) is kept
      const same = prev.integrity !== undefined && prev.listing?.commit === listing.commit;
      this.states.set(repo, { listing, error: undefined, loading: false, ...(same ? { integrity: prev.integrity } : {}) });
      if (!same) background(this.checkIntegrity(repo, listing), this.log, `cannot check the checkpoints of ${repo}`);
    } catch (e) {
      this.states.set(repo, { listing: prev.listing, error: errorMessage(e), loading: false });
    }
    this.changed.fire(repo);
  }

  /** Reads each iteration's .metadata and safetensors headers (never a shard body); the tree shows the result when it comes. */
  private async checkIntegrity(repo: string, listing: RunListing): Promise<void> {
    try {
      const integrity = await checkListing(listing, await this.connection());
      const now = this.state(repo);
      if (now.listing !== listing) return;
      this.states.set(repo, { ...now, integrity });
    } catch {
      // a check that cannot run leaves the tree as it was: each iteration simply shows no state
      return;
    }
    this.changed.fire(repo);
  }

  forget(repo: string): void {
    this.states.delete(repo);
    this.changed.fire(undefined);
  }

  /** Checks the token with whoami before keeping it. */
  async signIn(token: string): Promise<string> {
    const name = await whoAmIName({ endpoint: this.endpoint(), token, ...proxied() });
    await this.secrets.store(TOKEN_KEY, token);
    return name;
  }

  async signOut(): Promise<void> {
    await this.secrets.delete(TOKEN_KEY);
  }

  async hasStoredToken(): Promise<boolean> {
    return (await this.secrets.get(TOKEN_KEY)) !== undefined;
  }
}

/**
 * The fetch through the editor's proxy: the `http.proxy` setting (with `http.noProxy`), else
 * HTTPS_PROXY/HTTP_PROXY/NO_PROXY of the editor's environment; none when neither is set.
 */
function proxied(): { baseFetch?: typeof fetch } {
  const http = vscode.workspace.getConfiguration('http');
  const p = proxyFromSetting(http.get<string>('proxy'), http.get<string[]>('noProxy'));
  return p ? { baseFetch: proxiedFetch(p) } : {};
}
