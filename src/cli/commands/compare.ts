/** `rlrb compare <run A> <run B>`: docs/format.md section 6, as a table or one JSON object; each run opened as `report` opens it. */
import { RunComparer, comparisonJson } from '../../core/compare/compareRuns';
import type { RunComparison } from '../../core/compare/compareRuns';
import type { CompareWindow } from '../../core/compare/figures';
import { reportLines } from '../../core/report/targets';
import { verdictWords } from '../../core/eval/verdictWords';
import { Run } from '../../core/run/run';
import { formatFigure as fmt } from '../../shared/format';
import { UsageError, numberFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { locateRunWith, openSettings } from '../open/openRun';
import { safeLine } from '../output/safeText';
import { emit, isPrinted, jsonText } from '../output/printed';
import type { Printed } from '../output/printed';
import { table } from '../output/table';
import { behaviourSection } from './compareBehaviour';

async function run(a: ParsedArgs): Promise<number> {
  const [, pathA, pathB, ...more] = a.positional;
  if (pathA === undefined || pathB === undefined || more.length > 0) throw new UsageError(`usage: rlrb ${COMPARE.usage}`);
  const from = numberFlag(a, 'from', { int: true });
  const to = numberFlag(a, 'to', { int: true });
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  const window: CompareWindow = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
  // one set of settings (options, one store) for both runs
  const settings = openSettings(a);
  const json = a.flags.has('json');
  const [la, lb] = await Promise.all([locateRunWith(pathA, settings), locateRunWith(pathB, settings)]);
  const [runA, runB] = [la.run, lb.run];
  const printed = await Run.keptAcross(runA, runB, 'compare', { json, window }, isPrinted, async (): Promise<Printed> => {
    await Promise.all([la.read(), lb.read()]);
    // a Hub run's evaluation log is fetched only when asked: the verdict needs it
    await Promise.all([runA, runB].map((r) => r.updateEvals()));
    const cmp = await new RunComparer(runA, runB).compute(window);
    return { out: json ? jsonText(comparisonJson(cmp)) : renderComparison(cmp, runA, runB, window), err: [] };
  });
  emit(printed);
  return 0;
}

export const COMPARE: Command = {
  usage: `compare <run A> <run B> [--json] [--from I] [--to J] ${INDEX_USAGE} [--endpoint URL]`,
  flags: { json: 'boolean', from: 'string', to: 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};

/** A p value: no sign. */
const pval = (v: number | null): string => (v === null ? '—' : v < 1e-4 ? v.toExponential(2) : v.toFixed(4));
const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
const diff = (x: number | null, y: number | null): number | null => (x === null || y === null ? null : x - y);

/** The verdict first (section 8's checkpoint evaluations), in the words every view uses. */
export function verdictSection(c: RunComparison): string[] {
  const w = verdictWords(c.evaluation);
  const out = ['Verdict (checkpoint evaluations):', `  ${w.final}`];
  if (w.pooled) out.push(`  ${w.disagree ? 'The pooled figure says otherwise. ' : ''}${w.pooled}`);
  out.push('');
  return out;
}

/** The readable form of a comparison. */
export function renderComparison(c: RunComparison, a: Run, b: Run, w: CompareWindow): string {
  const f = c.figures;
  const t = f.tasks;
  const its = f.perIteration;
  const cut = w.from !== undefined || w.to !== undefined ? `, cut to [${w.from ?? '…'}, ${w.to ?? '…'}]` : '';
  const out: string[] = [`Compare: A = ${safeLine(a.location.root)}`, `         B = ${safeLine(b.location.root)}`, ''];
  out.push(...verdictSection(c));
  out.push(
    `Window: ${f.iterations} common iteration(s)` +
      `${its.length > 0 ? ` (${its[0]!.iteration}..${its[its.length - 1]!.iteration})` : ''}${cut}`,
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
  out.push('');
  out.push(...behaviourSection(c.behaviour, c.evalBehaviour));
  const warnings = [...c.warnings, ...c.reportA.warnings.map((x) => `A: ${x}`), ...c.reportB.warnings.map((x) => `B: ${x}`)];
  if (warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const x of warnings) out.push(`  - ${safeLine(x)}`);
  }
  return out.join('\n') + '\n';
}
