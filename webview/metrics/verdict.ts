/**
 * The dashboard's share of the verdict: a card target's whole-run judgement (the report's), a figure's recomputed twin and where they
 * differ.
 */
import { h } from '../common';
import { formatMetric, plural } from '../../src/shared/format';
import type { SeriesView } from '../../src/shared/protocol/metrics';
import type { JudgementView } from '../../src/shared/protocol/metricsVerdict';
import type { ChartDataset } from 'chart.js';
import { RECOMPUTED, judged, sourceNote } from './cardNotes';

/** A line's dataset, as datasets.ts draws (declared here: datasets.ts imports this file). */
type Points = ChartDataset<'line', { x: number; y: number | null }[]>;

/** The label of the disagreement marks' dataset (the tooltip tells them apart by it). */
export const TWIN_MARKS = 'logged ≠ recomputed';

const BADGE: Readonly<Record<JudgementView['mark'], string>> = { pass: '✓ pass', near: '≈ near', fail: '✗ fail', none: 'no data' };

/** The card's summary with the verdict: the judgement line (or the last value) and the twin's disagreements under it. */
export function verdictSummary(s: SeriesView): HTMLElement {
  const top =
    s.judgement && judged(s)
      ? judgementLine(s, s.judgement)
      : h('div', {}, s.last ? `last ${formatMetric(s.name, s.last.y)} at iteration ${s.last.x}` : 'no last value');
  const note = sourceNote(s);
  const source = note ? h('div', { class: 'muted recomputed-note', 'data-source': 'recomputed' }, note) : '';
  return h('div', { class: 'summary verdict-summary' }, source, top, disagreementLine(s));
}

/** The judgement: the mark over the whole run and the figure judged, then the last value beside it. */
function judgementLine(s: SeriesView, j: JudgementView): HTMLElement {
  const judged =
    j.value === null
      ? 'whole run: no value'
      : `whole run ${formatMetric(s.name, j.value)} (${j.source === 'report' ? 'recomputed, as the report' : 'mean of the logged values'})`;
  const last = j.last === null ? 'no last value' : `last ${formatMetric(s.name, j.last)} at iteration ${j.lastIteration}`;
  return h(
    'div',
    { class: 'judgement', 'data-judgement': j.mark },
    h('span', { class: `target-badge ${j.mark}`, title: j.tolerance, 'data-mark': j.mark }, BADGE[j.mark]),
    ' ',
    h('span', { class: 'judged', 'data-value': String(j.value) }, judged),
    h('span', { class: 'muted' }, ` · ${last} · target ${s.target?.label ?? ''}`),
  );
}

/** "3 pass, 1 near, 2 fail" of the judgements, for the card-targets heading. */
export function judgementTally(list: SeriesView[]): string {
  const n = (m: JudgementView['mark']): number => list.filter((s) => s.judgement?.mark === m).length;
  return ` whole run: ${n('pass')} pass, ${n('near')} near, ${n('fail')} fail`;
}

/** The recomputed twin (dashed) and a ring at each iteration where it and the logged value differ. */
export function twinDatasets(s: SeriesView, color: string, mark: string): Points[] {
  const t = s.twin;
  if (!t) return [];
  const out: Points[] = [
    {
      label: `${RECOMPUTED} (${t.twin})`,
      data: t.x.map((x, i) => ({ x, y: t.y[i] ?? null })),
      borderColor: color,
      borderDash: [2, 2],
      borderWidth: 1.2,
      pointRadius: 0,
      pointHitRadius: 0,
      spanGaps: false,
    },
  ];
  if (t.disagreements.length > 0)
    out.push({
      label: TWIN_MARKS,
      data: t.disagreements.map((d) => ({ x: d.iteration, y: d.logged })),
      borderColor: mark,
      backgroundColor: 'transparent',
      showLine: false,
      pointRadius: 5,
      pointBorderWidth: 2,
      pointStyle: 'circle',
      pointHitRadius: 8,
    });
  return out;
}

/** The tooltip's words at a disagreement: "logged 0.0000, recomputed 0.0009". */
export function disagreementText(s: SeriesView, iteration: number): string | undefined {
  const d = s.twin?.disagreements.find((x) => x.iteration === iteration);
  return d ? `logged ${formatMetric(s.name, d.logged)}, recomputed ${formatMetric(s.name, d.recomputed)}` : undefined;
}

/** The card's line listing the disagreements (each iteration, both values). */
export function disagreementLine(s: SeriesView): HTMLElement | '' {
  const ds = s.twin?.disagreements ?? [];
  if (ds.length === 0) return '';
  const shown = ds
    .slice(0, 3)
    .map((d) => `iteration ${d.iteration}: logged ${formatMetric(s.name, d.logged)}, recomputed ${formatMetric(s.name, d.recomputed)}`);
  const more = ds.length > 3 ? `; ${ds.length - 3} more` : '';
  return h(
    'div',
    { class: 'twin-disagrees', 'data-count': ds.length },
    h('i', { class: 'codicon codicon-warning' }),
    ` the logged value differs from the recomputed one at ${plural(ds.length, 'iteration')}: ${shown.join('; ')}${more}`,
  );
}

/** A card is off target when its whole-run judgement fails (the report's mark), else when its last value misses. */
export function offTarget(s: SeriesView): boolean {
  if (s.noFiniteValue) return false;
  return s.judgement ? s.judgement.mark === 'fail' : s.lastMeets === false;
}
