/**
 * Checks of the values a link carries. Each returns a one-line problem, or undefined
 * when the value is fine. Links come from anywhere (a chat, a web page), so a value is
 * taken only in its one plain spelling.
 */
import { posix, win32 } from 'node:path';

/** C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional overrides that reorder what a message shows. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
export const MAX_PATH = 4096;
const MAX_NAME = 96;
const MAX_REVISION = 256;
const MAX_METRIC = 256;

export function hasControl(s: string): boolean {
  return CONTROL.test(s);
}

/**
 * A run path must be absolute and normalised: POSIX `/a/b` (no `.` or `..` segment, no
 * `//`, no trailing `/`, no backslash), or Windows `C:\a\b` (backslashes only, the same
 * rules, no `:` past the drive, no segment ending in a dot or a space, none of `<>"|?*`).
 * Network paths (`\\server\share`) are refused: opening one can send credentials to that server.
 */
export function pathProblem(p: string): string | undefined {
  if (p.length > MAX_PATH) return `the path is longer than ${MAX_PATH} characters`;
  if (p.startsWith('\\\\') || p.startsWith('//')) return 'network paths (\\\\server\\share) are not opened from a link';
  if (p.startsWith('/')) return posixProblem(p);
  if (/^[A-Za-z]:[\\/]/.test(p)) return windowsProblem(p);
  return 'the run path must be absolute (/… or C:\\…)';
}

function climbs(segments: readonly string[]): boolean {
  return segments.some((s) => s === '..' || s === '.');
}

function posixProblem(p: string): string | undefined {
  if (p.includes('\\')) return 'a POSIX run path must not hold a backslash';
  const segments = p.split('/').slice(1);
  if (climbs(segments)) return 'the run path must not hold "." or ".." segments';
  if (p !== '/' && (posix.normalize(p) !== p || p.endsWith('/'))) return 'the run path must be normalised (no "//", no trailing "/")';
  return undefined;
}

function windowsProblem(p: string): string | undefined {
  if (p.includes('/')) return 'a Windows run path uses backslashes only';
  const segments = p.slice(3).split('\\');
  if (climbs(segments)) return 'the run path must not hold "." or ".." segments';
  if (p.length > 3 && (win32.normalize(p) !== p || p.endsWith('\\')))
    return 'the run path must be normalised (no "\\\\", no trailing "\\")';
  if (p.slice(2).includes(':')) return 'a Windows run path must not hold ":" past its drive';
  if (/[<>"|?*]/.test(p)) return 'a Windows run path must not hold any of <>"|?*';
  if (segments.some((s) => /[. ]$/.test(s))) return 'a Windows path segment must not end in a dot or a space';
  return undefined;
}

function namePart(s: string): boolean {
  return (
    s.length >= 1 &&
    s.length <= MAX_NAME &&
    /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/.test(s) &&
    !s.includes('--') &&
    !s.includes('..')
  );
}

/** A Hub repo id `owner/name` (letters, digits, `-`, `_`, `.`; no `--` or `..`; at most 96 a part). */
export function repoProblem(r: string): string | undefined {
  const parts = r.split('/');
  if (parts.length !== 2 || !parts.every(namePart)) return `"${shown(r)}" is not a Hub repo id (owner/name)`;
  return undefined;
}

/** A branch, tag or commit: letters, digits and `-_./`, no `..`, no leading or trailing `/`, no `//`. */
export function revisionProblem(r: string): string | undefined {
  const ok =
    r.length <= MAX_REVISION &&
    /^[A-Za-z0-9._/-]+$/.test(r) &&
    !r.includes('..') &&
    !r.includes('//') &&
    !r.startsWith('/') &&
    !r.endsWith('/');
  return ok ? undefined : `"${shown(r)}" is not a revision (a branch, a tag or a commit)`;
}

/** A dashboard metric name, e.g. `ws/c_mean`. */
export function metricProblem(m: string): string | undefined {
  if (m.length > MAX_METRIC) return `the metric name is longer than ${MAX_METRIC} characters`;
  if (m.trim() !== m) return 'the metric name must not start or end with a space';
  return undefined;
}

/** A whole number from 0 to 2^53 - 1, written in decimal digits. */
export function wholeNumber(s: string): number | undefined {
  if (!/^[0-9]{1,16}$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A value as a message may show it: short, quotes, backslashes and controls escaped (`\u202e`). */
export function shown(s: string): string {
  const cut = s.length > 60 ? `${s.slice(0, 57)}…` : s;
  return cut.replace(/[\\"]/g, (c) => `\\${c}`).replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
