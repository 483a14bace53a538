/** The report's explanations: the sign-flip groups (rewards, min|A|, the one line) and the logged figures that differ from their twin. */
import { h } from '../common';
import { formatMetric, formatReward, formatSigned } from '../../src/shared/format';
import type { ReportVerdictView } from '../../src/shared/protocol/reportVerdict';
import type { ReportWebviewMessage } from '../../src/shared/protocol/report';
import { logNodes } from '../trajectories/text';

type Post = (m: ReportWebviewMessage) => void;

function link(text: string, title: string, go: () => void): HTMLElement {
  const b = h('button', { class: 'link', title }, text);
  b.addEventListener('click', go);
  return b;
}

export function signFlipSection(v: ReportVerdictView, beta: number, post: Post): (HTMLElement | string)[] {
  const gs = v.signFlipGroups;
  const head = h('h2', {}, `Sign flips: the groups behind them (${gs.length})`);
  if (gs.length === 0) return [head, h('p', { class: 'muted', id: 'sign-flips' }, 'no sign-flipped turn')];
  const t = h(
    'table',
    { class: 'grid', id: 'sign-flips' },
    h(
      'tr',
      {},
      h('th', {}, 'group'),
      h('th', { class: 'num' }, 'flips'),
      h('th', {}, 'rewards by rollout'),
      h('th', { class: 'num' }, 'min|A|'),
      h('th', {}, ''),
    ),
  );
  for (const g of gs)
    t.append(
      h(
        'tr',
        { 'data-iteration': g.iteration, 'data-group': g.group },
        h(
          'td',
          {},
          link(`iteration ${g.iteration}, group ${g.group}`, 'Open this group in the trajectory browser', () =>
            post({ type: 'openTrajectory', iteration: g.iteration, group: g.group, rollout: 0 }),
          ),
        ),
        h('td', { class: 'num' }, String(g.flips)),
        h('td', {}, g.rewards.map((r) => formatReward(r)).join(', ')),
        h(
          'td',
          { class: `num${g.minAbsA !== null && g.minAbsA < beta ? ' mark-near' : ''}` },
          formatSigned(g.minAbsA, 3).replace(/^\+/, ''),
        ),
        h('td', { class: g.formatFailure ? 'mark-near' : 'muted' }, g.formatFailure ? 'a -1 reward (format failure)' : ''),
      ),
    );
  const line = v.signFlipLine ? h('p', { id: 'sign-flip-line' }, h('i', { class: 'codicon codicon-info' }), ` ${v.signFlipLine}`) : '';
  return [head, line, h('p', { class: 'muted' }, `min|A| below β = ${beta} lets β·c outweigh A: the turn's sign flips.`), t];
}

export function twinSection(v: ReportVerdictView, post: Post): HTMLElement[] {
  const ds = v.twinDisagreements;
  const head = h('h2', {}, `Logged figures that differ from the recomputed ones (${ds.length})`);
  if (ds.length === 0) return [head, h('p', { class: 'muted', id: 'twin-disagreements' }, 'none (or no metrics log)')];
  return [
    head,
    h(
      'ul',
      { id: 'twin-disagreements' },
      ...ds.map((d) =>
        h(
          'li',
          { 'data-iteration': d.iteration, 'data-metric': d.metric },
          link(`iteration ${d.iteration}`, 'Open this iteration', () =>
            post({ type: 'report/openIteration', iteration: d.iteration, gate: false }),
          ),
          ': ',
          ...logNodes(d.metric),
          ` logged ${formatMetric(d.metric, d.logged)}, recomputed ${formatMetric(d.metric, d.recomputed)}`,
        ),
      ),
    ),
  ];
}
