/** `rlrb report <run>`: the run report of docs/format.md section 4, as a table or one JSON object. */
import { reportLines } from '../../core/report/targets';
import { reportJson } from '../../core/report/reportJson';
import { explainSections } from '../output/reportSections';
import { creditSection } from '../output/creditSection';
import { formatFigure as fmt } from '../../shared/format';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { locateRunWith, openSettings } from '../open/openRun';
import { safeLine } from '../output/safeText';
import { emit, isPrinted, jsonText } from '../output/printed';
import type { Printed } from '../output/printed';
import type { Run } from '../../core/run/run';
import { table } from '../output/table';

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${REPORT.usage}`);
  const json = a.flags.has('json');
  const { run: opened, read } = await locateRunWith(path, openSettings(a));
  const printed = await opened.kept('report', { json }, isPrinted, async (): Promise<Printed> => {
    await read();
    return { out: json ? jsonText(reportJson(opened.report()!)) : reportText(opened), err: [] };
  });
  emit(printed);
  return 0;
}

/** The readable report of a run that has been read. */
function reportText(opened: Run): string {
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
  usage: `report <run folder, credit log or hub:owner/name[@revision]> [--json] ${INDEX_USAGE} [--endpoint URL]`,
  flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
