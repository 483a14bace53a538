/**
 * The report's behaviour section (docs/format.md section 7): each tag's count, rate, success tagged vs untagged, and its change over
 * training; a row opens its trajectories.
 */
import { h } from '../common';
import { formatCount, formatPercent, formatSigned } from '../../src/shared/format';
import type { ReportBehaviourView } from '../../src/shared/protocol/report';

const pts = (v: number | null): string => (v === null ? '—' : `${formatSigned(v * 100, 1)} pts`);

export function behaviourSection(b: ReportBehaviourView, open: (key: string) => void): HTMLElement[] {
  const t = h(
    'table',
    { class: 'grid', id: 'behaviour' },
    h(
      'tr',
      {},
      h('th', {}, 'tag'),
      h('th', { class: 'num' }, 'count'),
      h('th', { class: 'num' }, 'rate'),
      h('th', { class: 'num', title: 'share with reward > 0 among the tagged trajectories' }, 'success tagged'),
      h('th', { class: 'num', title: 'among the untagged' }, 'untagged'),
      h('th', { class: 'num', title: 'the rate over the first 10 iterations' }, 'first 10'),
      h('th', { class: 'num', title: 'the rate over the last 10 iterations' }, 'last 10'),
      h('th', { class: 'num' }, 'change'),
    ),
  );
  for (const r of b.rows) {
    const link = h('button', { class: 'link', title: `${r.meaning}. Open the trajectories with this tag` }, r.label);
    link.addEventListener('click', () => open(`tag.${r.tag}`));
    const empty = r.count === null;
    t.append(
      h(
        'tr',
        { 'data-tag': r.tag },
        h('td', {}, empty ? h('span', { title: 'needs labeled turns: this run has none' }, r.label) : link),
        h('td', { class: 'num', 'data-field': 'count' }, empty ? '—' : formatCount(r.count)),
        h('td', { class: 'num', 'data-field': 'rate' }, formatPercent(r.rate)),
        h('td', { class: 'num', 'data-field': 'successTagged' }, formatPercent(r.successTagged)),
        h('td', { class: 'num', 'data-field': 'successUntagged' }, formatPercent(r.successUntagged)),
        h('td', { class: 'num' }, formatPercent(r.first)),
        h('td', { class: 'num' }, formatPercent(r.last)),
        h('td', { class: 'num', 'data-field': 'change' }, pts(r.change)),
      ),
    );
  }
  return [
    h('h2', {}, 'Behaviour (docs/format.md section 7)'),
    h(
      'p',
      { class: 'muted', id: 'behaviour-note' },
      `${formatCount(b.trajectories)} trajectories · horizon ${b.horizon}, theta ${b.theta} · collapsed turns ` +
        `${formatPercent(b.collapsedTurnRate)} of compared turns · click a tag to open its trajectories`,
    ),
    t,
  ];
}
