/**
 * The one way every command opens a run (report, show, compare, export and those to come): a
 * local folder or `.jsonl`, or `hub:owner/name[@revision]` read in place; the credit options and
 * the field mapping from `--beta/--tau/--click-tol/--key-case/--map`; the saved-index store
 * (`--no-cache`: none) and `--threads`; a log in an encoding the reader cannot read is a usage
 * error (exit 2, one line).
 */
import { resolve } from 'node:path';
import type { IndexEngine, IndexOptions } from '../../core/log/creditIndex';
import { LogEncodingError } from '../../core/log/jsonlFile';
import { Run } from '../../core/run/run';
import { isHubRef } from '../../core/hub/inPlace/hubRef';
import { errorDetail } from '../../core/errorMessage';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import { indexEngine, indexOptions } from './indexOptions';
import { writeErr } from '../output/safeText';

/** How a run is opened: everything `openRun` takes from the flags, for a caller without flags (the MCP server). */
export interface OpenSettings {
  options: IndexOptions;
  engine: IndexEngine;
  /** the flags a Hub ref's connection is made from (`--endpoint`, `--no-cache`) */
  args: ParsedArgs;
  /** refuse a run without a credit log (every command today) */
  needCredit?: boolean;
  /** read the credit log alone (a command that reads nothing else: the metrics and evaluations stay unread) */
  creditOnly?: boolean;
}

/** The settings of `a`'s flags (`INDEX_FLAGS` and `--endpoint`). */
export function openSettings(a: ParsedArgs): OpenSettings {
  return { options: indexOptions(a), engine: indexEngine(a), args: a, needCredit: true };
}

/** Opens and reads the run at `ref` with the settings of `a`'s flags. */
export function openRun(ref: string, a: ParsedArgs): Promise<Run> {
  return openRunWith(ref, openSettings(a));
}

export async function openRunWith(ref: string, s: OpenSettings): Promise<Run> {
  const { run, read } = await locateRunWith(ref, s);
  await read();
  return run;
}

/** A run opened before it is read (a Hub ref is read as it opens): the run, and how `openRunWith` reads it. */
export interface LocatedRun {
  run: Run;
  read: () => Promise<void>;
}

/**
 * The run at `ref`, located but not yet read, so that figures kept for its unchanged logs
 * (`Run.kept`) cost no read; `read()` reads it as `openRunWith` does (once, however often called).
 */
export async function locateRunWith(ref: string, s: OpenSettings): Promise<LocatedRun> {
  const run = isHubRef(ref)
    ? (await (await import('./openHubRun')).openHubRun(ref, s)).hr.run
    : await Run.open(resolve(ref), s.options, s.engine);
  if (!run) throw new UsageError(`${ref}: no run here (expected logs/ws_credit_log.jsonl, logs/ws_metrics.jsonl, or a .jsonl file)`);
  if (s.needCredit !== false && !run.credit)
    throw new UsageError(`${ref}: no credit log (${isHubRef(ref) ? 'logs/' : ''}ws_credit_log.jsonl) found`);
  // a command keeps what it prints (`Run.kept`), not the report object
  run.keepsReport = false;
  let reading: Promise<void> | undefined;
  const readOnce = async (): Promise<void> => {
    // a run read in place is read when it opens (HubRun.start)
    if (!isHubRef(ref)) await readRun(run, ref, s.creditOnly === true);
    if (run.metricsError !== undefined)
      writeErr(`rlrb: warning: ${run.metrics?.path}: cannot be read (${run.metricsError}); going on with the credit log alone\n`);
  };
  return { run, read: () => (reading ??= readOnce()) };
}

/** The first read of both logs, with its progress on a terminal. */
async function readRun(run: Run, ref: string, creditOnly: boolean): Promise<void> {
  const tty = process.stderr.isTTY === true;
  const sub = tty
    ? run.credit?.onProgress((p) =>
        process.stderr.write(`\rindexing ${(p.bytesDone / 1e6).toFixed(0)} / ${(p.bytesTotal / 1e6).toFixed(0)} MB`),
      )
    : undefined;
  try {
    await (creditOnly && run.credit ? run.credit.update() : run.update());
  } catch (e) {
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    const path = typeof e === 'object' && e !== null && 'path' in e && typeof e.path === 'string' ? e.path : ref;
    throw new UsageError(`cannot read ${path}: ${errorDetail(e)}`);
  } finally {
    sub?.dispose();
    if (tty) process.stderr.write('\r\x1b[K');
  }
}
