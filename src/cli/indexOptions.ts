/** The index options (beta, tau, matching, field mapping) from a command's flags. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { DEFAULT_INDEX_OPTIONS } from '../core/log/creditIndex';
import type { IndexEngine, IndexOptions } from '../core/log/creditIndex';
import { DEFAULT_CACHE_BYTES, IndexStore } from '../core/log/indexStore';
import { RangeCache } from '../core/hub/inPlace/rangeCache';
import { safeLine, writeOut } from './safeText';
import { validateMapping } from '../core/record/schema';
import { DEFAULT_BEHAVIOUR } from '../core/behaviour/tags';
import { UsageError, numberFlag, stringFlag } from './args';
import type { FlagSpec, ParsedArgs } from './args';

/** The flags `indexOptions` reads. */
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

export function indexOptions(a: ParsedArgs): IndexOptions {
  const beta = numberFlag(a, 'beta') ?? DEFAULT_INDEX_OPTIONS.credit.beta;
  const tau = numberFlag(a, 'tau') ?? DEFAULT_INDEX_OPTIONS.credit.tau;
  if (tau <= 0) throw new UsageError('--tau must be > 0');
  const clickTolerance = numberFlag(a, 'click-tol', { min: 0 }) ?? DEFAULT_INDEX_OPTIONS.match.clickTolerance;
  const kc = stringFlag(a, 'key-case');
  if (kc !== undefined && kc !== 'on' && kc !== 'off') throw new UsageError(`--key-case takes on or off, not "${kc}"`);
  let mapping = {};
  const mapFile = stringFlag(a, 'map');
  if (mapFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(mapFile, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the mapping file ${mapFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${mapFile}: not JSON: ${(e as Error).message}`);
    }
    const v = validateMapping(obj, mapFile);
    if (v.problems.length > 0) throw new UsageError(v.problems[0]);
    mapping = v.mapping;
  }
  const horizon = numberFlag(a, 'horizon', { int: true, min: 1, max: 65535 }) ?? DEFAULT_BEHAVIOUR.horizon;
  const theta = numberFlag(a, 'theta', { min: 0 }) ?? DEFAULT_BEHAVIOUR.theta;
  return { credit: { beta, tau }, match: { clickTolerance, keyCaseInsensitive: kc !== 'off' }, mapping, behaviour: { horizon, theta } };
}

/** The CLI's folder of saved indexes: `$XDG_CACHE_HOME/rlrb`, or `~/.cache/rlrb` (a relative XDG_CACHE_HOME is ignored, as the spec says). */
export function cliCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'rlrb');
}

/** The most `--threads` takes, as the `rlRunBrowser.indexThreads` setting (a billion threads ran a log out of memory). */
export const MAX_THREADS = 256;

/** `--threads N`: the threads a large log is indexed with (default and 0: every core; 1: no worker process). */
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

/** How to index, from `--no-cache` and `--threads`: with the user cache folder unless told not to. */
export function indexEngine(a: ParsedArgs): IndexEngine {
  const threads = { threads: indexThreads(a) };
  return a.flags.has('no-cache') ? { threads } : { store: new IndexStore(cliCacheDir(), { maxBytes: cliCacheBytes() }), threads };
}

/** The fetched ranges of Hub logs read in place, under a cache folder. */
export const rangesDir = (dir: string): string => join(dir, 'ranges');

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** `rlrb cache`: what the cache folder holds; `rlrb cache clear`: deletes the saved indexes and the fetched ranges. */
async function cmdCache(a: ParsedArgs): Promise<number> {
  const clear = a.positional[1] === 'clear';
  if (a.positional.length > 2 || (a.positional.length === 2 && !clear)) throw new UsageError('usage: rlrb cache [clear]');
  const dir = cliCacheDir();
  const ranges = new RangeCache(rangesDir(dir));
  if (clear) {
    const r = await new IndexStore(dir).clear();
    const g = await ranges.clear();
    writeOut(
      `${safeLine(dir)}: deleted ${r.files} saved index(es), ${mb(r.bytes)}, and ${g.ranges} fetched range(s) of Hub logs (ranges/), ${mb(g.bytes)}\n`,
    );
    return 0;
  }
  const r = await new IndexStore(dir).usage();
  const g = await ranges.usage();
  writeOut(
    `${safeLine(dir)}: ${r.files} saved index(es), ${mb(r.bytes)}; ranges/: ${g.ranges} fetched range(s) of ${g.files} Hub log(s), ${mb(g.bytes)}\n`,
  );
  return 0;
}

export const CACHE_COMMAND = { flags: {}, run: cmdCache } as const;
