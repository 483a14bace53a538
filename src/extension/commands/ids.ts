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
] as const;

export const SCHEMA_COMMANDS = ['rlRunBrowser.showSchemaCheck'] as const;

export const CACHE_COMMANDS = ['rlRunBrowser.clearIndexCache'] as const;

export const ALL_COMMANDS: readonly string[] = [
  ...HUB_COMMANDS,
  ...ACCOUNT_COMMANDS,
  ...DOWNLOAD_COMMANDS,
  ...PANEL_COMMANDS,
  ...SCHEMA_COMMANDS,
  ...CACHE_COMMANDS,
];
