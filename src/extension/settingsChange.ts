/** What a settings change redoes: re-index, rescan, re-list the Hub, restart the auto-refresh. */
import type { Services } from './services';
import type { SettingsChange } from './configuration';
import type { HubAutoRefresh } from './hub/autoRefresh';

export function applySettingsChange(s: Services, autoRefresh: HubAutoRefresh, { before, after }: SettingsChange): void {
  if (JSON.stringify(before.index) !== JSON.stringify(after.index)) s.runs.setOptions(after.index);
  else if (JSON.stringify(before.runFolders) !== JSON.stringify(after.runFolders)) s.runs.startScan();
  if (before.endpoint !== after.endpoint) for (const r of after.repos) s.hub.startRefresh(r);
  s.trees.hub.refresh();
  autoRefresh.every(after.autoRefreshHubMinutes);
}
