/** `rlrb`: the command line over src/core. Exit 0 on success, 1 on failure, 2 on bad usage. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeDemo } from '../core/demo/demo';
import { Run } from '../core/run/run';
import { DEFAULT_INDEX_OPTIONS } from '../core/log/creditIndex';
import type { IndexOptions } from '../core/log/creditIndex';
import { validateMapping } from '../core/record/schema';
import { reportLines } from '../core/report/targets';
import type { TrajectoryView } from '../core/record/trajectory';
import { recomputeCredit } from '../core/credit/credit';
import { runHubCommand, runDownloadCommand } from './hub';
import { cmdCompare, COMPARE_USAGE } from './compare';
import { formatFigure } from '../shared/format';

export class UsageError extends Error {}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

const BOOLEAN_FLAGS = new Set(['json', 'set-latest', 'help', 'no-hub-repo', 'quiet']);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (BOOLEAN_FLAGS.has(name)) flags.set(name, true);
      else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value`);
        flags.set(name, v);
        i++;
      }
    } else if (a === '-h') flags.set('help', true);
    else positional.push(a);
  }
  return { positional, flags };
}

export function numberFlag(a: ParsedArgs, name: string, opts: { int?: boolean; min?: number } = {}): number | undefined {
  const v = a.flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (
    v === true ||
    v.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.int && !Number.isInteger(n)) ||
    (opts.min !== undefined && n < opts.min)
  ) {
    throw new UsageError(
      `--${name} must be ${opts.int ? 'a whole number' : 'a number'}${opts.min !== undefined ? ` >= ${opts.min}` : ''}, not "${String(v)}"`,
    );
  }
  return n;
}

export function stringFlag(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

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
  return { credit: { beta, tau }, match: { clickTolerance, keyCaseInsensitive: kc !== 'off' }, mapping };
}

const fmt = formatFigure;

async function openRun(path: string, opts: IndexOptions, needCredit: boolean): Promise<Run> {
  const run = await Run.open(resolve(path), opts);
  if (!run) throw new UsageError(`${path}: no run here (expected logs/ws_credit_log.jsonl, logs/ws_metrics.jsonl, or a .jsonl file)`);
  if (needCredit && !run.credit) throw new UsageError(`${path}: no credit log (ws_credit_log.jsonl) found`);
  const tty = process.stderr.isTTY === true;
  const sub = tty
    ? run.credit?.onProgress((p) =>
        process.stderr.write(`\rindexing ${(p.bytesDone / 1e6).toFixed(0)} / ${(p.bytesTotal / 1e6).toFixed(0)} MB`),
      )
    : undefined;
  try {
    await run.update();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`cannot read ${err.path ?? path}: ${err.code ?? err.message}`);
  } finally {
    sub?.dispose();
    if (tty) process.stderr.write('\r\x1b[K');
  }
  return run;
}

async function cmdReport(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path)
    throw new UsageError(
      'usage: rlrb report <run folder or credit log> [--json] [--beta B] [--tau T] [--click-tol N] [--key-case on|off] [--map FILE]',
    );
  const run = await openRun(path, indexOptions(a), true);
  const full = run.report()!;
  if (a.flags.has('json')) {
    process.stdout.write(JSON.stringify(full.report, null, 2) + '\n');
    return 0;
  }
  const r = full.report;
  const out: string[] = [];
  out.push(`Run report: ${run.location.root}`);
  out.push(
    `${r.trajectories} trajectories over ${r.iterations} iterations; ${r.labeledTurns} labeled turns, ${r.creditedTurns} credited; beta ${run.options.credit.beta}, tau ${run.options.credit.tau}`,
  );
  out.push('');
  const rows = reportLines(r).map((l) => [l.label, fmt(l.value), l.target, l.card, l.mark]);
  out.push(...table([['figure', 'this run', 'target', 'card', 'mark'], ...rows]));
  out.push('');
  out.push(`gate: ${r.gate.groups} mixed groups, ${r.gate.iterationsPositive}/${r.gate.iterations} iterations positive`);
  out.push('');
  out.push('Training curve (first 10 iterations -> last 10):');
  out.push(
    ...table([['figure', 'first 10', 'last 10', 'from'], ...full.curve.map((c) => [c.name, fmt(c.first, 3), fmt(c.last, 3), c.source])]),
  );
  if (r.warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of r.warnings) out.push(`  - ${w}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
  );
}

async function cmdShow(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  const it = numberFlag(a, 'iteration', { int: true });
  const g = numberFlag(a, 'group', { int: true });
  const ro = numberFlag(a, 'rollout', { int: true });
  if (!path || it === undefined || g === undefined || ro === undefined)
    throw new UsageError('usage: rlrb show <log> --iteration I --group G --rollout R [--json]');
  const opts = indexOptions(a);
  const run = await openRun(path, opts, true);
  const idx = run.credit!;
  const row = idx.find(it, g, ro);
  if (row < 0) {
    process.stderr.write(`rlrb: no trajectory with iteration ${it}, group ${g}, rollout ${ro} in ${idx.path}\n`);
    return 1;
  }
  const t = await idx.read(row);
  if (a.flags.has('json')) {
    process.stdout.write(JSON.stringify({ ...t, line: idx.columns.line[row] }, null, 2) + '\n');
    return 0;
  }
  process.stdout.write(renderTrajectory(t, opts, `${idx.path}:${idx.columns.line[row]}`));
  return 0;
}

export function renderTrajectory(t: TrajectoryView, opts: IndexOptions, where: string): string {
  const out: string[] = [];
  out.push(`iteration ${t.iteration}  group ${t.group}  rollout ${t.rollout}  (${where})`);
  if (t.taskId) out.push(`task: ${JSON.stringify(t.taskId)}`);
  if (t.instruction) out.push(`instruction: ${JSON.stringify(t.instruction)}`);
  out.push(`reward ${t.reward}  A ${fmt(t.A)}  ${t.labeled ? 'labeled' : 'unlabeled'}  ${t.turns.length} turns`);
  for (const turn of t.turns) {
    out.push('');
    out.push(`turn ${turn.index}: ${JSON.stringify(turn.action)}`);
    if (turn.scores && turn.scores.length >= 2) {
      const rc = recomputeCredit({ scores: turn.scores, same: turn.same, done: turn.done }, opts.credit);
      turn.scores.forEach((s, k) => {
        const marks = [k === 0 ? 'executed' : '', turn.same?.[k] && k > 0 ? 'same' : '', turn.done?.[k] ? 'done (dropped)' : '']
          .filter(Boolean)
          .join(', ');
        const d = k === 0 ? '' : rc.terms[k - 1]?.d === null ? '  d —' : `  d ${fmt(rc.terms[k - 1]!.d, 3)}`;
        out.push(
          `  [${k}] ${s === null ? '   null' : s.toFixed(3).padStart(8)}${d}  ${marks}  ${turn.candidates?.[k] !== undefined ? JSON.stringify(turn.candidates[k]) : ''}`.trimEnd(),
        );
      });
      const state = turn.masked ? 'masked (terminal done)' : turn.fallback ? 'fallback' : `recomputed ${fmt(rc.c)}`;
      out.push(
        `  c ${turn.c === undefined ? 'absent' : fmt(turn.c)}  (${state})  A -> A_t: ${fmt(t.A)} -> ${turn.At === undefined ? 'absent' : fmt(turn.At)}`,
      );
    } else {
      out.push(`  A_t ${turn.At === undefined ? 'absent' : fmt(turn.At)}`);
    }
  }
  return out.join('\n') + '\n';
}

function cmdDemo(a: ParsedArgs): number {
  const dir = a.positional[1];
  if (!dir) throw new UsageError('usage: rlrb demo <dir> [--trajectories N] [--seed S]');
  const n = numberFlag(a, 'trajectories', { int: true, min: 1 });
  const seed = numberFlag(a, 'seed', { int: true });
  const tty = process.stderr.isTTY === true;
  const res = writeDemo(resolve(dir), {
    ...(n !== undefined ? { trajectories: n } : {}),
    ...(seed !== undefined ? { seed } : {}),
    hubRepo: !a.flags.has('no-hub-repo'),
    onProgress: tty ? (d, t) => process.stderr.write(`\rwriting ${d} / ${t} trajectories`) : undefined,
  });
  if (tty) process.stderr.write('\r\x1b[K');
  process.stdout.write(
    `wrote ${res.trajectories} trajectories over ${res.iterations} iterations (${(res.bytes / 1e6).toFixed(1)} MB)\n  ${res.creditLog}\n  ${res.metricsLog}\n${res.hubRepo ? `  fake Hub repo: ${res.hubRepo}\n` : ''}`,
  );
  return 0;
}

const HELP = `rlrb: RL Run Browser on the command line

  rlrb demo <dir> [--trajectories N] [--seed S] [--no-hub-repo]
  rlrb report <run folder or credit log> [--json] [--beta B] [--tau T] [--click-tol N] [--key-case on|off] [--map FILE]
  rlrb show <log> --iteration I --group G --rollout R [--json]
  ${COMPARE_USAGE}
  rlrb hub ls <repo> [--endpoint URL] [--revision R] [--json]
  rlrb download <repo> --kind resume|hf|logs [--iteration N|latest] --dest DIR [--endpoint URL] [--revision R] [--concurrency N] [--set-latest]

Exit codes: 0 success (warnings included), 1 failure, 2 bad usage or an unreadable file.
`;

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const a = parseArgs(argv);
    const cmd = a.positional[0];
    if (!cmd || a.flags.has('help') || cmd === 'help') {
      process.stdout.write(HELP);
      return cmd || a.flags.has('help') ? 0 : 2;
    }
    switch (cmd) {
      case 'report':
        return await cmdReport(a);
      case 'show':
        return await cmdShow(a);
      case 'demo':
        return cmdDemo(a);
      case 'hub':
        return await runHubCommand(a);
      case 'download':
        return await runDownloadCommand(a);
      case 'compare':
        return await cmdCompare(argv.filter((_, i) => i !== argv.indexOf(cmd)));
      default:
        throw new UsageError(`unknown command "${cmd}" (try rlrb --help)`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`rlrb: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`rlrb: ${(e as Error).message}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`rlrb: ${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
