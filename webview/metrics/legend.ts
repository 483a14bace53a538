/**
 * The dashboard's legend of runs: a swatch and name per run, a toggle (a run toggled off
 * stays listed, struck through) and a remove button for an overlaid run.
 */
import { h } from '../common';
import { visibleText } from '../../src/shared/visibleText';
import type { RunView } from '../../src/shared/protocol/metrics';
import { runColorVar, swatch } from './palette';

export interface LegendActions {
  toggle: (root: string) => void;
  remove: (root: string) => void;
}

function entry(r: RunView, hidden: boolean, a: LegendActions): HTMLElement {
  const name = visibleText(r.name);
  const toggle = h(
    'button',
    {
      class: 'run-toggle',
      'aria-pressed': String(!hidden),
      title: `${hidden ? 'Show' : 'Hide'} ${name} on every chart (${visibleText(r.root)})`,
      'data-run': r.root,
    },
    swatch(runColorVar(r.color)),
    h('span', { class: 'run-name', text: name }),
    r.primary ? h('span', { class: 'muted' }, ' (this run)') : '',
  );
  toggle.addEventListener('click', () => a.toggle(r.root));
  const notes = [
    r.problem ? h('span', { class: 'run-problem', text: ` ${r.problem}` }) : '',
    r.onlyHere > 0 ? h('span', { class: 'muted' }, ` · ${r.onlyHere} metric${r.onlyHere === 1 ? '' : 's'} only here`) : '',
  ];
  const remove = r.primary
    ? ''
    : h('button', {
        class: 'run-remove codicon codicon-close',
        title: `Remove ${name} from the dashboard`,
        'aria-label': `Remove ${name}`,
      });
  if (remove) remove.addEventListener('click', () => a.remove(r.root));
  return h('li', { class: `run-entry${hidden ? ' off' : ''}`, 'data-run': r.root }, toggle, ...notes, remove);
}

/** The legend, or an empty element with fewer than two runs. */
export function legend(runs: readonly RunView[], hidden: readonly string[], a: LegendActions): HTMLElement {
  if (runs.length < 2) return h('ul', { id: 'run-legend', class: 'run-legend', hidden: true });
  return h(
    'ul',
    { id: 'run-legend', class: 'run-legend', 'aria-label': 'Runs on this dashboard' },
    ...runs.map((r) => entry(r, hidden.includes(r.root), a)),
  );
}
