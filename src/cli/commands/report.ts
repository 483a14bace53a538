/** `rlrb report <run>`: the run report of docs/format.md section 4, as a table or one JSON object. */
import { reportLines } from '../../core/report/targets';
import { reportJson } from '../../core/report/reportJson';
import { explainSections } from '../output/reportSections';
import { creditSection } from '../output/creditSection';
import { formatFigure as fmt } from '../../shared/format';
import { UsageError, stringFlag } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { locateRunWith, openSettings } from '../open/openRun';
import { safeLine } from '../output/safeText';
import { emit, isPrinted, jsonText } from '../output/printed';
import type { Printed } from '../output/printed';
import { Run } from '../../core/run/run';
import type { EvalOutcome } from '../../core/eval/evalFigures';
import { compareEvaluations } from '../../core/eval/evalFigures';
import { verdictWords } from '../../core/eval/verdictWords';
import { errorDetail } from '../../core/errorMessage';
import { table } from '../output/table';

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${REPORT.usage}`);
  const json = a.flags.has('json');
  const baseRef = stringFlag(a, 'baseline');
  if (baseRef !== undefined && baseRef.trim() === '') throw new UsageError('--baseline needs a run');
  const { run: opened, read } = await locateRunWith(path, openSettings(a));
  const base = baseRef === undefined ? undefined : (await locateRunWith(baseRef, { ...openSettings(a), needCredit: false })).run;
  const compute = async (): Promise<Printed> => {
    await read();
    const err: string[] = [];
    const verdict = base ? await baselineVerdict(opened, base, baseRef!, err) : undefined;
    const full = opened.report()!;
    return { out: json ? jsonText({ ...reportJson(full), ...(verdict ? { verdict } : {}) }) : reportText(opened, verdict), err };
  };
  const printed = base
    ? await Run.keptAcross(opened, base, 'report', { json, baseline: true }, isPrinted, compute)
    : await opened.kept('report', { json }, isPrinted, compute);
  emit(printed);
  return 0;
}

/** The report's checkpoint verdict against `--baseline` (docs/format.md section 8), in the words every view uses. */
interface ReportVerdict {
  baseline: string;
  conclusion: string | null;
  pooledConclusion: string | null;
  disagree: boolean;
  /** the verdict in one paragraph: the final checkpoint's sentence, and the pooled one where they disagree */
  text: string;
}

async function baselineVerdict(opened: Run, base: Run, name: string, err: string[]): Promise<ReportVerdict> {
  const episodes = async (r: Run): Promise<readonly EvalOutcome[] | undefined> => {
    if (!r.evals) return undefined;
    try {
      await r.updateEvals();
      return r.evals.episodes;
    } catch (e) {
      err.push(`rlrb: warning: ${r.evals.path}: cannot be read (${errorDetail(e)}); no verdict\n`);
      return undefined;
    }
  };
  const w = verdictWords(compareEvaluations(await episodes(opened), await episodes(base)));
  return { baseline: name, conclusion: w.conclusion, pooledConclusion: w.pooledConclusion, disagree: w.disagree, text: w.text };
}

/** The verdict's lines: under the report's head, since the card names the checkpoint evaluations its arbiter. */
function verdictLines(opened: Run, v: ReportVerdict | undefined): string[] {
  if (v) return [`Verdict (checkpoint evaluations; A = this run, B = the baseline ${safeLine(v.baseline)}):`, `  ${v.text}`, ''];
  if (!opened.evals) return [];
  return ['Verdict (checkpoint evaluations): no baseline named; --baseline RUN states it against the plain-RL run.', ''];
}

/** The readable report of a run that has been read. */
function reportText(opened: Run, verdict: ReportVerdict | undefined): string {
  const full = opened.report()!;
  const r = full.report;
  const credit = opened.options.credit;
  const out: string[] = [];
  out.push(`Run report: ${safeLine(opened.location.root)}`);
  out.push(
    `${r.trajectories} trajectories over ${r.iterations} iterations; ${r.labeledTurns} labeled turns, ` +
      `${r.creditedTurns} credited; beta ${credit.beta}, tau ${credit.tau}`,
  );
  out.push('');
  out.push(...verdictLines(opened, verdict));
  const rows = reportLines(r).map((l) => [l.label, fmt(l.value), l.target, l.card, l.mark]);
  out.push(...table([['figure', 'this run', 'target', 'card', 'mark'], ...rows]));
  out.push('');
  out.push(`gate: ${r.gate.groups} mixed groups, ${r.gate.iterationsPositive}/${r.gate.iterations} iterations positive`);
  out.push(...explainSections(full, credit.beta, opened.metrics !== undefined));
  out.push('', ...creditSection(full.creditDiagnostics.diagnostics));
  out.push('');
  out.push('Training curve (first 10 iterations -> last 10):');
  const curve = full.curve.map((c) => [c.name, fmt(c.first, 3), fmt(c.last, 3), c.source]);
  out.push(...table([['figure', 'first 10', 'last 10', 'from'], ...curve]));
  if (r.warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of r.warnings) out.push(`  - ${safeLine(w)}`);
  }
  return out.join('\n') + '\n';
}

export const REPORT: Command = {
  usage: `report <run folder, credit log or hub:owner/name[@revision]> [--baseline RUN] [--json] ${INDEX_USAGE} [--endpoint URL]`,
  about: 'With --baseline, the checkpoint verdict against that run (its evaluation log and this one paired by checkpoint and task) leads.',
  flags: { json: 'boolean', baseline: 'string', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
