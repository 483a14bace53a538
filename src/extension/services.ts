/** What the command modules get: one typed object instead of a dozen closures. */
import type { IndexStore } from '../core/log/indexStore';
import type * as vscode from 'vscode';
import type { RunService } from './runs/runService';
import type { HubService } from './hub/hubService';
import type { DownloadManager } from './downloads/downloadManager';
import type { Trees } from './trees/treeViews';
import type { PanelManager } from './panels/panelManager';
import type { Settings } from './settings';
import type { Destinations } from './downloads/destinations';

export interface Services {
  runs: RunService;
  hub: HubService;
  downloads: DownloadManager;
  trees: Trees;
  panels: PanelManager;
  /** the settings as last read (they change while the extension runs) */
  settings: () => Settings;
  out: vscode.LogOutputChannel;
  destinations: Destinations;
  /** saved log indexes (global storage) */
  indexStore: IndexStore;
}
