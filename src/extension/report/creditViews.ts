/** The credit diagnostics' view (pure; no vscode): core's figures with bin labels and the gate in words. */
import type { CreditDiagnostics } from '../../core/report/creditDiagnostics';
import type { CreditDiagnosticsView } from '../../shared/protocol/credit';
import { formatPlain, formatSigned, plural } from '../../shared/format';

const edge = (v: number): string => formatPlain(v, 1);

/** "At iteration 44, the last with gate groups: +0.0913 (95% CI +0.0234 to +0.1592) over 14 groups; …" */
export function gateWords(d: CreditDiagnostics): string {
  const g = d.gatePerIteration;
  const last = g[g.length - 1];
  if (!last) return '';
  const ci =
    last.lo === null || last.hi === null ? 'no interval from one group' : `95% CI ${formatSigned(last.lo)} to ${formatSigned(last.hi)}`;
  const above = g.filter((x) => x.lo !== null && x.lo > 0).length;
  const below = g.filter((x) => x.hi !== null && x.hi < 0).length;
  return (
    `At iteration ${last.iteration}, the last with gate groups: mean diff ${formatSigned(last.meanDiff)} (${ci}) over ` +
    `${plural(last.groups, 'group')}. The interval lies above 0 at ${above} and below 0 at ${below} of ${plural(g.length, 'iteration')}.`
  );
}

/** The gate per iteration and in words: what the report and the comparison both draw of it. */
export function gateView(d: CreditDiagnostics): Pick<CreditDiagnosticsView, 'gate' | 'gateWords'> {
  return { gate: d.gatePerIteration.map((g) => ({ ...g })), gateWords: gateWords(d) };
}

export function creditDiagnosticsView(d: CreditDiagnostics): CreditDiagnosticsView {
  const h = d.cHistogram;
  const lo = h.bins.slice(0, -1);
  return {
    ...gateView(d),
    histogram: {
      labels: lo.map((x, i) => `${edge(x)} to ${edge(h.bins[i + 1]!)}`),
      lo,
      success: [...h.success],
      failure: [...h.failure],
      successTotal: h.success.reduce((a, b) => a + b, 0),
      failureTotal: h.failure.reduce((a, b) => a + b, 0),
    },
    dose: d.dosePerIteration.map((x) => ({ ...x })),
    doseCard: d.doseCard,
  };
}
