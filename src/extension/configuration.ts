/** The settings as VS Code holds them: read once, re-read on a change, problems shown as a warning. */
import * as vscode from 'vscode';
import { SECTION, ignoredSettingsWarning, readSettings } from './settings';
import type { ConfigSource, Settings } from './settings';
import { Disposable } from './dispose';
import { escapeNotification as esc } from './text';

export interface SettingsChange {
  before: Settings;
  after: Settings;
}

export class Configuration extends Disposable {
  private value: Settings;
  private readonly changed = this._register(new vscode.EventEmitter<SettingsChange>());
  readonly onDidChange = this.changed.event;
  /** user-only settings already warned about in this window */
  private readonly warned = new Set<string>();

  constructor() {
    super();
    this.value = this.load();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        const before = this.value;
        this.value = this.load();
        this.changed.fire({ before, after: this.value });
      }),
    );
  }

  get current(): Settings {
    return this.value;
  }

  private load(): Settings {
    const s = readSettings(configSource());
    if (s.problems.length > 0) void vscode.window.showWarningMessage(`RL Runs settings: ${esc(s.problems.join('; '))}`);
    const fresh = s.ignoredWorkspaceValues.filter((name) => !this.warned.has(name));
    for (const name of fresh) this.warned.add(name);
    if (fresh.length > 0) void vscode.window.showWarningMessage(ignoredSettingsWarning(fresh));
    return s;
  }
}

/** VS Code's configuration of this extension; folder-level values looked up in each workspace folder. */
function configSource(): ConfigSource {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.workspace.getConfiguration(SECTION, f.uri));
  return {
    get: (key) => cfg.get(key),
    inspect: (key) => {
      const top = cfg.inspect(key);
      const inFolder = folders.map((c) => c.inspect(key)?.workspaceFolderValue).find((v) => v !== undefined);
      return { globalValue: top?.globalValue, workspaceValue: top?.workspaceValue, workspaceFolderValue: inFolder };
    },
  };
}
