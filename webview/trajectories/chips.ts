/** The toolbar's chips: every active filter and sort key, each removable, and "Clear all". */
import type { TrajectoryQuery } from '../../src/shared/shapes';
import { h } from '../common';
import { queryChips } from '../../src/shared/queryChips';
import { icon } from './marks';
import { logNodes } from './text';
import { visibleText } from '../../src/shared/visibleText';

export function renderChips(box: HTMLElement, q: TrajectoryQuery, set: (q: TrajectoryQuery) => void): void {
  const chips = queryChips(q);
  const els: HTMLElement[] = chips.map((c) => {
    // a chip's words can hold a searched text pasted from a log: its bidi controls are shown
    const said = visibleText(c.label);
    const x = h('button', { 'aria-label': `remove ${said}`, title: `remove ${said}` }, icon('close'));
    x.addEventListener('click', () => set(c.without(q)));
    return h('span', { class: 'chip', 'data-chip': c.id }, ...logNodes(c.label), x);
  });
  if (chips.length > 0) {
    const all = h('button', { class: 'link', id: 'clear-all' }, 'Clear all');
    all.addEventListener('click', () => set({ filter: {}, sort: [] }));
    els.push(all);
  } else els.push(h('span', { class: 'muted' }, 'no filter, no sort: every trajectory in log order'));
  box.replaceChildren(...els);
}
