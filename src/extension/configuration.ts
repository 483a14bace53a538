/** The settings as VS Code holds them: read once, re-read on a change, problems shown as a warning. */
import * as vscode from 'vscode';
import { SECTION, ignoredSettingsWarning, readSettings } from './settings';
import type { ConfigSource, Settings } from './settings';
import { Disposable } from './dispose';
import { escapeNotification as esc } from './text';

/** How logs are indexed on this machine: `indexThreads` (0 = every core the load leaves free) and `indexCacheMegabytes`, machine-scoped. */
export interface EngineSettings {
  threads: number;
  cacheBytes: number;
}

/** The engine settings from the configuration; a bad value is named in `problems` and the default used. */
export function readEngineSettings(get: (key: string) => unknown): { value: EngineSettings; problems: string[] } {
  const problems: string[] = [];
  const num = (key: string, dflt: number, max: number, int: boolean): number => {
    const v = get(key);
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max || (int && !Number.isInteger(v))) {
      problems.push(`${SECTION}.${key} must be a ${int ? 'whole number' : 'number'} from 0 to ${max}; using ${dflt}`);
      return dflt;
    }
    return v;
  };
  const threads = num('indexThreads', 0, 256, true);
  const cacheBytes = Math.round(num('indexCacheMegabytes', 1024, 1048576, false) * 1024 * 1024);
  return { value: { threads, cacheBytes }, problems };
}

export interface SettingsChange {
  before: Settings;
  after: Settings;
}

export class Configuration extends Disposable {
  private value: Settings;
  private engineValue: EngineSettings;
  private readonly changed = this._register(new vscode.EventEmitter<SettingsChange>());
  readonly onDidChange = this.changed.event;
  /** user-only settings already warned about in this window */
  private readonly warned = new Set<string>();

  constructor() {
    super();
    this.value = this.load();
    this.engineValue = this.loadEngine();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        const before = this.value;
        this.value = this.load();
        this.engineValue = this.loadEngine();
        this.changed.fire({ before, after: this.value });
      }),
    );
  }

  get current(): Settings {
    return this.value;
  }

  /** `indexThreads` and `indexCacheMegabytes` as last read. */
  get engine(): EngineSettings {
    return this.engineValue;
  }

  private loadEngine(): EngineSettings {
    const cfg = vscode.workspace.getConfiguration(SECTION);
    const e = readEngineSettings((key) => cfg.get(key));
    if (e.problems.length > 0) void vscode.window.showWarningMessage(`RL Runs settings: ${esc(e.problems.join('; '))}`);
    return e.value;
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
