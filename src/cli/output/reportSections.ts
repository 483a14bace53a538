/** The text report's sections on the sign flips (section 4) and on logged figures that disagree with their recomputed twins. */
import type { FullReport } from '../../core/report/report';
import { signFlipLine, summarizeSignFlips } from '../../core/report/signFlips';
import { formatFigure as fmt, formatPlain } from '../../shared/format';
import { table } from './table';

const rewardsText = (rs: readonly (number | null)[]): string => rs.map((r) => (r === null ? '—' : String(r))).join(', ');

export function signFlipSection(full: FullReport, beta: number): string[] {
  const groups = full.signFlipGroups;
  if (groups.length === 0) return ['Sign flips: none'];
  const s = summarizeSignFlips(groups, beta)!;
  const out = [`Sign flips: ${s.flips} in ${s.groups} group(s)`];
  const line = signFlipLine(s);
  if (line !== undefined) out.push(`  ${line}`);
  out.push(
    ...table([
      ['iteration', 'group', 'flips', 'rewards', 'min|A|', 'format failure'],
      ...groups.map((g) => [
        String(g.iteration),
        String(g.group),
        String(g.flips),
        rewardsText(g.rewards),
        formatPlain(g.minAbsA, 4),
        g.formatFailure ? 'yes' : 'no',
      ]),
    ]),
  );
  return out;
}

/** Empty when the run has no metrics log: there is nothing logged to compare. */
export function twinSection(full: FullReport, hasMetrics: boolean): string[] {
  if (!hasMetrics) return [];
  const d = full.twinDisagreements;
  if (d.length === 0) return [`Logged ws/ figures against their recomputed twins: all agree within 1e-6`];
  return [
    `Logged ws/ figures that differ from their recomputed twins by more than 1e-6: ${d.length}`,
    ...table([
      ['iteration', 'metric', 'logged', 'recomputed'],
      ...d.map((x) => [String(x.iteration), x.metric, fmt(x.logged), fmt(x.recomputed)]),
    ]),
  ];
}

/** Both sections, each after a blank line, for the text report. */
export function explainSections(full: FullReport, beta: number, hasMetrics: boolean): string[] {
  const twins = twinSection(full, hasMetrics);
  return ['', ...signFlipSection(full, beta), ...(twins.length > 0 ? ['', ...twins] : [])];
}
