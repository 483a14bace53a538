/** `rlrb`: the command line over src/core. Exit 0 on success, 1 on failure, 2 on bad usage. */
import { resolve } from 'node:path';
import { writeDemo } from '../core/demo/demo';
import { Run } from '../core/run/run';
import type { IndexEngine, IndexOptions } from '../core/log/creditIndex';
import { reportLines } from '../core/report/targets';
import { reportJson } from '../core/report/reportJson';
import { explainSections } from './reportSections';
import type { TrajectoryView } from '../core/record/trajectory';
import { recomputeCredit } from '../core/credit/credit';
import { turnMarks } from '../core/credit/turnMarks';
import type { TurnMarks } from '../core/credit/turnMarks';
import { runHubCommand, runDownloadCommand, openInPlace, HUB_FLAGS, DOWNLOAD_FLAGS } from './hub';
import { isHubRef } from '../core/hub/inPlace/hubRef';
import { cmdCompare, COMPARE_USAGE } from './compare';
import { cmdExport, EXPORT_USAGE } from './export';
import { EVALS_COMMAND, EVALS_USAGE } from './evals';
import { formatFigure } from '../shared/format';
import { UsageError, commandName, numberFlag, parseArgs } from './args';
import type { FlagSpec, ParsedArgs } from './args';
import { CACHE_COMMAND, INDEX_FLAGS, indexEngine, indexOptions } from './indexOptions';
import { safeLine, writeErr, writeJson, writeOut } from './safeText';
import { table } from './table';
import { LogEncodingError } from '../core/log/jsonlFile';

const fmt = formatFigure;

async function openRun(path: string, opts: IndexOptions, needCredit: boolean, engine: IndexEngine = {}, a?: ParsedArgs): Promise<Run> {
  if (a && isHubRef(path)) {
    const run = await openInPlace(path, a, opts);
    if (needCredit && !run.credit) throw new UsageError(`${path}: no credit log (logs/ws_credit_log.jsonl) in the repo`);
    return run;
  }
  const run = await Run.open(resolve(path), opts, engine);
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
    if (e instanceof LogEncodingError) throw new UsageError(e.message);
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`cannot read ${err.path ?? path}: ${err.code ?? err.message}`);
  } finally {
    sub?.dispose();
    if (tty) process.stderr.write('\r\x1b[K');
  }
  if (run.metricsError !== undefined)
    writeErr(`rlrb: warning: ${run.metrics?.path}: cannot be read (${run.metricsError}); going on with the credit log alone\n`);
  return run;
}

async function cmdReport(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path)
    throw new UsageError(
      'usage: rlrb report <run folder or credit log> [--json] [--beta B] [--tau T] [--click-tol N] [--key-case on|off] [--map FILE] [--no-cache] [--threads N]',
    );
  const run = await openRun(path, indexOptions(a), true, indexEngine(a), a);
  const full = run.report()!;
  if (a.flags.has('json')) {
    writeJson(reportJson(full));
    return 0;
  }
  const r = full.report;
  const out: string[] = [];
  out.push(`Run report: ${safeLine(run.location.root)}`);
  out.push(
    `${r.trajectories} trajectories over ${r.iterations} iterations; ${r.labeledTurns} labeled turns, ${r.creditedTurns} credited; beta ${run.options.credit.beta}, tau ${run.options.credit.tau}`,
  );
  out.push('');
  const rows = reportLines(r).map((l) => [l.label, fmt(l.value), l.target, l.card, l.mark]);
  out.push(...table([['figure', 'this run', 'target', 'card', 'mark'], ...rows]));
  out.push('');
  out.push(`gate: ${r.gate.groups} mixed groups, ${r.gate.iterationsPositive}/${r.gate.iterations} iterations positive`);
  out.push(...explainSections(full, run.options.credit.beta, run.metrics !== undefined));
  out.push('');
  out.push('Training curve (first 10 iterations -> last 10):');
  out.push(
    ...table([['figure', 'first 10', 'last 10', 'from'], ...full.curve.map((c) => [c.name, fmt(c.first, 3), fmt(c.last, 3), c.source])]),
  );
  if (r.warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of r.warnings) out.push(`  - ${safeLine(w)}`);
  }
  writeOut(out.join('\n') + '\n');
  return 0;
}

async function cmdShow(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  const it = numberFlag(a, 'iteration', { int: true });
  const g = numberFlag(a, 'group', { int: true });
  const ro = numberFlag(a, 'rollout', { int: true });
  if (!path || it === undefined || g === undefined || ro === undefined)
    throw new UsageError('usage: rlrb show <log> --iteration I --group G --rollout R [--json]');
  const opts = indexOptions(a);
  const run = await openRun(path, opts, true, indexEngine(a), a);
  const idx = run.credit!;
  const row = idx.find(it, g, ro);
  if (row < 0) {
    writeErr(`rlrb: no trajectory with iteration ${it}, group ${g}, rollout ${ro} in ${idx.path}\n`);
    return 1;
  }
  const t = await idx.read(row);
  if (a.flags.has('json')) {
    writeJson(trajectoryJson(t, opts, idx.columns.line[row]));
    return 0;
  }
  writeOut(renderTrajectory(t, opts, `${idx.path}:${idx.columns.line[row]}`));
  return 0;
}

/** The marks of a turn in the text of `rlrb show`, in this order. */
const MARK_LABELS: readonly [keyof Omit<TurnMarks, 'recomputedC'>, string][] = [
  ['signFlip', 'sign flip'],
  ['fallback', 'fallback'],
  ['clipped', 'c clipped at +-1'],
  ['cMismatch', 'c mismatch'],
  ['aTMismatch', 'A_t mismatch'],
  ['executedIsArgmax', 'executed is argmax'],
  ['masked', 'masked'],
];

/** `rlrb show --json`: the record as read, each turn with its marks (`TurnMarks`) beside its fields. */
export function trajectoryJson(t: TrajectoryView, opts: IndexOptions, line: number | undefined): unknown {
  return { ...t, turns: t.turns.map((u) => ({ ...u, ...turnMarks(u, t.A, opts.credit, opts.match) })), line };
}

export function renderTrajectory(t: TrajectoryView, opts: IndexOptions, where: string): string {
  const out: string[] = [];
  out.push(`iteration ${t.iteration}  group ${t.group}  rollout ${t.rollout}  (${where})`);
  if (t.taskId) out.push(`task: ${JSON.stringify(t.taskId)}`);
  if (t.instruction) out.push(`instruction: ${JSON.stringify(t.instruction)}`);
  out.push(`reward ${t.reward}  A ${fmt(t.A)}  ${t.labeled ? 'labeled' : 'unlabeled'}  ${t.turns.length} turns`);
  for (const turn of t.turns) {
    const mk = turnMarks(turn, t.A, opts.credit, opts.match);
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
      const state = mk.masked
        ? 'masked (terminal done)'
        : mk.fallback
          ? 'fallback'
          : mk.cMismatch
            ? `recomputed ${fmt(mk.recomputedC)}: differs`
            : 'recomputed: agrees';
      out.push(
        `  c ${turn.c === undefined ? 'absent' : fmt(turn.c)}  (${state})  A -> A_t: ${fmt(t.A)} -> ${turn.At === undefined ? 'absent' : fmt(turn.At)}`,
      );
    } else {
      out.push(`  A_t ${turn.At === undefined ? 'absent' : fmt(turn.At)}`);
    }
    const marks = MARK_LABELS.filter(([k]) => mk[k]).map(([, label]) => label);
    out.push(`  marks: ${marks.length > 0 ? marks.join(', ') : 'none'}`);
  }
  return out.join('\n') + '\n';
}

function cmdDemo(a: ParsedArgs): number {
  const dir = a.positional[1];
  if (!dir) throw new UsageError('usage: rlrb demo <dir> [--trajectories N] [--seed S] [--no-hub-repo] [--no-baseline]');
  const n = numberFlag(a, 'trajectories', { int: true, min: 1 });
  const seed = numberFlag(a, 'seed', { int: true });
  const tty = process.stderr.isTTY === true;
  const res = writeDemo(resolve(dir), {
    ...(n !== undefined ? { trajectories: n } : {}),
    ...(seed !== undefined ? { seed } : {}),
    hubRepo: !a.flags.has('no-hub-repo'),
    baseline: !a.flags.has('no-baseline'),
    onProgress: tty ? (d, t) => process.stderr.write(`\rwriting ${d} / ${t} trajectories`) : undefined,
  });
  if (tty) process.stderr.write('\r\x1b[K');
  writeOut(
    `wrote ${res.trajectories} trajectories over ${res.iterations} iterations (${(res.bytes / 1e6).toFixed(1)} MB)\n  ${res.creditLog}\n  ${res.metricsLog}\n${res.hubRepo ? `  fake Hub repo: ${res.hubRepo}\n` : ''}${res.baseline ? `  plain GRPO baseline: ${res.baseline.root}\n` : ''}`,
  );
  return 0;
}

const HELP = `rlrb: RL Run Browser on the command line

  rlrb demo <dir> [--trajectories N] [--seed S] [--no-hub-repo] [--no-baseline]
  rlrb report <run folder or credit log> [--json] [--beta B] [--tau T] [--click-tol N] [--key-case on|off] [--map FILE] [--no-cache] [--threads N]
  rlrb show <log> --iteration I --group G --rollout R [--json]
  rlrb report|show hub:owner/name[@revision] ... [--endpoint URL]   (the Hub repo's logs read in place, not downloaded)
  ${EVALS_USAGE}
  ${COMPARE_USAGE}
  ${EXPORT_USAGE.replace(/^usage: /, '')}
  rlrb hub ls <repo> [--endpoint URL] [--revision R] [--json]
  rlrb download <repo> --kind resume|hf|logs [--iteration N|latest] --dest DIR [--endpoint URL] [--revision R] [--concurrency N] [--stall-timeout SECONDS] [--set-latest]
  rlrb cache [clear] (lists, or deletes, the saved indexes and the fetched ranges of Hub logs in $XDG_CACHE_HOME/rlrb or ~/.cache/rlrb)

Exit codes: 0 success (warnings included), 1 failure, 2 bad usage or an unreadable file.
`;

interface Command {
  flags: FlagSpec;
  run(a: ParsedArgs): number | Promise<number>;
}

/** Every command with its flags; a new command is one entry here (and a line in HELP). */
const COMMANDS: Readonly<Record<string, Command>> = {
  report: { flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS }, run: cmdReport },
  show: {
    flags: { iteration: 'string', group: 'string', rollout: 'string', json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
    run: cmdShow,
  },
  demo: { flags: { trajectories: 'string', seed: 'string', 'no-hub-repo': 'boolean', 'no-baseline': 'boolean' }, run: cmdDemo },
  hub: { flags: HUB_FLAGS, run: runHubCommand },
  download: { flags: DOWNLOAD_FLAGS, run: runDownloadCommand },
  cache: CACHE_COMMAND,
  evals: EVALS_COMMAND,
};

/** Commands that parse their own flags (strictly, with util.parseArgs): repeatable flags, their own usage. */
const SELF_PARSING: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  compare: cmdCompare,
  export: cmdExport,
};

export async function main(argv: readonly string[]): Promise<number> {
  try {
    const cmd = commandName(argv);
    const command = cmd !== undefined && Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
    if (cmd === undefined || cmd === 'help') {
      const a = parseArgs(argv, {});
      const asked = cmd === 'help' || a.flags.has('help');
      process.stdout.write(HELP);
      return asked ? 0 : 2;
    }
    const own = cmd !== undefined && Object.hasOwn(SELF_PARSING, cmd) ? SELF_PARSING[cmd] : undefined;
    if (own) return await own(argv.filter((_, i) => i !== argv.indexOf(cmd ?? '')));
    if (!command) throw new UsageError(`unknown command "${cmd}" (try rlrb --help)`);
    const a = parseArgs(argv, command.flags, `rlrb ${cmd}`);
    if (a.flags.has('help')) {
      process.stdout.write(HELP);
      return 0;
    }
    return await command.run(a);
  } catch (e) {
    if (e instanceof UsageError) {
      writeErr(`rlrb: ${safeLine(e.message)}\n`);
      return 2;
    }
    writeErr(`rlrb: ${safeLine((e as Error).message)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      writeErr(`rlrb: ${safeLine(String(e))}\n`);
      process.exitCode = 1;
    },
  );
}
