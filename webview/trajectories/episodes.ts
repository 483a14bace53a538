/**
 * Eval episodes in the browser (the source `evalIteration`, docs/format.md section 8): their
 * table columns, and their detail: the turns' actions with section 7's marks, its tags, and
 * the plain statement that an eval episode has no candidates (so no credit c and no A_t).
 */
import type { SortKey } from '../../src/shared/shapes';
import { h } from '../common';
import { formatCount, formatReward, plural } from '../../src/shared/format';
import type { EpisodeDetailView, EpisodeRowView } from '../../src/shared/protocol/trajectories';
import { tagButtons } from './tags';
import { markEl, MARKS } from './marks';
import { codeEl, logEl, logNodes } from './text';

export interface EpisodeColumn {
  /** the sort key it orders by (on episodes: group is the task, rollout the sample, flags the tags) */
  key: SortKey;
  label: string;
  tip: string;
  num?: boolean;
  sticky?: boolean;
  cell: (r: EpisodeRowView) => string | HTMLElement;
}

export const EPISODE_COLUMNS: readonly EpisodeColumn[] = [
  { key: 'iteration', label: 'iter', tip: 'the checkpoint’s iteration', num: true, cell: (r) => String(r.iteration) },
  { key: 'group', label: 'task', tip: 'the evaluation task', cell: (r) => h('span', { class: 'task-cell' }, ...logNodes(r.task)) },
  { key: 'rollout', label: 'sample', tip: 'which attempt at this task at this checkpoint', num: true, cell: (r) => String(r.sample) },
  { key: 'reward', label: 'reward', tip: 'reward: > 0 a success', num: true, cell: (r) => formatReward(r.reward) },
  { key: 'turns', label: 'turns', tip: 'number of turns', num: true, cell: (r) => formatCount(r.turns) },
  {
    key: 'flags',
    label: 'tags',
    tip: 'the behaviour tags (a click filters by one); an eval episode has no candidates, so no credit flags',
    sticky: true,
    cell: (r) => h('span', { class: 'flags' }, ...tagButtons(r.tags, false)),
  },
];

/** What an eval episode lacks, said once in its detail, rather than empty columns. */
export const NO_CANDIDATES =
  'Evaluation episode: it has no candidates, so no credit c and no A_t (those exist only on labeled training turns). ' +
  'Shown: its actions, reward and behaviour tags.';

const REPEAT = MARKS.find((m) => m.key === 'repeat')!;
const CYCLE = MARKS.find((m) => m.key === 'cycle')!;

function turnEl(t: EpisodeDetailView['turnList'][number]): HTMLElement {
  const marked = t.repeat || t.cycle;
  return h(
    'div',
    { class: `turn${marked ? ' marked' : ''}`, 'data-turn': t.index, role: 'group', 'aria-label': `turn ${t.index}` },
    h(
      'div',
      { class: 'turn-head' },
      h('strong', {}, `turn ${t.index}`),
      ' ',
      logEl('span', { class: 'muted' }, t.kind, ''),
      t.repeat ? markEl(REPEAT) : '',
      t.cycle ? markEl(CYCLE) : '',
    ),
    codeEl('pre', { class: 'action', 'data-field': 'action' }, t.action, '(no action logged)'),
  );
}

/** How many turns are in a repeat or a cycle window, and the Next mark button (key n) that walks them, as on a trajectory. */
function markBar(marked: number, onNextMark: () => void): HTMLElement {
  const next = h(
    'button',
    { class: 'link', id: 'next-mark', title: 'scroll to the next turn with a mark (n)', disabled: marked === 0 },
    'Next mark (n)',
  );
  next.addEventListener('click', onNextMark);
  return h('div', { class: 'mark-bar' }, h('span', { class: 'muted' }, `${plural(marked, 'marked turn')} (repeat or cycle) · `), next);
}

export function renderEpisode(d: EpisodeDetailView, onNextMark: () => void): HTMLElement[] {
  const marked = d.turnList.filter((t) => t.repeat || t.cycle).length;
  return [
    h(
      'h2',
      { id: 'detail-title' },
      `evaluation · iteration ${d.iteration} · sample ${d.sample}`,
      ' ',
      h('span', { class: 'muted' }, `eval log line ${d.line}`),
    ),
    h('div', { class: 'muted' }, 'task ', logEl('span', { 'data-field': 'task' }, d.task, '')),
    logEl('pre', { class: 'text', id: 'instruction', 'data-field': 'instruction' }, d.instruction, '(no instruction logged)'),
    h('div', {}, 'reward ', h('strong', { id: 'reward' }, formatReward(d.reward)), ` · ${plural(d.turns, 'turn')}`),
    h('div', { class: 'detail-note', id: 'no-candidates', role: 'note' }, NO_CANDIDATES),
    h(
      'div',
      { class: 'detail-tags', id: 'detail-tags' },
      h('span', { class: 'muted' }, 'tags '),
      ...(d.tags.length ? tagButtons(d.tags, true) : [h('span', { class: 'muted' }, 'none')]),
    ),
    markBar(marked, onNextMark),
    ...d.turnList.map(turnEl),
  ];
}
