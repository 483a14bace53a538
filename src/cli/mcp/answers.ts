/**
 * The answers of the MCP tools, each computed by the same functions as the CLI command it
 * mirrors (`report`, `compare`, `tags`, `show`) and the trajectory browser's query engine
 * (src/core/run/query.ts), so the JSON is the CLI's `--json` for the same question.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { tagNames } from '../../core/behaviour/tags';
import { RunComparer, comparisonJson } from '../../core/compare/compareRuns';
import { verdictWords } from '../../core/eval/verdictWords';
import { locateRun, runName } from '../../core/run/runLocator';
import type { RunLocation } from '../../core/run/runLocator';
import { page, queryRows, textSearch } from '../../core/run/query';
import { Flag, SORT_KEYS } from '../../shared/shapes';
import type { RewardFilter, SortKey, TagName, TrajectoryFilter, TrajectorySort } from '../../shared/shapes';
import type { TrajectoryRow } from '../../core/log/creditIndex';
import { errorMessage } from '../../core/errorMessage';
import { trajectoryJson } from '../commands/show';
import { tagsJson } from '../commands/tags';
import { openEvals } from '../commands/evals';
import { reportJson } from '../../core/report/reportJson';
import { runsTable } from '../../core/runs/runsTable';
import { openTable } from '../commands/runs';
import { checkRun } from './roots';
import { flagsOf } from './opener';
import { CUT_CHARS, FULL_CUT_CHARS, ToolError, cutStrings, errorText } from './limits';
import type { RunOpener, RunOptions } from './opener';
import { Follower } from '../../core/live/follower';
import { cursorFromText, cursorText, emptyCursor } from '../../core/live/liveCursor';

/** The value as its JSON text reads back: what the CLI's `--json` prints, parsed (no `undefined`, NaN as null). */
export const asJson = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

/** A window of iterations, checked as the CLI checks `--from`/`--to`. */
function window(from?: number, to?: number): { from?: number; to?: number } {
  if (from !== undefined && to !== undefined && from > to) throw new ToolError(`from ${from} is after to ${to}`);
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/** `rlrb report --json`; with `from`/`to`, its per-iteration lists cut to that window (the whole-run figures kept). */
export async function runReport(o: RunOpener, ref: string, opts: RunOptions, from?: number, to?: number): Promise<unknown> {
  const w = window(from, to);
  const run = await o.run(ref, opts);
  const r = reportJson(run.report()!);
  if (w.from === undefined && w.to === undefined) return asJson(r);
  const inside = (x: { iteration: number }): boolean =>
    (w.from === undefined || x.iteration >= w.from) && (w.to === undefined || x.iteration <= w.to);
  const d = r.creditDiagnostics;
  return asJson({
    ...r,
    window: w,
    perIteration: r.perIteration.filter(inside),
    signFlipGroups: r.signFlipGroups.filter(inside),
    twinDisagreements: r.twinDisagreements.filter(inside),
    creditDiagnostics: { ...d, gatePerIteration: d.gatePerIteration.filter(inside), dosePerIteration: d.dosePerIteration.filter(inside) },
  });
}

/** `rlrb evals --json`: the checkpoint evaluations (docs/format.md section 8); the run is opened as the CLI opens it. */
export async function evaluations(o: RunOpener, ref: string): Promise<unknown> {
  const where = checkRun(ref, o.config.roots, o.config.repos);
  const a = flagsOf({ endpoint: o.config.endpoint, 'no-cache': o.config.noCache === true ? true : undefined });
  const run = await openEvals(where, a);
  return asJson(run.evalSummary()!);
}

/**
 * `rlrb compare --json` (`value`), the runs opened as the CLI opens them (a Hub run's evaluation log fetched for the verdict),
 * and the verdict in the words every view uses (`verdict`), which the answer leads with.
 */
export async function compareRuns(
  o: RunOpener,
  a: string,
  b: string,
  from?: number,
  to?: number,
): Promise<{ value: unknown; verdict: string }> {
  const w = window(from, to);
  const [runA, runB] = await Promise.all([o.run(a), o.run(b)]);
  await Promise.all([runA, runB].map((r) => r.updateEvals()));
  const cmp = await new RunComparer(runA, runB).compute(w);
  return { value: asJson(comparisonJson(cmp)), verdict: verdictWords(cmp.evaluation).text };
}

/** `rlrb runs --json`: the runs table, each run checked against the roots and opened as the CLI opens it. */
export async function runsTableAnswer(o: RunOpener, refs: readonly string[], baseline?: string): Promise<unknown> {
  const where = refs.map((r) => checkRun(r, o.config.roots));
  const base = baseline === undefined ? undefined : checkRun(baseline, o.config.roots);
  const { runs, base: b } = await openTable(where, base, o.settings());
  return asJson(await runsTable(runs, b));
}

/** `rlrb tags --json`. */
export async function behaviourTags(o: RunOpener, ref: string, opts: RunOptions & { from?: number; to?: number }): Promise<unknown> {
  const w = window(opts.from, opts.to);
  const run = await o.run(ref, { horizon: opts.horizon, theta: opts.theta });
  return asJson(tagsJson(run.credit!, w));
}

/** `rlrb show --json`, long strings cut (`detail: "full"`: at a larger length). */
export async function getTrajectory(
  o: RunOpener,
  ref: string,
  at: { iteration: number; group: number; rollout: number },
  full: boolean,
): Promise<{ value: unknown; cut: number }> {
  const run = await o.run(ref);
  const idx = run.credit!;
  const row = idx.find(at.iteration, at.group, at.rollout);
  if (row < 0) throw new ToolError(`no trajectory with iteration ${at.iteration}, group ${at.group}, rollout ${at.rollout} in ${ref}`);
  const t = await idx.read(row);
  return cutStrings(asJson(trajectoryJson(t, run.options, idx.columns.line[row])), full ? FULL_CUT_CHARS : CUT_CHARS);
}

/** The row flags by name (the `Flag` bits, names in camel case). */
export const FLAG_BITS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(Flag).map(([k, bit]) => [k.charAt(0).toLowerCase() + k.slice(1), bit]),
);

export const flagNames = (bits: number): string[] => Object.keys(FLAG_BITS).filter((k) => (bits & FLAG_BITS[k]!) !== 0);

/**
 * A row of `query_trajectories`: the core row (`TrajectoryRow`) in the words of the browser's table,
 * reward and A null when not finite, flags and tags by name.
 */
export type TableRow = Pick<TrajectoryRow, 'iteration' | 'group' | 'rollout' | 'labeled' | 'turns' | 'meanC' | 'line'> & {
  reward: number | null;
  A: number | null;
  flags: string[];
  tags: TagName[];
};

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

export function tableRow(r: TrajectoryRow): TableRow {
  return {
    iteration: r.iteration,
    group: r.group,
    rollout: r.rollout,
    reward: finite(r.reward),
    A: finite(r.A),
    labeled: r.labeled,
    turns: r.turns,
    meanC: r.meanC,
    flags: flagNames(r.flags),
    tags: tagNames(r.tags ?? 0),
    line: r.line,
  };
}

/** The arguments of `query_trajectories`: the browser's filter in words. */
export interface QueryArgs {
  iteration?: number | string;
  group?: number;
  rollout?: number;
  reward?: RewardFilter;
  labeled?: boolean;
  flag?: string[];
  tag?: TagName[];
  text?: string;
  sort?: string[];
  limit?: number;
  cursor?: string;
}

/** `iteration`: one iteration, or `from..to` (either end may be left out). */
function iterationFilter(v: number | string | undefined): Pick<TrajectoryFilter, 'iterationMin' | 'iterationMax'> {
  if (v === undefined) return {};
  if (typeof v === 'number') return { iterationMin: v, iterationMax: v };
  const m = /^(\d*)\.\.(\d*)$/.exec(v);
  if (!m) throw new ToolError(`iteration takes a whole number or from..to (e.g. 3..7), not ${JSON.stringify(v)}`);
  const f: Pick<TrajectoryFilter, 'iterationMin' | 'iterationMax'> = {};
  if (m[1]) f.iterationMin = Number(m[1]);
  if (m[2]) f.iterationMax = Number(m[2]);
  if (f.iterationMin !== undefined && f.iterationMax !== undefined && f.iterationMin > f.iterationMax)
    throw new ToolError(`iteration ${v}: from is after to`);
  return f;
}

function sortOf(keys: readonly string[] | undefined): TrajectorySort[] {
  return (keys ?? []).map((k) => {
    const descending = k.startsWith('-');
    const key = descending ? k.slice(1) : k;
    if (!(SORT_KEYS as readonly string[]).includes(key))
      throw new ToolError(`sort key ${JSON.stringify(k)}: takes ${SORT_KEYS.join('|')}, a leading - for descending`);
    return { key: key as SortKey, ...(descending ? { descending } : {}) };
  });
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;

/** The browser's filter from the arguments. */
export function filterOf(q: QueryArgs): TrajectoryFilter {
  let flags = 0;
  for (const f of q.flag ?? []) flags |= FLAG_BITS[f] ?? 0;
  return {
    ...iterationFilter(q.iteration),
    ...(q.group !== undefined ? { group: q.group } : {}),
    ...(q.rollout !== undefined ? { rollout: q.rollout } : {}),
    ...(q.reward !== undefined ? { reward: q.reward } : {}),
    ...(q.labeled === true ? { labeledOnly: true } : {}),
    ...(flags !== 0 ? { flags } : {}),
    ...(q.tag && q.tag.length > 0 ? { tags: q.tag } : {}),
    ...(q.text ? { text: q.text } : {}),
  };
}

/** `query_trajectories`: the rows the browser's table shows for this filter and sort, a page at a time. */
export async function queryTrajectories(
  o: RunOpener,
  ref: string,
  q: QueryArgs,
): Promise<{ total: number; rows: TableRow[]; next: string | null }> {
  const offset = q.cursor === undefined ? 0 : Number(q.cursor);
  if (!Number.isSafeInteger(offset) || offset < 0 || !/^\d+$/.test(q.cursor ?? '0'))
    throw new ToolError(`cursor ${JSON.stringify(q.cursor)}: pass the "next" of the previous answer`);
  const limit = q.limit ?? DEFAULT_LIMIT;
  const filter = filterOf(q);
  const spec = { filter, sort: sortOf(q.sort) };
  const run = await o.run(ref);
  const idx = run.credit!;
  let textRows: Set<number> | undefined;
  try {
    textRows = filter.text ? await textSearch(idx, filter.text) : undefined;
  } catch (e) {
    throw new ToolError(`cannot search ${ref}: ${errorMessage(e)}`);
  }
  const rows = queryRows(idx, spec, undefined, textRows);
  const shown = page(idx, rows, offset, limit).map(tableRow);
  const end = offset + shown.length;
  return { total: rows.length, rows: shown, next: end < rows.length ? String(end) : null };
}

/** One run found under a root. */
export interface RunEntry {
  name: string;
  path: string;
  trajectories: number | null;
  iterations: number | null;
  creditLog: boolean;
  metricsLog: boolean;
  /** why the run could not be read, when it could not */
  problem?: string;
}

/** The most runs `list_runs` lists, and how deep under a root it looks. */
export const MAX_RUNS = 200;
const MAX_DEPTH = 4;
const SKIP = new Set(['node_modules', '.git', '.cache', 'dist', 'build']);

async function findRunFolders(root: string, depth: number, out: string[]): Promise<void> {
  if (out.length >= MAX_RUNS) return;
  // a folder whose log is refused (a FIFO, a device) is listed with its problem
  const here = await locateRun(root).catch(() => ({ root }));
  if (here !== undefined && here.root === root) {
    out.push(root);
    return;
  }
  if (depth >= MAX_DEPTH) return;
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !SKIP.has(d.name))
      .map((d) => d.name)
      .sort();
  } catch {
    return;
  }
  for (const n of names) await findRunFolders(join(root, n), depth + 1, out);
}

/** `list_runs`: the runs under the roots (at most `MAX_RUNS`, four folders deep), each read for its size. */
export async function listRuns(o: RunOpener): Promise<{ roots: string[]; runs: RunEntry[]; more: boolean; repos: string[] }> {
  const found: string[] = [];
  for (const r of o.config.roots) await findRunFolders(r, 0, found);
  const runs: RunEntry[] = [];
  for (const path of found.slice(0, MAX_RUNS)) {
    let loc: RunLocation;
    try {
      loc = (await locateRun(path))!;
    } catch (e) {
      runs.push({
        name: runName(path),
        path,
        trajectories: null,
        iterations: null,
        creditLog: false,
        metricsLog: false,
        problem: errorText(e),
      });
      continue;
    }
    const entry: RunEntry = {
      name: loc.name,
      path,
      trajectories: null,
      iterations: null,
      creditLog: loc.creditLog !== undefined,
      metricsLog: loc.metricsLog !== undefined,
    };
    if (loc.creditLog !== undefined) {
      try {
        const run = await o.run(path);
        const r = run.report()!.report;
        entry.trajectories = r.trajectories;
        entry.iterations = r.iterations;
      } catch (e) {
        entry.problem = errorText(e);
      }
    }
    runs.push(entry);
  }
  return { roots: o.config.roots, runs, more: found.length >= MAX_RUNS, repos: (o.config.repos ?? []).map((r) => `hub:${r}`) };
}

/** The events of docs/format.md section 10 since `cursor` (none: since the run began), and the cursor to pass next time. */
export async function eventsSince(o: RunOpener, ref: string, cursor: string | undefined): Promise<unknown> {
  const from = cursor === undefined ? emptyCursor() : cursorFromText(cursor);
  if (!from) throw new ToolError('cursor is not one this tool gave; leave it out to start from the beginning of the run');
  const follower = new Follower(await o.liveSource(ref), from);
  const { events } = await follower.poll();
  return asJson({ events, cursor: cursorText(follower.cursor) });
}
