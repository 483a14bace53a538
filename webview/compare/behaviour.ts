/** The comparison's behaviour section (run-format.md section 7): a table of each tag on the training rollouts, and on eval episodes. */
import { h } from '../common';
import { formatP, formatPercent, formatSigned } from '../../src/shared/format';
import type { BehaviourLineView, CompareBehaviourView } from '../../src/shared/protocol/compare';

function linesTable(lines: readonly BehaviourLineView[], id: string): HTMLElement {
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
        h('td', {}, l.label),
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

/** The section's content: the training lines, then the eval episodes' lines or why there are none. */
export function behaviourSection(b: CompareBehaviourView): HTMLElement[] {
  const out: HTMLElement[] = [
    h(
      'p',
      { class: 'muted' },
      'On the training rollouts of the window: the share of trajectories with each tag, and the two-proportion test.',
    ),
    linesTable(b.training, 'behaviour-training'),
    h('p', { class: 'muted', id: 'behaviour-eval-note' }, b.evalNote),
  ];
  if (b.evals) out.push(linesTable(b.evals, 'behaviour-evals'));
  return out;
}
