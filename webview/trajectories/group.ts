/** The group view: the siblings' summary, the gate, and a column per rollout with turns aligned by index. */
import { h } from '../common';
import { formatFigure, formatPlain } from '../../src/shared/format';
import type { SiblingTurnView, TrajectoryDetailView } from '../../src/shared/protocol/trajectories';
import { marksOf } from './marks';
import { logEl } from './text';

type Open = (iteration: number, group: number, rollout: number) => void;

function gateLine(d: TrajectoryDetailView): HTMLElement {
  const g = d.gate;
  if (!g) return h('div', { class: 'gate-line muted', id: 'group-gate' }, 'gate: the report is not computed yet');
  return g.counts
    ? h(
        'div',
        { class: 'gate-line', id: 'group-gate' },
        h('span', { class: 'counts' }, 'counts for the gate'),
        ` · succeeded minus failed labeled mean c: `,
        h('strong', { 'data-field': 'gate-diff' }, formatFigure(g.diff, 4)),
      )
    : h(
        'div',
        { class: 'gate-line', id: 'group-gate' },
        h('span', { class: 'not-counted' }, 'does not count for the gate'),
        `: ${g.reason ?? ''}`,
      );
}

function summary(d: TrajectoryDetailView, open: Open): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id: 'group-view' },
    h('tr', {}, ...['rollout', 'reward', 'A', 'labeled', 'mean c', 'turns'].map((x) => h('th', {}, x))),
  );
  for (const r of d.group5) {
    const link = h('button', { class: 'link' }, String(r.rollout));
    link.addEventListener('click', () => open(r.iteration, r.group, r.rollout));
    t.append(
      h(
        'tr',
        { 'data-rollout': r.rollout, class: r.rollout === d.rollout ? 'sel' : '' },
        h('td', {}, link),
        h('td', { class: 'num' }, formatPlain(r.reward, 0)),
        h('td', { class: 'num' }, formatFigure(r.A, 3)),
        h('td', {}, r.labeled ? 'yes' : ''),
        h('td', { class: 'num' }, formatFigure(r.meanC, 4)),
        h('td', { class: 'num' }, String(r.turns)),
      ),
    );
  }
  return t;
}

function cell(u: SiblingTurnView | undefined, diverge: boolean, self: boolean, rollout: number): HTMLElement {
  const cls = `cell${diverge ? ' diverge' : ''}${self ? ' self' : ''}`;
  if (!u) return h('div', { class: cls, 'data-rollout': rollout }, h('span', { class: 'muted' }, '(ended)'));
  return h(
    'div',
    {
      class: cls,
      'data-rollout': rollout,
      'data-turn': u.index,
      title: diverge ? 'the first turn where the rollouts act differently' : undefined,
    },
    logEl('div', { class: 'action' }, u.action, '(no action)'),
    h('div', { class: 'muted' }, u.masked ? 'masked' : `c ${formatFigure(u.c, 3)} · A_t ${formatFigure(u.At, 2)}`),
    h('div', {}, ...marksOf({ ...u, clipped: false, executedIsArgmax: false }, true)),
  );
}

/** Rollouts side by side: one column each, one row per turn index; the first diverging turn highlighted. */
function columns(d: TrajectoryDetailView, open: Open): HTMLElement {
  const sibs = d.siblings;
  const grid = h('div', { class: 'siblings', id: 'siblings', role: 'table', 'aria-label': 'the group’s rollouts side by side' });
  grid.style.gridTemplateColumns = `3.5em repeat(${sibs.length}, minmax(9em, 1fr))`;
  grid.append(h('div', { class: 'rowlabel' }, 'turn'));
  for (const s of sibs) {
    const b = h('button', { class: 'link' }, `rollout ${s.rollout}`);
    b.addEventListener('click', () => open(s.iteration, s.group, s.rollout));
    grid.append(
      h(
        'div',
        { class: `cell head${s.rollout === d.rollout ? ' self' : ''}`, 'data-rollout': s.rollout },
        b,
        h('div', { class: 'muted' }, `reward ${formatPlain(s.reward, 0)} · A ${formatFigure(s.A, 3)}`),
      ),
    );
  }
  const n = Math.max(0, ...sibs.map((s) => s.turnList.length));
  for (let i = 0; i < n; i++) {
    const div = i === d.divergeAt;
    grid.append(h('div', { class: 'rowlabel' }, div ? `${i} ⟵ diverge` : String(i)));
    for (const s of sibs) grid.append(cell(s.turnList[i], div, s.rollout === d.rollout, s.rollout));
  }
  return grid;
}

export function groupView(d: TrajectoryDetailView, open: Open): HTMLElement {
  return h(
    'div',
    { class: 'group-view' },
    h('h3', {}, `group ${d.group}: its rollouts`),
    gateLine(d),
    summary(d, open),
    h(
      'div',
      { class: 'muted' },
      d.divergeAt === null ? 'the rollouts take the same actions at every turn' : `first diverging turn: ${d.divergeAt}`,
    ),
    columns(d, open),
  );
}
