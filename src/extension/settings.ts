/**
 * The extension's settings checked from a ConfigSource (`configuration.ts` reads them from
 * VS Code, again on a change, with the engine's own).
 */
import { BETA, CLICK_TOLERANCE, HORIZON, TAU, THETA } from '../core/options/optionTable';
import type { NumberOption } from '../core/options/optionTable';
import type { IndexOptions } from '../core/log/creditIndex';
import { validateMapping } from '../core/record/schema';
import { DEMO_REPO } from '../core/demo/demo';

export interface Settings {
  repos: string[];
  endpoint: string | undefined;
  runFolders: string[];
  downloadDestination: string | undefined;
  downloadConcurrency: number;
  /** no byte for this long: the downloader drops the connection and resumes */
  stallTimeoutSeconds: number;
  index: IndexOptions;
  autoRefreshHubMinutes: number;
  problems: string[];
  /** user-only settings a workspace or folder set, by full name: ignored */
  ignoredWorkspaceValues: string[];
}

export const SECTION = 'rlRunBrowser';

/**
 * Settings only the user may set: where the Hub is (and so where the token goes), what is
 * followed and refreshed, and where downloads land. package.json gives them an application
 * or machine scope; they are read from the user level here too, so that a workspace value
 * is ignored even by a VS Code that would honour it.
 */
export const USER_ONLY_SETTINGS = [
  'endpoint',
  'repos',
  'downloadDestination',
  'autoRefreshHub',
  'autoRefreshHubMinutes',
  'stallTimeoutSeconds',
] as const;

/** One setting's value at each level, as `WorkspaceConfiguration.inspect` gives it. */
export interface SettingLevels {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** The part of VS Code's configuration the settings are read through. */
export interface ConfigSource {
  /** the effective value (all levels merged) */
  get(key: string): unknown;
  inspect(key: string): SettingLevels | undefined;
}

const isUserOnly = (key: string): boolean => (USER_ONLY_SETTINGS as readonly string[]).includes(key);

/** Reads the settings, user-only ones from the user level; bad values are reported by name. */
export function readSettings(source: ConfigSource): Settings {
  const problems: string[] = [];
  const get = <T>(key: string): T | undefined => (isUserOnly(key) ? source.inspect(key)?.globalValue : source.get(key)) as T | undefined;
  const ignoredWorkspaceValues = USER_ONLY_SETTINGS.filter((key) => {
    const levels = source.inspect(key);
    return levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined;
  }).map((key) => `${SECTION}.${key}`);
  const num = (key: string, dflt: number, min: number, max: number): number => {
    const v = get<unknown>(key);
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      problems.push(`${SECTION}.${key} must be a number from ${min} to ${max}; using ${dflt}`);
      return dflt;
    }
    return v;
  };
  const strList = (key: string, dflt: string[]): string[] => {
    const v = get<unknown>(key);
    if (v === undefined || v === null) return dflt;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
      problems.push(`${SECTION}.${key} must be a list of strings`);
      return dflt;
    }
    return v;
  };
  const repos = strList('repos', [DEMO_REPO]).filter((r) => {
    const ok = /^[\w.-]+\/[\w.-]+$/.test(r);
    if (!ok) problems.push(`${SECTION}.repos: "${r}" is not a repo id (owner/name)`);
    return ok;
  });
  const mapping = validateMapping(get<unknown>('fieldMapping'), `${SECTION}.fieldMapping`);
  problems.push(...mapping.problems);
  // the option table's range; a bound it leaves open is kept finite here
  const opt = (o: NumberOption): number =>
    num(o.setting, o.default, o.min ?? (o.above !== undefined ? o.above + 1e-9 : -1e9), o.max ?? 1e9);
  const tau = opt(TAU);
  const endpoint = get<string>('endpoint');
  const dest = get<string>('downloadDestination');
  return {
    repos,
    endpoint: typeof endpoint === 'string' && endpoint.trim() ? endpoint.trim() : undefined,
    runFolders: strList('runFolders', []),
    downloadDestination: typeof dest === 'string' && dest.trim() ? dest.trim() : undefined,
    downloadConcurrency: Math.round(num('downloadConcurrency', 1, 1, 16)),
    stallTimeoutSeconds: num('stallTimeoutSeconds', 30, 5, 3600),
    index: {
      credit: { beta: opt(BETA), tau },
      match: { clickTolerance: opt(CLICK_TOLERANCE), keyCaseInsensitive: get<boolean>('keyCaseInsensitive') !== false },
      mapping: mapping.mapping,
      behaviour: { horizon: Math.round(opt(HORIZON)), theta: opt(THETA) },
    },
    autoRefreshHubMinutes: get<boolean>('autoRefreshHub') === true ? num('autoRefreshHubMinutes', 10, 1, 1440) : 0,
    problems,
    ignoredWorkspaceValues,
  };
}

/** The one-line warning for user-only settings found in a workspace's settings. */
export function ignoredSettingsWarning(names: readonly string[]): string {
  const list = names.join(', ');
  return (
    `RL Runs ignores ${list} in this workspace's settings: only your user settings choose the Hub endpoint, the followed ` +
    `repos, the auto-refresh and the download folder.`
  );
}
