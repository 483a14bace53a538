/**
 * Every command id, grouped by the module that registers it. No `vscode` here, so that a
 * unit test can hold these lists against package.json; `registerCommands` makes the
 * compiler check that each module has a handler for each of its ids.
 */
export const HUB_COMMANDS = [
  'rlRunBrowser.refresh',
  'rlRunBrowser.followRepo',
  'rlRunBrowser.unfollowRepo',
  'rlRunBrowser.openOnHub',
] as const;

export const ACCOUNT_COMMANDS = ['rlRunBrowser.signIn', 'rlRunBrowser.signOut'] as const;

export const DOWNLOAD_COMMANDS = [
  'rlRunBrowser.downloadResume',
  'rlRunBrowser.downloadLatest',
  'rlRunBrowser.downloadWeights',
  'rlRunBrowser.downloadLogs',
  'rlRunBrowser.cancelDownload',
  'rlRunBrowser.copyDownloadCommand',
  'rlRunBrowser.revealDownload',
  'rlRunBrowser.downloadResumeKeepLatest',
  'rlRunBrowser.changeDownloadDestination',
] as const;

export const PANEL_COMMANDS = [
  'rlRunBrowser.openMetrics',
  'rlRunBrowser.openReport',
  'rlRunBrowser.openTrajectories',
  'rlRunBrowser.openTrajectory',
  'rlRunBrowser.overlayRuns',
] as const;

export const SCHEMA_COMMANDS = ['rlRunBrowser.showSchemaCheck'] as const;

export const CACHE_COMMANDS = ['rlRunBrowser.clearIndexCache'] as const;

export const SHARE_COMMANDS = [
  'rlRunBrowser.copyLink',
  'rlRunBrowser.openRawRecord',
  'rlRunBrowser.exportTrajectories',
  'rlRunBrowser.openInNotebook',
  'rlRunBrowser.nextTrajectory',
  'rlRunBrowser.previousTrajectory',
  'rlRunBrowser.nextTurn',
  'rlRunBrowser.previousTurn',
  'rlRunBrowser.toggleGroupView',
] as const;

export const IN_PLACE_COMMANDS = ['rlRunBrowser.openLogsInPlace'] as const;

export const TASK_COMMANDS = ['rlRunBrowser.openTask', 'rlRunBrowser.openSideBySide'] as const;

export const COMPARE_COMMANDS = ['rlRunBrowser.compareRuns', 'rlRunBrowser.compareSelected', 'rlRunBrowser.compareWith'] as const;

export const LIVE_COMMANDS = ['rlRunBrowser.followRun', 'rlRunBrowser.unfollowRun', 'rlRunBrowser.showFollowedRunAlerts'] as const;

export const RUNS_TABLE_COMMANDS = ['rlRunBrowser.openRunsTable'] as const;

/** A command a tree item runs when clicked (VS Code's API for a click; code calls the services instead). */
export type PanelCommandId = (typeof PANEL_COMMANDS)[number];

export const ALL_COMMANDS: readonly string[] = [
  ...HUB_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...DOWNLOAD_COMMANDS,
  ...PANEL_COMMANDS,
  ...SCHEMA_COMMANDS,
  ...CACHE_COMMANDS,
  ...SHARE_COMMANDS,
  ...IN_PLACE_COMMANDS,
  ...TASK_COMMANDS,
  ...COMPARE_COMMANDS,
  ...LIVE_COMMANDS,
  ...RUNS_TABLE_COMMANDS,
];
