/** `rlrb compare <run A> <run B> [--json] [--from I] [--to J] [--threads N]`: run-format.md section 6, as a table or one JSON object. */
import { safeLine, writeErr, writeJson, writeOut } from './safeText';
import { table } from './table';
import { MAX_THREADS } from './indexOptions';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { Run } from '../core/run/run';
import { DEFAULT_INDEX_OPTIONS } from '../core/log/creditIndex';
import { RunComparer, comparisonJson } from '../core/compare/compareRuns';
import type { RunComparison } from '../core/compare/compareRuns';
import type { CompareWindow } from '../core/compare/figures';
import { reportLines } from '../core/report/targets';
import { formatFigure as fmt } from '../shared/format';

export const COMPARE_USAGE = 'rlrb compare <run A> <run B> [--json] [--from I] [--to J] [--threads N]';

class CompareUsage extends Error {}

interface CompareArgs {
  a: string;
  b: string;
  json: boolean;
  window: CompareWindow;
  /** the threads a large log is indexed with (0: every core) */
  threads: number;
}

function wholeFlag(name: string, v: string | undefined, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max)
    throw new CompareUsage(
      `--${name} must be a whole number${min === 0 ? ' of at least 0' : ''}${max < Number.MAX_SAFE_INTEGER ? ` and at most ${max}` : ''}, not "${v}"`,
    );
  return n;
}

function parse(argv: readonly string[]): CompareArgs {
  let p: ReturnType<typeof parseCompare>;
  try {
    p = parseCompare(argv);
  } catch (e) {
    throw new CompareUsage(`${(e as Error).message.split('\n')[0]} (usage: ${COMPARE_USAGE})`);
  }
  const [a, b, ...rest] = p.positionals;
  if (a === undefined || b === undefined || rest.length > 0) throw new CompareUsage(`usage: ${COMPARE_USAGE}`);
  const from = wholeFlag('from', p.values.from);
  const to = wholeFlag('to', p.values.to);
  if (from !== undefined && to !== undefined && from > to) throw new CompareUsage(`--from ${from} is after --to ${to}`);
  const threads = wholeFlag('threads', p.values.threads, 0, MAX_THREADS) ?? 0;
  const window = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
  return { a, b, json: p.values.json === true, window, threads };
}

function parseCompare(argv: readonly string[]): {
  values: { json?: boolean; from?: string; to?: string; threads?: string };
  positionals: string[];
} {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, from: { type: 'string' }, to: { type: 'string' }, threads: { type: 'string' } },
  });
}

async function openRun(path: string, threads: number): Promise<Run> {
  const run = await Run.open(resolve(path), DEFAULT_INDEX_OPTIONS, { threads: { threads } });
  if (!run) throw new CompareUsage(`${path}: no run here (expected logs/ws_credit_log.jsonl, logs/ws_metrics.jsonl, or a .jsonl file)`);
  if (!run.credit) throw new CompareUsage(`${path}: no credit log (ws_credit_log.jsonl) found`);
  try {
    await run.update();
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new CompareUsage(`cannot read ${err.path ?? path}: ${err.code ?? err.message}`);
  }
  return run;
}

/** Runs `rlrb compare` on the arguments after the command name; returns the exit code. */
export async function cmdCompare(argv: readonly string[]): Promise<number> {
  try {
    const args = parse(argv);
    const [a, b] = await Promise.all([openRun(args.a, args.threads), openRun(args.b, args.threads)]);
    const cmp = await new RunComparer(a, b).compute(args.window);
    if (args.json) writeJson(comparisonJson(cmp));
    else writeOut(renderComparison(cmp, a, b, args.window));
    return 0;
  } catch (e) {
    const usage = e instanceof CompareUsage;
    writeErr(`rlrb: ${safeLine((e as Error).message)}\n`);
    return usage ? 2 : 1;
  }
}

/** A p value: no sign. */
const pval = (v: number | null): string => (v === null ? '—' : v < 1e-4 ? v.toExponential(2) : v.toFixed(4));
const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const diff = (x: number | null, y: number | null): number | null => (x === null || y === null ? null : x - y);

/** The readable form of a comparison. */
export function renderComparison(c: RunComparison, a: Run, b: Run, w: CompareWindow): string {
  const f = c.figures;
  const t = f.tasks;
  const its = f.perIteration;
  const cut = w.from !== undefined || w.to !== undefined ? `, cut to [${w.from ?? '…'}, ${w.to ?? '…'}]` : '';
  const out: string[] = [`Compare: A = ${safeLine(a.location.root)}`, `         B = ${safeLine(b.location.root)}`];
  out.push(
    `Window: ${f.iterations} common iteration(s)${its.length > 0 ? ` (${its[0]!.iteration}..${its[its.length - 1]!.iteration})` : ''}${cut}`,
  );
  out.push('');
  out.push(
    ...table([
      ['figure', 'run A', 'run B', 'A - B'],
      ['trajectories', String(f.trajectoriesA), String(f.trajectoriesB), ''],
      ['success', pct(f.successA), pct(f.successB), fmt(diff(f.successA, f.successB))],
      ['mean reward', fmt(f.rewardA), fmt(f.rewardB), fmt(diff(f.rewardA, f.rewardB))],
    ]),
  );
  out.push('');
  out.push(`Iterations: A ahead in ${f.iterationsAhead}, behind in ${f.iterationsBehind}; sign test p = ${pval(f.iterationSignTestP)}`);
  out.push(
    `Tasks (by task_id, else instruction): ${t.count} seen by both; mean diff ${fmt(t.meanDiff)}, t = ${fmt(t.t, 2)}, p = ${pval(t.p)}; ` +
      `${t.wins} wins, ${t.losses} losses, ${t.ties} ties; sign test p = ${pval(t.signTestP)}`,
  );
  out.push('');
  out.push('Per iteration (success):');
  out.push(
    ...table([
      ['iteration', 'A', 'B', 'A - B', 'reward A', 'reward B'],
      ...its.map((r) => [
        String(r.iteration),
        pct(r.successA),
        pct(r.successB),
        fmt(r.successA - r.successB, 3),
        fmt(r.rewardA, 3),
        fmt(r.rewardB, 3),
      ]),
    ]),
  );
  out.push('');
  out.push('Run reports (section 4):');
  const la = reportLines(c.reportA);
  const lb = reportLines(c.reportB);
  out.push(...table([['figure', 'run A', 'run B', 'target'], ...la.map((l, i) => [l.label, fmt(l.value), fmt(lb[i]?.value), l.target])]));
  out.push('');
  out.push('Training curve (first 10 iterations -> last 10):');
  out.push(
    ...table([
      ['figure', 'A first 10', 'A last 10', 'B first 10', 'B last 10'],
      ...c.curveA.map((r, i) => [r.name, fmt(r.first, 3), fmt(r.last, 3), fmt(c.curveB[i]?.first, 3), fmt(c.curveB[i]?.last, 3)]),
    ]),
  );
  const warnings = [...c.warnings, ...c.reportA.warnings.map((x) => `A: ${x}`), ...c.reportB.warnings.map((x) => `B: ${x}`)];
  if (warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const x of warnings) out.push(`  - ${safeLine(x)}`);
  }
  return out.join('\n') + '\n';
}
