/**
 * The report's checkpoint verdict (docs/format.md section 8) against the baseline: the host's
 * sentences (core's words), coloured by their conclusion as the comparison colours them, or
 * what is missing for one and the button that chooses the baseline.
 */
import { h } from '../common';
import type { CheckpointVerdictView } from '../../src/shared/protocol/report';
import { conclusionClass } from '../compare/verdictLook';
import { logNodes } from '../trajectories/text';

/** The section; none for a run without an evaluation log and no baseline set. */
export function checkpointVerdictSection(v: CheckpointVerdictView, choose: () => void): HTMLElement | '' {
  if (!v.hasEvals && v.baseline === null) return '';
  const button = h('button', { class: 'link', id: 'choose-baseline' }, v.baseline === null ? 'Choose Baseline…' : 'Change…');
  button.addEventListener('click', choose);
  const title = h('h2', {}, 'The verdict: checkpoint evaluations', v.baseline === null ? '' : ' against ', ...logNodes(v.baseline ?? ''));
  const body: (HTMLElement | string)[] = [];
  if (v.baseline === null)
    body.push(
      h(
        'p',
        { class: 'muted', id: 'verdict-no-baseline' },
        'No baseline set: the verdict pairs this run’s checkpoint evaluations with those of its baseline (the plain-RL run) ' +
          'at the same iterations, task by task. ',
        button,
      ),
    );
  else if (v.problem) body.push(h('p', { class: 'mark-near', id: 'verdict-problem' }, ...logNodes(v.problem), ' ', button));
  else {
    body.push(h('p', { class: `verdict-words ${conclusionClass(v.conclusion)}`, id: 'verdict-final' }, v.final));
    // pooled and final concluding differently is part of the verdict: both are said, alike
    const pooled = v.disagree ? `verdict-words ${conclusionClass(v.pooledConclusion)}` : 'muted';
    if (v.pooled) body.push(h('p', { id: 'verdict-pooled', class: pooled }, v.pooled));
    body.push(h('p', { class: 'muted' }, 'A is this run, B the baseline (rlRunBrowser.baseline). ', button));
  }
  return h('section', { id: 'checkpoint-verdict', 'data-conclusion': v.conclusion ?? 'none' }, title, ...body);
}
