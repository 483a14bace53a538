/** Finds a run from a path: a run folder, a `logs/` folder, or a single log file. */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ByteSource } from '../log/jsonlFile';
import { LogAccessError, fileKind } from '../log/logFile';

export const CREDIT_LOG = 'ws_credit_log.jsonl';
export const METRICS_LOG = 'ws_metrics.jsonl';
export const EVAL_LOG = 'eval_log.jsonl';

export interface RunLocation {
  /** the folder shown as the run (for a Hub log read in place: `hub:owner/name`) */
  root: string;
  name: string;
  creditLog: string | undefined;
  metricsLog: string | undefined;
  /** the checkpoint evaluations (docs/format.md section 8), when the run has them */
  evalLog?: string;
  /** logs that are not local files (a Hub repo's logs read in place): their bytes come from these sources */
  remote?: RemoteLogs;
}

/** The sources of a run whose logs are read where they are (the Hub), not from local files. */
export interface RemoteLogs {
  credit?: ByteSource;
  metrics?: ByteSource;
  evals?: ByteSource;
  /** shown next to the run's name, e.g. "on the Hub" */
  description: string;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether the log named `p` is there: a regular file; absent is false. Anything else in its place
 * (a FIFO, /dev/zero, a folder) is refused: read as no log, it would silently empty the run.
 */
async function isLog(p: string): Promise<boolean> {
  const st = await stat(p).catch(() => undefined);
  if (st === undefined) return false;
  if (!st.isFile()) throw new LogAccessError(`${p} is ${fileKind(st)}, not a log file: refused`);
  return true;
}

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The name shown for a run folder: its own name, except for a folder named `logs`
 * (a download of a repo's logs/ keeps them in `<owner>__<name>/logs/logs/`), which is
 * named after its parent, `owner__name` read as the repo `owner/name`.
 */
export function runName(root: string): string {
  const own = basename(root);
  if (own !== 'logs') return own;
  const parent = basename(dirname(root));
  if (!parent || parent === 'logs' || parent === dirname(root)) return own;
  const i = parent.indexOf('__');
  return i > 0 && i < parent.length - 2 ? `${parent.slice(0, i)}/${parent.slice(i + 2)}` : parent;
}

/** `.jsonl` files of `dir` whose name passes `pick`, sorted by name (none when it is not a folder). */
async function jsonlIn(dir: string, pick: (name: string) => boolean): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names.filter((x) => x.endsWith('.jsonl') && pick(x)).sort()) if (await isFile(join(dir, n))) out.push(join(dir, n));
  return out;
}

/**
 * The evaluation log of the run at `root` (section 8): `logs/eval_log.jsonl`, else the
 * first by name of `eval/*.jsonl`, else of `logs/*eval*.jsonl`; undefined when none.
 */
export async function findEvalLog(root: string): Promise<string | undefined> {
  const reference = join(root, 'logs', EVAL_LOG);
  if (await isLog(reference)) return reference;
  const [inEval] = await jsonlIn(join(root, 'eval'), () => true);
  if (inEval) return inEval;
  const [inLogs] = await jsonlIn(join(root, 'logs'), (n) => /eval/i.test(n) && n !== CREDIT_LOG && n !== METRICS_LOG);
  return inLogs;
}

/** `loc` with its evaluation log, when its root has one. */
async function withEval(loc: RunLocation): Promise<RunLocation> {
  const evalLog = await findEvalLog(loc.root);
  return evalLog ? { ...loc, evalLog } : loc;
}

/**
 * Returns the run at `path`, or undefined when it holds no log. A single file is
 * taken as the credit log unless its name says metrics or eval (then its siblings are the other logs).
 */
export async function locateRun(path: string): Promise<RunLocation | undefined> {
  if (await isFile(path)) {
    const dir = dirname(path);
    const root = basename(dir) === 'logs' ? dirname(dir) : dir;
    const isMetrics = /metrics/i.test(basename(path));
    if (!isMetrics && /eval/i.test(basename(path)) && basename(path) !== CREDIT_LOG) {
      const credit = join(dir, CREDIT_LOG);
      const metrics = join(dir, METRICS_LOG);
      const creditLog = (await isLog(credit)) ? credit : undefined;
      const metricsLog = (await isLog(metrics)) ? metrics : undefined;
      return { root, name: runName(root), creditLog, metricsLog, evalLog: path };
    }
    const sibling = join(dir, isMetrics ? CREDIT_LOG : METRICS_LOG);
    const other = (await isLog(sibling)) ? sibling : undefined;
    return withEval({ root, name: runName(root), creditLog: isMetrics ? other : path, metricsLog: isMetrics ? path : other });
  }
  if (!(await isDir(path))) return undefined;
  for (const dir of [join(path, 'logs'), path]) {
    const credit = join(dir, CREDIT_LOG);
    const metrics = join(dir, METRICS_LOG);
    const hasCredit = await isLog(credit);
    const hasMetrics = await isLog(metrics);
    if (hasCredit || hasMetrics) {
      const root = dir === path && basename(path) === 'logs' ? dirname(path) : path;
      return withEval({
        root,
        name: runName(root),
        creditLog: hasCredit ? credit : undefined,
        metricsLog: hasMetrics ? metrics : undefined,
      });
    }
  }
  return undefined;
}
