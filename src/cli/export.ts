/**
 * `rlrb export <run or credit log> --format jsonl|csv|parquet [filters] [--out FILE]`: the
 * selected trajectories, streamed (Parquet only to a file: it is binary). Exit 0 on success, 1 when the export failed, 2 on
 * bad usage or an unreadable log (one line on stderr).
 */
import { readFileSync, createWriteStream } from 'node:fs';
import { realpath, rename, rm } from 'node:fs/promises';
import { dirname, join, basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { CreditIndex, DEFAULT_INDEX_OPTIONS } from '../core/log/creditIndex';
import { validateMapping } from '../core/record/schema';
import type { FieldMapping } from '../core/record/schema';
import { Flag } from '../core/record/trajectory';
import type { TrajectoryFilter } from '../core/run/query';
import { locateRun } from '../core/run/runLocator';
import { EXPORT_FORMATS, exportRows } from '../core/export/exportRows';
import type { ExportFormat } from '../core/export/exportRows';
import { selectRows } from '../core/export/select';
import { writableSink } from '../core/export/sink';
import { MAX_THREADS } from './indexOptions';
import { TAG_NAMES } from '../core/behaviour/tags';

export const EXPORT_USAGE =
  'usage: rlrb export <run folder or credit log> --format jsonl|csv|parquet [--iteration-min N] [--iteration-max N] [--group N] ' +
  '[--reward success|failure|format] [--labeled] [--flag sign-flip|argmax|fallback]... [--tag T]... [--text S] [--map FILE] [--out FILE] [--threads N]';

class UsageError extends Error {}

const OPTIONS = {
  format: { type: 'string' },
  'iteration-min': { type: 'string' },
  'iteration-max': { type: 'string' },
  group: { type: 'string' },
  reward: { type: 'string' },
  labeled: { type: 'boolean' },
  flag: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  text: { type: 'string' },
  map: { type: 'string' },
  out: { type: 'string' },
  threads: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const FLAG_BITS: Record<string, number> = { 'sign-flip': Flag.SignFlip, argmax: Flag.Argmax, fallback: Flag.Fallback };

type Values = ReturnType<typeof parse>['values'];

function parse(
  argv: string[],
): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true; tokens: true }>> {
  try {
    return parseArgs({ args: joinValues(argv), options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const name = /'(-[^' <]+)/.exec(err.message)?.[1] ?? '';
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`export: unknown flag ${name} (rlrb export --help lists them)`);
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(
        OPTIONS[name.replace(/^-+/, '') as keyof typeof OPTIONS]?.type === 'boolean'
          ? `export: ${name} takes no value`
          : `export: ${name} needs a value`,
      );
    throw new UsageError(`export: ${err.message.split('\n')[0]}`);
  }
}

/**
 * `--name value` becomes `--name=value` for a flag that takes a value, unless the value starts
 * with `--`, so that a value with one leading dash (`--group -1`) reaches the value check, as in
 * the other commands.
 */
function joinValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const spec = a.startsWith('--') && !a.includes('=') ? OPTIONS[a.slice(2) as keyof typeof OPTIONS] : undefined;
    if (spec?.type === 'string' && next !== undefined && !next.startsWith('--')) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Each flag but --flag and --tag at most once: a second value would silently win. */
function refuseRepeats(tokens: readonly { kind: string; name?: string }[]): void {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || t.name === 'flag' || t.name === 'tag') continue;
    if (seen.has(t.name)) throw new UsageError(`export: --${t.name} is given twice`);
    seen.add(t.name);
  }
}

function wholeFlag(v: Values, name: 'iteration-min' | 'iteration-max' | 'group'): number | undefined {
  const s = v[name];
  if (s === undefined) return undefined;
  const n = Number(s);
  if (s.trim() === '' || !Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`export: --${name} must be a whole number >= 0, not "${s}"`);
  return n;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`export: ${flag} takes ${allowed.join('|')}, not "${value}"`);
  return value as T;
}

/** The browser's filter from the flags. */
export function filterFromFlags(v: Values): TrajectoryFilter {
  const f: TrajectoryFilter = {};
  const min = wholeFlag(v, 'iteration-min');
  const max = wholeFlag(v, 'iteration-max');
  const group = wholeFlag(v, 'group');
  if (min !== undefined) f.iterationMin = min;
  if (max !== undefined) f.iterationMax = max;
  if (group !== undefined) f.group = group;
  const reward = oneOf(v.reward, ['success', 'failure', 'format'] as const, '--reward');
  if (reward) f.reward = reward;
  if (v.labeled) f.labeledOnly = true;
  let bits = 0;
  for (const name of v.flag ?? []) bits |= FLAG_BITS[oneOf(name, Object.keys(FLAG_BITS), '--flag')!]!;
  if (bits) f.flags = bits;
  const tags = (v.tag ?? []).map((name) => oneOf(name, TAG_NAMES, '--tag')!);
  if (tags.length > 0) f.tags = [...new Set(tags)];
  if (v.text !== undefined) {
    if (v.text.trim() === '') throw new UsageError('export: --text needs a non-empty value');
    f.text = v.text;
  }
  return f;
}

function readMapping(file: string | undefined): FieldMapping {
  if (file === undefined) return {};
  let obj: unknown;
  try {
    obj = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`export: cannot read the mapping file ${file}: ${err.code ?? err.message}`);
  }
  const m = validateMapping(obj, file);
  if (m.problems.length > 0) throw new UsageError(m.problems[0]);
  return m.mapping;
}

async function creditLogOf(path: string): Promise<string> {
  const loc = await locateRun(resolve(path));
  if (!loc) throw new UsageError(`export: ${path}: no run here (expected logs/ws_credit_log.jsonl or a .jsonl file)`);
  if (!loc.creditLog) throw new UsageError(`export: ${path}: no credit log (ws_credit_log.jsonl) found`);
  return loc.creditLog;
}

/** `--threads N`: a whole number from 0 (the default: every core) to MAX_THREADS, as the other commands take it. */
function threadsFlag(v: Values): number {
  if (v.threads === undefined) return 0;
  const n = Number(v.threads);
  if (v.threads.trim() === '' || !Number.isSafeInteger(n) || n < 0 || n > MAX_THREADS)
    throw new UsageError(`export: --threads must be a whole number from 0 to ${MAX_THREADS}, not "${v.threads}"`);
  return n;
}

async function openIndex(log: string, mapping: FieldMapping, threads: number): Promise<CreditIndex> {
  const index = new CreditIndex(log, { ...DEFAULT_INDEX_OPTIONS, mapping }, undefined, { threads: { threads } });
  try {
    await index.update();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`export: cannot read ${err.path ?? log}: ${err.code ?? err.message}`);
  }
  if (index.skippedCount > 0) {
    const first = index.skippedLines[0];
    process.stderr.write(
      `rlrb: ${index.path}: skipped ${index.skippedCount} line(s) that are not records${first ? ` (first: line ${first.line}, ${first.message})` : ''}\n`,
    );
  }
  return index;
}

/** Streams the export to `out` (a temporary file renamed into place when done) or stdout. */
async function run(
  index: CreditIndex,
  rows: Int32Array,
  format: ExportFormat,
  out: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  if (out === undefined) {
    await exportRows(index, rows, format, writableSink(process.stdout), { signal });
    return;
  }
  const tmp = join(dirname(out), `.${basename(out)}.rlrb-${process.pid}.partial`);
  const stream = createWriteStream(tmp, { flags: 'wx' });
  try {
    const r = await exportRows(index, rows, format, writableSink(stream), { signal });
    await closeStream(stream);
    await rename(tmp, out);
    process.stderr.write(`rlrb: exported ${r.rows} trajectories (${r.bytes} bytes) to ${out}\n`);
  } catch (e) {
    stream.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
}

function closeStream(s: Writable): Promise<void> {
  return new Promise((res, rej) => {
    s.once('error', rej);
    s.end(() => res());
  });
}

/** `rlrb export …`; `argv` is what follows the word `export`. */
export async function cmdExport(argv: string[]): Promise<number> {
  const ac = new AbortController();
  // Ctrl-C: stop, remove the partial file, exit 130
  const onSigint = (): void => ac.abort();
  process.once('SIGINT', onSigint);
  // a failed write also rejects that write's callback, which ends the export; this only keeps the process alive to say so
  const onStdoutError = (): void => undefined;
  process.stdout.on('error', onStdoutError);
  try {
    const { values: v, positionals, tokens } = parse(argv);
    if (v.help) {
      process.stdout.write(EXPORT_USAGE + '\n');
      return 0;
    }
    refuseRepeats(tokens);
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? EXPORT_USAGE : `export: one run at a time, not ${positionals.length}`);
    if (v.format === undefined) throw new UsageError('export: --format jsonl|csv|parquet is required');
    const format = oneOf(v.format, EXPORT_FORMATS, '--format')!;
    const filter = filterFromFlags(v);
    const out = v.out === undefined ? undefined : resolve(v.out);
    if (v.out !== undefined && v.out.trim() === '') throw new UsageError('export: --out needs a file name');
    if (format === 'parquet' && out === undefined) throw new UsageError('export: --format parquet is binary: give --out FILE');
    const mapping = readMapping(v.map);
    const log = await creditLogOf(positionals[0]!);
    if (out !== undefined && (await realpath(out).catch(() => out)) === (await realpath(log)))
      throw new UsageError(`export: --out ${v.out} is the log being exported`);
    const index = await openIndex(log, mapping, threadsFlag(v));
    const rows = await selectRows(index, filter, { signal: ac.signal });
    await run(index, rows, format, out, ac.signal);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`rlrb: ${e.message}\n`);
      return 2;
    }
    if (ac.signal.aborted) return 130;
    const err = e as NodeJS.ErrnoException;
    // the reader closed the pipe (`| head`): it has what it wanted
    if (err.code === 'EPIPE') return 0;
    process.stderr.write(`rlrb: export failed: ${err.code === 'EEXIST' ? `${err.path ?? 'a temporary file'} exists` : err.message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    process.stdout.off('error', onStdoutError);
  }
}
