/** The extension's settings, read and checked in one place. */
import type { IndexOptions } from '../core/log/creditIndex';
import { validateMapping } from '../core/record/schema';
import { DEMO_REPO } from '../core/demo/demo';

export interface Settings {
  repos: string[];
  endpoint: string | undefined;
  runFolders: string[];
  downloadDestination: string | undefined;
  downloadConcurrency: number;
  index: IndexOptions;
  autoRefreshHubMinutes: number;
  problems: string[];
}

export const SECTION = 'rlRunBrowser';

/** Reads settings through `get` (VS Code's configuration), reporting bad values by name. */
export function readSettings(get: <T>(key: string) => T | undefined): Settings {
  const problems: string[] = [];
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
  const tau = num('tau', 20, 1e-9, 1e9);
  const endpoint = get<string>('endpoint');
  const dest = get<string>('downloadDestination');
  return {
    repos,
    endpoint: typeof endpoint === 'string' && endpoint.trim() ? endpoint.trim() : undefined,
    runFolders: strList('runFolders', []),
    downloadDestination: typeof dest === 'string' && dest.trim() ? dest.trim() : undefined,
    downloadConcurrency: Math.round(num('downloadConcurrency', 4, 1, 16)),
    index: {
      credit: { beta: num('beta', 0.4, -100, 100), tau },
      match: { clickTolerance: num('clickTolerance', 20, 0, 1000), keyCaseInsensitive: get<boolean>('keyCaseInsensitive') !== false },
      mapping: mapping.mapping,
    },
    autoRefreshHubMinutes: get<boolean>('autoRefreshHub') === true ? num('autoRefreshHubMinutes', 10, 1, 1440) : 0,
    problems,
  };
}
