/** The comparison's behaviour section (docs/format.md section 7): a table of each tag on the training rollouts, and on eval episodes. */
import { h } from '../common';
import { formatP, formatPercent, formatSigned } from '../../src/shared/format';
import type { BehaviourLineView, CompareBehaviourView } from '../../src/shared/protocol/compare';
import type { TagName } from '../../src/shared/shapes';

/** A tag's name: a button opening its trajectories on a training line that has figures, else text. */
function tagCell(l: BehaviourLineView, open: ((tag: TagName) => void) | undefined): HTMLElement {
  if (!open || (l.rateA === null && l.rateB === null)) return h('td', {}, l.label);
  const b = h('button', { class: 'link', title: `Open the trajectories tagged ${l.label} (of run A or B)` }, l.label);
  b.addEventListener('click', () => open(l.tag));
  return h('td', {}, b);
}

function linesTable(lines: readonly BehaviourLineView[], id: string, open?: (tag: TagName) => void): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id },
    h(
      'tr',
      {},
      h('th', {}, 'tag'),
      h('th', { class: 'num' }, 'A'),
      h('th', { class: 'num' }, 'B'),
      h('th', { class: 'num' }, 'A − B'),
      h('th', { class: 'num' }, 'p'),
      h('th', {}, 'in words'),
    ),
  );
  for (const l of lines)
    t.append(
      h(
        'tr',
        { 'data-tag': l.tag },
        tagCell(l, open),
        h('td', { class: 'num', 'data-value': String(l.rateA) }, formatPercent(l.rateA)),
        h('td', { class: 'num', 'data-value': String(l.rateB) }, formatPercent(l.rateB)),
        h('td', { class: 'num' }, l.diff === null ? '' : `${formatSigned(l.diff * 100, 1)} pts`),
        h(
          'td',
          { class: `num${l.p !== null && l.p < 0.05 ? ' strong' : ''}`, 'data-value': String(l.p) },
          l.p === null ? '' : formatP(l.p),
        ),
        h('td', { class: 'wrap meaning', 'data-field': 'words' }, l.words),
      ),
    );
  return t;
}

/** The section's content: the training lines (a tag opens its trajectories), then the eval episodes' lines or why there are none. */
export function behaviourSection(b: CompareBehaviourView, open: (tag: TagName) => void): HTMLElement[] {
  const out: HTMLElement[] = [
    h(
      'p',
      { class: 'muted' },
      'On the training rollouts of the window: the share of trajectories with each tag, and the two-proportion test. ' +
        'Click a tag to open its trajectories in run A or B.',
    ),
    linesTable(b.training, 'behaviour-training', open),
    h('p', { class: 'muted', id: 'behaviour-eval-note' }, b.evalNote),
  ];
  if (b.evals) out.push(linesTable(b.evals, 'behaviour-evals'));
  return out;
}
