/** `rlrb cache [clear]`: what the CLI's cache folder holds, or delete it. */
import { IndexStore } from '../../core/log/indexStore';
import { RangeCache } from '../../core/hub/inPlace/rangeCache';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { cliCacheDir, rangesDir } from '../open/indexOptions';
import { safeLine, writeOut } from '../output/safeText';

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** `rlrb cache`: what the cache folder holds; `rlrb cache clear`: deletes the saved indexes and the fetched ranges. */
async function run(a: ParsedArgs): Promise<number> {
  const clear = a.positional[1] === 'clear';
  if (a.positional.length > 2 || (a.positional.length === 2 && !clear)) throw new UsageError(`usage: rlrb ${CACHE.usage}`);
  const dir = cliCacheDir();
  const ranges = new RangeCache(rangesDir(dir));
  if (clear) {
    const r = await new IndexStore(dir).clear();
    const g = await ranges.clear();
    writeOut(
      `${safeLine(dir)}: deleted ${r.files} saved index(es), ${mb(r.bytes)}, ` +
        `and ${g.ranges} fetched range(s) of Hub logs (ranges/), ${mb(g.bytes)}\n`,
    );
    return 0;
  }
  const r = await new IndexStore(dir).usage();
  const g = await ranges.usage();
  writeOut(
    `${safeLine(dir)}: ${r.files} saved index(es), ${mb(r.bytes)}; ` +
      `ranges/: ${g.ranges} fetched range(s) of ${g.files} Hub log(s), ${mb(g.bytes)}\n`,
  );
  return 0;
}

export const CACHE: Command = {
  usage: 'cache [clear]',
  about: 'lists, or deletes, the saved indexes and the fetched ranges of Hub logs in $XDG_CACHE_HOME/rlrb or ~/.cache/rlrb',
  flags: {},
  run,
};
