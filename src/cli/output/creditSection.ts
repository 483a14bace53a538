/** The text report's short section on the credit diagnostics; `report --json` holds them whole. */
import type { CreditDiagnostics } from '../../core/report/creditDiagnostics';
import { formatFigure as fmt } from '../../shared/format';
import { table } from './table';

/** How many of the last gate iterations the text shows. */
const SHOWN = 5;

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The gate's interval over its last iterations, the histogram's totals and the dose's first and last. */
export function creditSection(d: CreditDiagnostics): string[] {
  const g = d.gatePerIteration;
  const out = ['Credit diagnostics:'];
  if (g.length === 0) out.push('  gate mean diff per iteration: no iteration has a gate group');
  else {
    const above = g.filter((x) => x.lo !== null && x.lo > 0).length;
    const below = g.filter((x) => x.hi !== null && x.hi < 0).length;
    const shown = g.slice(-SHOWN);
    out.push(
      `  gate mean diff per iteration with its 95% CI: ${g.length} iteration(s) with gate groups; ` +
        `the interval is above 0 at ${above}, below 0 at ${below}` +
        `${shown.length < g.length ? `; the last ${shown.length}:` : ':'}`,
    );
    out.push(
      ...table([
        ['iteration', 'groups', 'mean diff', '95% CI low', '95% CI high'],
        ...shown.map((x) => [String(x.iteration), String(x.groups), fmt(x.meanDiff), fmt(x.lo), fmt(x.hi)]),
      ]).map((l) => `  ${l}`),
    );
  }
  const s = sum(d.cHistogram.success);
  const f = sum(d.cHistogram.failure);
  out.push(`  c by outcome in the gate's groups: ${s} succeeded, ${f} failed trajectories (trajectory-mean c, 20 bins over [-1, 1])`);
  const dose = d.dosePerIteration.filter((x) => x.dose !== null);
  out.push(
    dose.length === 0
      ? '  dose per iteration: no credited turn'
      : `  dose per iteration: ${fmt(dose[0]!.dose)} at iteration ${dose[0]!.iteration}, ` +
          `${fmt(dose[dose.length - 1]!.dose)} at iteration ${dose[dose.length - 1]!.iteration} ` +
          `(the card's whole-run figure: ${d.doseCard})`,
  );
  return out;
}
