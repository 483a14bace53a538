/**
 * `--include`/`--exclude` over a plan's files, with picomatch (a well-kept glob matcher;
 * node:path's matchesGlob is still experimental in Node 20 and warns on stderr). A pattern
 * with a `/` is matched against the file's path in the repo (`resume/iter_0000005/__0_*`); one
 * without, against its name (`*.safetensors`), as the official client's patterns are mostly used.
 */
import picomatch from 'picomatch';
import type { DownloadItem, DownloadPlan } from './download/types';
import { DownloadError } from './download/types';

export interface Filter {
  include: readonly string[];
  exclude: readonly string[];
}

function matcher(patterns: readonly string[]): (path: string) => boolean {
  const tests = patterns.map((p) => picomatch(p, { dot: true, basename: !p.includes('/') }));
  return (path) => tests.some((t) => t(path));
}

/** The plan's files split into those the filter keeps and those it leaves out; none kept is an error naming the patterns. */
export function filterItems(plan: DownloadPlan, f: Filter): { kept: DownloadItem[]; excluded: DownloadItem[] } {
  if (f.include.length === 0 && f.exclude.length === 0) return { kept: plan.items, excluded: [] };
  const inc = matcher(f.include);
  const exc = matcher(f.exclude);
  const kept: DownloadItem[] = [];
  const excluded: DownloadItem[] = [];
  for (const it of plan.items) ((f.include.length === 0 || inc(it.path)) && !exc(it.path) ? kept : excluded).push(it);
  if (kept.length === 0) {
    const said = [...f.include.map((p) => `--include ${p}`), ...f.exclude.map((p) => `--exclude ${p}`)].join(' ');
    throw new DownloadError(`${said} leaves none of the ${plan.items.length} files to download`);
  }
  return { kept, excluded };
}
