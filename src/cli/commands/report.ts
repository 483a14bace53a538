/** `rlrb report <run>`: the run report of run-format.md section 4, as a table or one JSON object. */
import { reportLines } from '../../core/report/targets';
import { reportJson } from '../../core/report/reportJson';
import { explainSections } from './reportSections';
import { formatFigure as fmt } from '../../shared/format';
import { UsageError } from '../args';
import type { ParsedArgs } from '../args';
import type { Command } from '../command';
import { INDEX_FLAGS, INDEX_USAGE } from '../open/indexOptions';
import { openRun } from '../open/openRun';
import { safeLine, writeJson, writeOut } from '../output/safeText';
import { table } from '../output/table';

async function run(a: ParsedArgs): Promise<number> {
  const path = a.positional[1];
  if (!path || a.positional.length > 2) throw new UsageError(`usage: rlrb ${REPORT.usage}`);
  const opened = await openRun(path, a);
  const full = opened.report()!;
  if (a.flags.has('json')) {
    writeJson(reportJson(full));
    return 0;
  }
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
  out.push('');
  out.push('Training curve (first 10 iterations -> last 10):');
  const curve = full.curve.map((c) => [c.name, fmt(c.first, 3), fmt(c.last, 3), c.source]);
  out.push(...table([['figure', 'first 10', 'last 10', 'from'], ...curve]));
  if (r.warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of r.warnings) out.push(`  - ${safeLine(w)}`);
  }
  writeOut(out.join('\n') + '\n');
  return 0;
}

export const REPORT: Command = {
  usage: `report <run folder, credit log or hub:owner/name[@revision]> [--json] ${INDEX_USAGE} [--endpoint URL]`,
  flags: { json: 'boolean', endpoint: 'string', ...INDEX_FLAGS },
  run,
};
