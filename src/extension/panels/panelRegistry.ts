/**
 * The open panels of every kind, by kind and key: one generic set per kind creates,
 * finds, reveals, adopts and restores its panels, and the registry is the one
 * WebviewPanelSerializer of every kind (`register` registers them all).
 */
import * as vscode from 'vscode';
import type { HostState, OpenPanel, PanelDeps, PanelSite } from './panelHost';
import { webviewOptions } from './panelHost';

/** One kind of panel: its view type, which states are the same panel, how a saved state is checked, its class. */
export interface PanelKindSpec<S extends HostState, P extends OpenPanel<S['kind']>> {
  readonly viewType: string;
  /** the tab's title until the panel names its runs */
  readonly title: string;
  /** the workspace key of its last state, for a reload that lost the page's own (none: the page's state only) */
  readonly memoryKey?: string;
  /** one panel per key */
  key(state: S): string;
  /** the runs opened before a restored panel asks for them */
  roots(state: S): readonly string[];
  /** a restored panel's state from the page's saved one and the remembered one, both unchecked (undefined: close it) */
  restore(saved: unknown, remembered: unknown): S | undefined;
  create(panel: vscode.WebviewPanel, state: S, site: PanelSite<S>): P;
}

/** The open panels of one kind. */
export class PanelSet<S extends HostState, P extends OpenPanel<S['kind']>> implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly open = new Map<P, string>();

  constructor(
    readonly spec: PanelKindSpec<S, P>,
    private readonly deps: PanelDeps,
    private readonly memento: vscode.Memento,
  ) {}

  get all(): P[] {
    return [...this.open.keys()];
  }

  /** The open panel of `state`'s key. */
  find(state: S): P | undefined {
    const key = this.spec.key(state);
    for (const [p, k] of this.open) if (k === key) return p;
    return undefined;
  }

  /** The panel of `state`: revealed when it is open already, else created. */
  show(state: S): P {
    const existing = this.find(state);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    return this.create(state);
  }

  /** `p` shows `state` from now on (an open panel reused for another target): found by its new key, remembered. */
  rekey(p: P, state: S): void {
    if (!this.open.has(p)) return;
    this.open.set(p, this.spec.key(state));
    this.remember(state);
  }

  /** `beside`: in the column beside the active one (the second run's browser of a comparison's task) */
  create(state: S, beside = false): P {
    return this.openIn(state, { viewColumn: beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active }, true);
  }

  /** A new webview for `state`; `reopenable`: one whose page stays blank may be opened once more in a new webview. */
  private openIn(state: S, show: { viewColumn: vscode.ViewColumn; preserveFocus?: boolean }, reopenable: boolean): P {
    const panel = vscode.window.createWebviewPanel(
      this.spec.viewType,
      this.spec.title,
      show,
      // Kept alive when hidden: creating a webview again is slow, the retained page costs little
      // memory; the data stays in the host either way.
      { ...webviewOptions(this.deps.extensionUri), retainContextWhenHidden: true },
    );
    this.remember(state);
    return this.adopt(panel, state, reopenable);
  }

  /** Restores a panel after a window reload, from its checked state; anything else closes it. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const remembered: unknown = this.spec.memoryKey === undefined ? undefined : this.memento.get(this.spec.memoryKey);
    const state = this.spec.restore(saved, remembered);
    if (!state) {
      panel.dispose();
      return;
    }
    for (const root of this.spec.roots(state)) await this.deps.runs.ensure(root);
    this.adopt(panel, state, true);
  }

  private adopt(panel: vscode.WebviewPanel, state: S, reopenable: boolean): P {
    const reopen = (s: S, column: vscode.ViewColumn | undefined): void =>
      void this.openIn(s, { viewColumn: column ?? vscode.ViewColumn.Active, preserveFocus: true }, false);
    const site: PanelSite<S> = {
      deps: this.deps,
      remember: (s) => this.remember(s),
      gone: (p) => {
        for (const q of this.open.keys()) if (q === p) this.open.delete(q);
      },
      ...(reopenable ? { reopen } : {}),
    };
    const p = this.spec.create(panel, state, site);
    this.open.set(p, this.spec.key(state));
    return p;
  }

  private remember(state: S): void {
    if (this.spec.memoryKey !== undefined) void this.memento.update(this.spec.memoryKey, state);
  }

  dispose(): void {
    for (const p of this.all) p.panel.dispose();
  }
}

/** What the registry keeps of each kind's set. */
interface KindEntry extends vscode.WebviewPanelSerializer, vscode.Disposable {
  readonly spec: { readonly viewType: string };
}

export class PanelRegistry implements vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly kinds: KindEntry[] = [];

  constructor(
    private readonly deps: PanelDeps,
    private readonly memento: vscode.Memento,
  ) {}

  /** Adds a kind of panel; its set opens and restores its panels. */
  kind<S extends HostState, P extends OpenPanel<S['kind']>>(spec: PanelKindSpec<S, P>): PanelSet<S, P> {
    const set = new PanelSet(spec, this.deps, this.memento);
    this.kinds.push(set);
    return set;
  }

  /** The serializer of every kind's view type. */
  register(): vscode.Disposable[] {
    return this.kinds.map((k) => vscode.window.registerWebviewPanelSerializer(k.spec.viewType, this));
  }

  /** Restores a panel of any kind, by its view type (an unknown one is closed). */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    const kind = this.kinds.find((k) => k.spec.viewType === panel.viewType);
    if (kind) await kind.deserializeWebviewPanel(panel, saved);
    else panel.dispose();
  }

  dispose(): void {
    for (const k of this.kinds) k.dispose();
  }
}
