/**
 * `rlrb export <run> --format jsonl|csv|parquet [filters] [--out FILE]`: the selected
 * trajectories, streamed (Parquet only to a file: it is binary). The run is opened as `report`
 * opens it (`openRun`). Exit 0 on success, 1 when the export failed, 2 on bad usage, an
 * unreadable log or a path that cannot be written (one line on stderr, nothing left behind);
 * Ctrl-C, SIGTERM and SIGHUP stop it and remove the partial file.
 */
import type { TrajectoryFilter } from '../../shared/shapes';
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CreditIndex } from '../../core/log/creditIndex';
import { Flag, TAG_NAMES } from '../../shared/shapes';
import type { Run } from '../../core/run/run';
import { EXPORT_FORMATS, exportRows } from '../../core/export/exportRows';
import type { ExportFormat } from '../../core/export/exportRows';
import { selectRows } from '../../core/export/select';
import { writableSink } from '../../core/export/sink';
import type { ExportSink } from '../../core/export/sink';
import { errorCode, errorMessage } from '../../core/errorMessage';
import { UsageError, choice, listFlag, numberFlag, oneOf, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openRun } from '../open/openRun';
import { writeErr } from '../output/safeText';
import { terminalSink } from '../output/terminalSink';
import { exportToFile } from '../output/exportFile';
import { exportDataset } from '../dataset/exportDataset';

const FLAG_BITS: Record<string, number> = { 'sign-flip': Flag.SignFlip, argmax: Flag.Argmax, fallback: Flag.Fallback };

/** The signals that stop an export (the partial file removed), with the exit code each gives. */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** The browser's filter from the flags. */
export function filterFromFlags(a: ParsedArgs): TrajectoryFilter {
  const f: TrajectoryFilter = {};
  const min = numberFlag(a, 'iteration-min', { int: true, min: 0 });
  const max = numberFlag(a, 'iteration-max', { int: true, min: 0 });
  const group = numberFlag(a, 'group', { int: true, min: 0 });
  if (min !== undefined) f.iterationMin = min;
  if (max !== undefined) f.iterationMax = max;
  if (group !== undefined) f.group = group;
  const reward = oneOf(a, 'reward', ['success', 'failure', 'format'] as const);
  if (reward) f.reward = reward;
  if (a.flags.has('labeled')) f.labeledOnly = true;
  let bits = 0;
  for (const name of listFlag(a, 'flag')) bits |= FLAG_BITS[choice('flag', name, Object.keys(FLAG_BITS))]!;
  if (bits) f.flags = bits;
  const tags = listFlag(a, 'tag').map((name) => choice('tag', name, TAG_NAMES));
  if (tags.length > 0) f.tags = [...new Set(tags)];
  const text = stringFlag(a, 'text');
  if (text !== undefined) {
    if (text.trim() === '') throw new UsageError('--text needs a non-empty value');
    f.text = text;
  }
  return f;
}

/** What the export is: checked before any log is read. */
function plan(a: ParsedArgs): { ref: string; format: ExportFormat; filter: TrajectoryFilter; out: string | undefined } {
  const refs = a.positional.slice(1);
  if (refs.length !== 1) throw new UsageError(refs.length === 0 ? `usage: rlrb ${EXPORT.usage}` : `one run at a time, not ${refs.length}`);
  const format = oneOf(a, 'format', EXPORT_FORMATS);
  if (format === undefined) throw new UsageError('--format jsonl|csv|parquet is required');
  const filter = filterFromFlags(a);
  const given = stringFlag(a, 'out');
  if (given !== undefined && given.trim() === '') throw new UsageError('--out needs a file name');
  const out = given === undefined ? undefined : resolve(given);
  if (format === 'parquet' && out === undefined) throw new UsageError('--format parquet is binary: give --out FILE');
  return { ref: refs[0]!, format, filter, out };
}

function warnSkipped(index: CreditIndex): void {
  if (index.skippedCount === 0) return;
  const first = index.skippedLines[0];
  const where = first ? ` (first: line ${first.line}, ${first.message})` : '';
  writeErr(`rlrb: ${index.path}: skipped ${index.skippedCount} line(s) that are not records${where}\n`);
}

/** Where the bytes go: a file (`exportToFile`), a pipe (raw), a terminal (escaped, as `report` prints). */
async function write(run: Run, rows: Int32Array, format: ExportFormat, out: string | undefined, signal: AbortSignal): Promise<void> {
  const index = run.credit!;
  const origin = run.location.remote?.credit;
  const opts = { signal, ...(origin ? { origin } : {}) };
  if (out === undefined) {
    const sink: ExportSink = process.stdout.isTTY === true ? terminalSink(process.stdout) : writableSink(process.stdout);
    await exportRows(index, rows, format, sink, opts);
    return;
  }
  const r = await exportToFile(out, (sink) => exportRows(index, rows, format, sink, opts));
  writeErr(`rlrb: exported ${r.rows} trajectories (${r.bytes} bytes) to ${out}\n`);
}

async function exportRun(a: ParsedArgs, signal: AbortSignal): Promise<void> {
  const p = plan(a);
  const run = await openRun(p.ref, a);
  const index = run.credit!;
  if (p.out !== undefined && !run.location.remote && (await realpath(p.out).catch(() => p.out)) === (await realpath(index.path)))
    throw new UsageError(`--out ${stringFlag(a, 'out')} is the log being exported`);
  warnSkipped(index);
  const rows = await selectRows(index, p.filter, { signal });
  await write(run, rows, p.format, p.out, signal);
}

async function run(a: ParsedArgs): Promise<number> {
  const ac = new AbortController();
  let stopped: number | undefined;
  const handlers = Object.entries(STOP_SIGNALS).map(([sig, code]) => {
    const h = (): void => {
      stopped = code;
      ac.abort();
    };
    process.once(sig, h);
    return [sig, h] as const;
  });
  // a failed write also rejects that write's callback, which ends the export; this only keeps the process alive to say so
  const onStdoutError = (): void => undefined;
  process.stdout.on('error', onStdoutError);
  try {
    if (a.flags.has('dataset')) await exportDataset(a, ac.signal);
    else await exportRun(a, ac.signal);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    if (stopped !== undefined) return stopped;
    // the reader closed the pipe (`| head`): it has what it wanted
    if (errorCode(e) === 'EPIPE') return 0;
    writeErr(`rlrb: export failed: ${errorMessage(e)}\n`);
    return 1;
  } finally {
    for (const [sig, h] of handlers) process.off(sig, h);
    process.stdout.off('error', onStdoutError);
  }
}

export const EXPORT: Command = {
  usage:
    'export <run folder, credit log or hub:owner/name[@revision]> --format jsonl|csv|parquet [--iteration-min N] [--iteration-max N] ' +
    '[--group N] [--reward success|failure|format] [--labeled] [--flag sign-flip|argmax|fallback]... [--tag T]... ' +
    '[--text S] [--out FILE] ' +
    `${INDEX_USAGE} [--endpoint URL]`,
  about:
    'Or: export <run>... --dataset DIR [--push owner/name]: every run into one Parquet dataset (trajectories, turns) by run and iteration.',
  flags: {
    dataset: 'string',
    push: 'string',
    format: 'string',
    'iteration-min': 'string',
    'iteration-max': 'string',
    group: 'string',
    reward: 'string',
    labeled: 'boolean',
    flag: { type: 'string', multiple: true },
    tag: { type: 'string', multiple: true },
    text: 'string',
    out: 'string',
    endpoint: 'string',
    ...INDEX_FLAGS,
  },
  run,
};
