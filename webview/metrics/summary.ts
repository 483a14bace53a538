/** The words of a metric card and its section: gaps, the last value against the target, the heading's tally. */
import { h } from '../common';
import { formatMetric } from '../../src/shared/format';
import type { SeriesView } from '../../src/shared/protocol/metrics';
import { allRuns, hasValues, overlaid, runName } from './overlay';
import { judgementTally, verdictSummary } from './verdict';
import { sourceNote } from './cardNotes';

export function gapText(s: SeriesView): string {
  if (!hasValues(s)) return 'no values: every row lacks this metric or holds NaN / Infinity';
  if (s.absent) return '';
  if (s.gaps === 0) return '';
  return `${s.gaps} of ${s.total} values are missing or not finite (gaps in the line)`;
}

/** The card's second line: the target with a pass / fail badge and the last value against it, or the last value. */
export function summaryLine(s: SeriesView, root: string): HTMLElement {
  if (s.noFiniteValue) return h('div', { class: 'summary muted', 'data-source': 'none' }, sourceNote(s));
  if (overlaid()) return overlaySummary(s, root);
  if (s.judgement || s.twin || s.recomputed) return verdictSummary(s);
  const last = s.last ? `last ${formatMetric(s.name, s.last.y)} at iteration ${s.last.x}` : 'no last value';
  if (!s.target) return h('div', { class: 'summary muted' }, last);
  const badge =
    s.lastMeets === undefined
      ? h('span', { class: 'target-badge none' }, 'no data')
      : h('span', { class: `target-badge ${s.lastMeets ? 'pass' : 'fail'}` }, s.lastMeets ? '✓ pass' : '✗ fail');
  return h(
    'div',
    { class: 'summary' },
    badge,
    ' ',
    h('span', { class: s.lastMeets === false ? 'off' : '' }, last),
    h('span', { class: 'muted' }, ` · target ${s.target.label}`),
    s.off?.length ? h('span', { class: 'muted' }, ` · ${s.off.length} plotted points miss it`) : '',
  );
}

/** ' ✓' or ' ✗' after a value against its target, '' without one. */
const meetMark = (m: boolean | undefined): string => (m === undefined ? '' : m ? ' ✓' : ' ✗');

/** A run's last value and its iteration. */
const lastText = (name: string, last: { x: number; y: number } | null | undefined): string =>
  last ? `${formatMetric(name, last.y)} @ ${last.x}` : 'no value';

/** With several runs: each run's last value (against the target, if any). */
function overlaySummary(s: SeriesView, root: string): HTMLElement {
  const runs = allRuns();
  const own = [...(s.absent ? [] : [{ run: runs[0]?.root ?? root, last: s.last, lastMeets: s.lastMeets }]), ...(s.lines ?? [])];
  const parts = own.map((l, i) =>
    h(
      'span',
      { class: l.lastMeets === false ? 'off' : '' },
      `${i ? ' · ' : ''}${runName(l.run)} ${lastText(s.name, l.last)}${meetMark(l.lastMeets)}`,
    ),
  );
  return h(
    'div',
    { class: 'summary' },
    h('span', { class: 'muted' }, 'last: '),
    ...parts,
    s.target ? h('span', { class: 'muted' }, ` · target ${s.target.label}`) : '',
  );
}

export function sectionTitle(g: string): string {
  if (g === 'Behaviour')
    return 'Behaviour (docs/format.md section 7: each tag’s rate per iteration; a click opens the tagged trajectories)';
  return g === 'targets' ? 'Card targets' : g === 'pinned' ? 'Pinned' : g === 'other' ? 'other' : `${g}/`;
}

/** "4 pass, 2 fail" for the card-targets heading. */
export function targetTally(list: SeriesView[]): HTMLElement {
  const pass = list.filter((s) => s.lastMeets === true).length;
  const fail = list.filter((s) => s.lastMeets === false).length;
  const judged = list.some((s) => s.judgement) ? `;${judgementTally(list)}` : '';
  return h('span', { class: 'muted tally' }, ` last values: ${pass} pass, ${fail} fail${judged}`);
}
