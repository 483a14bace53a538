/** The group view: the siblings' summary, the gate, and a column per rollout with turns aligned by index. */
import { h } from '../common';
import { formatReward, formatSigned } from '../../src/shared/format';
import type { TrajectoryKey } from '../../src/shared/protocol';
import type { SiblingTurnView, TrajectoryDetailView } from '../../src/shared/protocol/trajectories';
import { marksOf } from './marks';
import { codeEl } from './text';

type Open = (iteration: number, group: number, rollout: number) => void;

/** What the group view can ask of the page. */
export interface GroupActions {
  open: Open;
  /** two siblings to compare side by side (the host runs the side-by-side command) */
  compare: (a: TrajectoryKey, b: TrajectoryKey) => void;
}

/** The rollouts ticked for comparison, kept while the page shows the same group (in the order they were ticked). */
let picked: { group: string; rollouts: number[] } = { group: '', rollouts: [] };

function gateLine(d: TrajectoryDetailView): HTMLElement {
  const g = d.gate;
  if (!g) return h('div', { class: 'gate-line muted', id: 'group-gate' }, 'gate: the report is not computed yet');
  return g.counts
    ? h(
        'div',
        { class: 'gate-line', id: 'group-gate' },
        h('span', { class: 'counts' }, 'counts for the gate'),
        ` · succeeded minus failed labeled mean c: `,
        h('strong', { 'data-field': 'gate-diff' }, formatSigned(g.diff, 4)),
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
    h(
      'tr',
      {},
      ...['rollout', 'reward', 'A', 'labeled', 'mean c', 'turns'].map((x) =>
        h('th', x === 'rollout' || x === 'labeled' ? {} : { class: 'num' }, x),
      ),
    ),
  );
  for (const r of d.group5) {
    const link = h('button', { class: 'link' }, String(r.rollout));
    link.addEventListener('click', () => open(r.iteration, r.group, r.rollout));
    t.append(
      h(
        'tr',
        { 'data-rollout': r.rollout, class: r.rollout === d.rollout ? 'sel' : '' },
        h('td', {}, link),
        h('td', { class: 'num' }, formatReward(r.reward)),
        h('td', { class: 'num' }, formatSigned(r.A, 3)),
        h('td', {}, r.labeled ? 'yes' : ''),
        h('td', { class: 'num' }, formatSigned(r.meanC, 4)),
        h('td', { class: 'num' }, String(r.turns)),
      ),
    );
  }
  return t;
}

function cell(u: SiblingTurnView | undefined, diverge: boolean, self: boolean, rollout: number): HTMLElement {
  const cls = `cell${diverge ? ' diverge' : ''}${self ? ' self' : ''}`;
  if (!u) return h('div', { class: cls, role: 'cell', 'data-rollout': rollout }, h('span', { class: 'muted' }, '(ended)'));
  return h(
    'div',
    {
      class: cls,
      role: 'cell',
      'data-rollout': rollout,
      'data-turn': u.index,
      title: diverge ? 'the first turn where the rollouts act differently' : undefined,
    },
    codeEl('div', { class: 'action' }, u.action, '(no action)'),
    h('div', { class: 'muted nums' }, u.masked ? 'masked' : `c ${formatSigned(u.c, 3)} · A_t ${formatSigned(u.At, 3)}`),
    h('div', {}, ...marksOf({ ...u, clipped: false, executedIsArgmax: false }, true)),
  );
}

/** The compare bar: which rollouts are ticked, and the button that opens two of them side by side. */
function compareBar(d: TrajectoryDetailView, compare: GroupActions['compare']): HTMLElement {
  const n = picked.rollouts.length;
  const button = h(
    'button',
    { id: 'compare-siblings', disabled: n !== 2, title: 'Open the two ticked rollouts in the side-by-side view' },
    'Compare side by side',
  );
  button.addEventListener('click', () => {
    const [a, b] = picked.rollouts;
    if (a === undefined || b === undefined) return;
    compare({ iteration: d.iteration, group: d.group, rollout: a }, { iteration: d.iteration, group: d.group, rollout: b });
  });
  const said =
    n === 2 ? `rollouts ${picked.rollouts[0]} and ${picked.rollouts[1]}` : n === 1 ? `rollout ${picked.rollouts[0]}: tick one more` : '';
  return h(
    'div',
    { class: 'compare-bar', id: 'compare-bar' },
    button,
    ' ',
    h('span', { class: 'muted', id: 'compare-picked' }, said || 'tick two rollouts to compare them side by side'),
  );
}

/** Ticks or unticks a rollout; a third tick drops the oldest, so two stay picked. */
function toggle(rollout: number, on: boolean): void {
  const rest = picked.rollouts.filter((r) => r !== rollout);
  picked.rollouts = on ? [...rest, rollout].slice(-2) : rest;
}

/** The most rollouts the group view fits in the detail's width; a larger group scrolls sideways, tokens whole. */
const FIT = 5;

/** Rollouts side by side: one column each, one row per turn index; the first diverging turn highlighted. */
function columns(d: TrajectoryDetailView, a: GroupActions, onPick: () => void): HTMLElement {
  const sibs = d.siblings;
  const grid = h('div', { class: 'siblings', id: 'siblings', role: 'table', 'aria-label': 'the group’s rollouts side by side' });
  // a larger group: each rollout at least as wide as its longest token (an action wraps between
  // its tokens, never inside one; its numbers and head wrap too), the turn index narrow and in view
  // up to FIT rollouts (a GRPO group) share the width equally and a token longer than its column breaks
  grid.classList.toggle('fit', sibs.length <= FIT);
  grid.style.gridTemplateColumns = `3.5em repeat(${sibs.length}, ${sibs.length <= FIT ? 'minmax(0, 1fr)' : 'minmax(min-content, 1fr)'})`;
  const head: HTMLElement[] = [h('div', { class: 'rowlabel head', role: 'columnheader' }, 'turn')];
  for (const s of sibs) {
    const b = h('button', { class: 'link' }, `rollout ${s.rollout}`);
    b.addEventListener('click', () => a.open(s.iteration, s.group, s.rollout));
    const tick = h('input', { type: 'checkbox', 'aria-label': `compare rollout ${s.rollout}`, 'data-compare': s.rollout });
    tick.checked = picked.rollouts.includes(s.rollout);
    tick.addEventListener('change', () => {
      toggle(s.rollout, tick.checked);
      for (const x of grid.querySelectorAll<HTMLInputElement>('input[data-compare]'))
        x.checked = picked.rollouts.includes(Number(x.dataset['compare']));
      onPick();
    });
    head.push(
      h(
        'div',
        { class: `cell head${s.rollout === d.rollout ? ' self' : ''}`, role: 'columnheader', 'data-rollout': s.rollout },
        h(
          'div',
          { class: 'head-line' },
          b,
          h('label', { class: 'tick', title: 'tick two rollouts to compare them side by side' }, tick, 'compare'),
        ),
        h('div', { class: 'muted nums' }, `reward ${formatReward(s.reward)} · A ${formatSigned(s.A, 3)}`),
      ),
    );
  }
  // a row of the table for assistive technology; its cells are the grid's (the row itself is display: contents)
  const row = (cells: HTMLElement[]): HTMLElement => h('div', { class: 'sib-row', role: 'row' }, ...cells);
  grid.append(row(head));
  const n = Math.max(0, ...sibs.map((s) => s.turnList.length));
  for (let i = 0; i < n; i++) {
    const div = i === d.divergeAt;
    const label = h(
      'div',
      { class: `rowlabel${div ? ' diverge' : ''}`, role: 'rowheader' },
      String(i),
      div ? h('div', {}, 'diverge') : null,
    );
    grid.append(row([label, ...sibs.map((s) => cell(s.turnList[i], div, s.rollout === d.rollout, s.rollout))]));
  }
  return grid;
}

export function groupView(d: TrajectoryDetailView, a: GroupActions): HTMLElement {
  const key = `${d.iteration}/${d.group}`;
  if (picked.group !== key) picked = { group: key, rollouts: [] };
  let bar = compareBar(d, a.compare);
  const grid = columns(d, a, () => {
    const next = compareBar(d, a.compare);
    bar.replaceWith(next);
    bar = next;
  });
  return h(
    'div',
    { class: 'group-view' },
    h('h3', {}, `group ${d.group}: its ${d.siblings.length || d.group5.length} rollouts`),
    gateLine(d),
    summary(d, a.open),
    h(
      'div',
      { class: 'muted' },
      d.divergeAt === null ? 'the rollouts take the same actions at every turn' : `first diverging turn: ${d.divergeAt}`,
    ),
    bar,
    grid,
  );
}
