/** The index options (beta, tau, matching, field mapping) from a command's flags. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { BETA, CLICK_TOLERANCE, HORIZON, NUMBER_OPTIONS, TAU, THETA, describeOption } from '../../core/options/optionTable';
import type { NumberOption } from '../../core/options/optionTable';
import type { IndexEngine, IndexOptions } from '../../core/log/creditIndex';
import { DEFAULT_CACHE_BYTES, IndexStore } from '../../core/log/indexStore';
import { safeLine } from '../output/safeText';
import { validateMapping } from '../../core/record/schema';
import type { FieldMapping } from '../../core/record/schema';
import { errorDetail, errorMessage } from '../../core/errorMessage';
import { UsageError, numberFlag, stringFlag } from '../args';
import type { FlagSpec, ParsedArgs } from '../args';

/** The usage of `INDEX_FLAGS`. */
export const INDEX_USAGE =
  '[--beta B] [--tau T] [--click-tol N] [--key-case on|off] [--horizon H] [--theta T] [--map FILE] [--no-cache] [--threads N]';

/** The flags `indexOptions` and `indexEngine` read. */
export const INDEX_FLAGS: FlagSpec = {
  beta: 'string',
  tau: 'string',
  'click-tol': 'string',
  'key-case': 'string',
  map: 'string',
  'no-cache': 'boolean',
  threads: 'string',
  horizon: 'string',
  theta: 'string',
};

/** A numeric option's flag, checked against its range in the option table; its default when not given. */
export function optionFlag(a: ParsedArgs, o: NumberOption): number {
  const v = numberFlag(a, o.flag, {
    int: o.integer,
    ...(o.min !== undefined ? { min: o.min } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
  });
  if (v === undefined) return o.default;
  if (o.above !== undefined && !(v > o.above)) throw new UsageError(`--${o.flag} must be > ${o.above}`);
  return v;
}

/** The options section of the help: each flag of the option table with its meaning, default and range. */
export function optionsHelp(): string[] {
  return [
    'Options of the commands that read a run:',
    ...NUMBER_OPTIONS.flatMap((o) => [`  --${o.flag} ${o.value}`, `      ${describeOption(o)}`]),
    '  --key-case on|off',
    '      Canonical matching: key names compare case-insensitively (on, the default) or not (`OWRL_WS_KEY_CASE`).',
  ];
}

export function indexOptions(a: ParsedArgs): IndexOptions {
  const beta = optionFlag(a, BETA);
  const tau = optionFlag(a, TAU);
  const clickTolerance = optionFlag(a, CLICK_TOLERANCE);
  const kc = stringFlag(a, 'key-case');
  if (kc !== undefined && kc !== 'on' && kc !== 'off') throw new UsageError(`--key-case takes on or off, not "${kc}"`);
  const mapFile = stringFlag(a, 'map');
  const mapping = mapFile === undefined ? {} : readMapping(mapFile);
  const behaviour = { horizon: optionFlag(a, HORIZON), theta: optionFlag(a, THETA) };
  return { credit: { beta, tau }, match: { clickTolerance, keyCaseInsensitive: kc !== 'off' }, mapping, behaviour };
}

/** The largest mapping file read (unbounded, `--map /dev/zero` reads until memory runs out): a mapping is a few lines of JSON. */
export const MAX_MAPPING_BYTES = 1024 * 1024;

/** At most `max` bytes of the regular file `path`, or a usage error naming it (not a regular file, too large, unreadable). */
export function readSmallFile(path: string, what: string, max: number): string {
  let fd: number;
  try {
    // non-blocking: a FIFO is refused below instead of waiting for a writer
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${errorDetail(e)}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new UsageError(`${what} ${path} is not a regular file`);
    const buf = Buffer.alloc(max + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n <= max; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > max) throw new UsageError(`${what} ${path} is larger than ${max / (1024 * 1024)} MB`);
    return buf.subarray(0, n).toString('utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${what} ${path}: ${errorDetail(e)}`);
  } finally {
    closeSync(fd);
  }
}

/** `--map FILE`: a JSON field mapping (docs/format.md), at most 1 MB, checked. */
export function readMapping(file: string): FieldMapping {
  const text = readSmallFile(file, 'the mapping file', MAX_MAPPING_BYTES);
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${file}: not JSON: ${errorMessage(e)}`);
  }
  const v = validateMapping(obj, file);
  if (v.problems.length > 0) throw new UsageError(v.problems[0]);
  return v.mapping;
}

/**
 * The CLI's folder of saved indexes: `$XDG_CACHE_HOME/rlrb`, or `~/.cache/rlrb`
 * (a relative XDG_CACHE_HOME is ignored, as the spec says).
 */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'rlrb');
}

/** The most `--threads` takes, as the `rlRunBrowser.indexThreads` setting (a billion threads ran a log out of memory). */
export const MAX_THREADS = 256;

/** `--threads N`: the threads a large log is indexed with (default and 0: the cores other processes leave free; 1: no worker thread). */
export function indexThreads(a: ParsedArgs): number {
  return numberFlag(a, 'threads', { int: true, min: 0, max: MAX_THREADS }) ?? 0;
}

/** The size limit of the CLI's saved indexes: `RLRB_INDEX_CACHE_MB` megabytes (default 1024). */
export function cliCacheBytes(env: NodeJS.ProcessEnv = process.env): number {
  const v = env['RLRB_INDEX_CACHE_MB'];
  if (v === undefined || v === '') return DEFAULT_CACHE_BYTES;
  const mb = Number(v);
  if (v.trim() === '' || !Number.isFinite(mb) || mb < 0)
    throw new UsageError(`RLRB_INDEX_CACHE_MB must be a number of megabytes >= 0, not "${safeLine(v)}"`);
  return Math.round(mb * 1024 * 1024);
}

/** The version in package.json, put in by the build (esbuild `define`): kept figures of another build are not used. */
declare const RLRB_VERSION: string | undefined;
const CLI_BUILD = typeof RLRB_VERSION === 'string' ? RLRB_VERSION : 'dev';

/** How to index, from `--no-cache` and `--threads`: with the user cache folder unless told not to. */
export function indexEngine(a: ParsedArgs): IndexEngine {
  const threads = { threads: indexThreads(a) };
  return a.flags.has('no-cache')
    ? { threads }
    : { store: new IndexStore(cliCacheDir(), { maxBytes: cliCacheBytes(), build: CLI_BUILD }), threads };
}

/** The fetched ranges of Hub logs read in place, under a cache folder. */
export const rangesDir = (dir: string): string => join(dir, 'ranges');
