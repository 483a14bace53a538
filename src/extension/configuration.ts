/** The settings as VS Code holds them: read once, re-read on a change, problems shown as a warning. */
import * as vscode from 'vscode';
import { SECTION, readSettings } from './settings';
import type { Settings } from './settings';
import { Disposable } from './dispose';

export interface SettingsChange {
  before: Settings;
  after: Settings;
}

export class Configuration extends Disposable {
  private value: Settings;
  private readonly changed = this._register(new vscode.EventEmitter<SettingsChange>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this.value = Configuration.load();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        const before = this.value;
        this.value = Configuration.load();
        this.changed.fire({ before, after: this.value });
      }),
    );
  }

  get current(): Settings {
    return this.value;
  }

  private static load(): Settings {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const s = readSettings((k) => cfg.get(k));
    if (s.problems.length > 0) void vscode.window.showWarningMessage(`RL Runs settings: ${s.problems.join('; ')}`);
    return s;
  }
}
