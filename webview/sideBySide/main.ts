/**
 * Two trajectories side by side: rewards and A at the top, turns aligned by index, the
 * first turn where the executed actions differ highlighted and scrolled to, and on each
 * side its own candidates, scores, c, A_t and marks (a plain GRPO run has none: it says so).
 */
import { scrollWithin } from '../scroll';
import { channel, h, initialState, saveState } from '../common';
import { formatCredit, formatDk, formatPlain, formatScore, plural } from '../../src/shared/format';
import type { SideBySideHostMessage, SideBySideView, SideBySideWebviewMessage, SideView } from '../../src/shared/protocol/task';
import { parseSideBySideState } from '../../src/shared/protocol/task';
import type { TurnDetailView } from '../../src/shared/protocol/trajectories';
import { legend, marksOf } from '../trajectories/marks';
import { logEl } from '../trajectories/text';
import { candidateTags } from '../trajectories/candidateTags';
import { runColourVar, runSlots } from '../../src/shared/runColours';

const { post, onMessage } = channel<SideBySideWebviewMessage, SideBySideHostMessage>();
const app = document.getElementById('app')!;
const state = parseSideBySideState(initialState());
if (state) saveState(state);
let scrolledTo: number | null | undefined;

function header(s: SideView | null, error: string | null, side: 'left' | 'right', slot: number): HTMLElement {
  if (!s) return h('div', { class: 'sbs-head error', 'data-side': side, role: 'alert' }, error ?? 'not found');
  const open = h('button', { class: 'link', 'data-open': side }, `iteration ${s.iteration} · group ${s.group} · rollout ${s.rollout}`);
  open.addEventListener('click', () => post({ type: 'sideBySide/open', side }));
  const sw = h('span', { class: 'swatch', 'data-slot': slot, 'aria-hidden': 'true' });
  sw.style.background = runColourVar(slot);
  return h(
    'div',
    { class: 'sbs-head', 'data-side': side },
    h('h2', {}, sw, `${s.runName} `, open),
    s.taskId !== null ? h('div', { class: 'muted' }, 'task ', logEl('span', {}, s.taskId, '')) : '',
    logEl('pre', { class: 'text instruction' }, s.instruction, '(no instruction logged)'),
    h(
      'div',
      {},
      'reward ',
      h('strong', { 'data-field': 'reward' }, formatPlain(s.reward, 2)),
      ' · A ',
      h('strong', { 'data-field': 'A' }, formatCredit(s.A)),
      ` · ${plural(s.turns.length, 'turn')} · ${s.labeled ? 'labeled' : 'unlabeled'}`,
    ),
    s.hasCandidates ? '' : h('div', { class: 'muted', 'data-field': 'no-candidates' }, 'no candidates in this trajectory'),
  );
}

function candidates(t: TurnDetailView): HTMLElement {
  const grid = h(
    'div',
    { class: 'sbs-cands', role: 'table', 'aria-label': 'candidates' },
    // rows as `display: contents` (media/task.css): the cells stay the grid's items
    h('div', { role: 'row' }, ...['k', 'candidate', 'score', 'd_k', ''].map((x) => h('span', { class: 'muted', role: 'columnheader' }, x))),
  );
  for (const c of t.candidates)
    grid.append(
      h(
        'div',
        { role: 'row' },
        h('span', { role: 'cell' }, String(c.k)),
        logEl('span', { class: `action${c.k === 0 ? ' exec' : ''}`, role: 'cell' }, c.text, '—'),
        h('span', { role: 'cell' }, formatScore(c.score)),
        h('span', { role: 'cell', 'data-field': 'd' }, c.k === 0 || t.masked ? '' : formatDk(c.d)),
        h('span', { class: 'tags', role: 'cell' }, ...candidateTags(c)),
      ),
    );
  return grid;
}

function turnCell(t: TurnDetailView | undefined, s: SideView | null, side: string): HTMLElement {
  if (!s) return h('div', { class: 'sbs-cell empty' });
  if (!t)
    return h('div', { class: 'sbs-cell empty', 'data-side': side }, h('span', { class: 'muted' }, '(no turn: the trajectory has ended)'));
  const credit = t.masked ? 'c masked' : t.labeled ? `c ${t.c === null ? 'null' : formatCredit(t.c)}` : null;
  return h(
    'div',
    { class: 'sbs-cell', 'data-side': side },
    h('div', { class: 'turn-head' }, ...marksOf(t)),
    logEl('pre', { class: 'action', 'data-field': 'action' }, t.action, '(no action logged)'),
    t.candidates.length >= 2 ? candidates(t) : s.hasCandidates ? h('div', { class: 'muted' }, 'no candidates on this turn') : '',
    // a plain GRPO turn has neither c nor A_t: nothing to say beyond its action
    credit || t.At !== null
      ? h(
          'div',
          { class: 'sbs-credit' },
          credit ? h('span', { 'data-field': 'c' }, credit, ' · ') : '',
          h('span', { 'data-field': 'At' }, `A_t ${t.At === null ? 'absent' : formatCredit(t.At)}`),
          t.aTMismatch ? h('span', { class: 'mk-atmis' }, ` (expected ${formatCredit(t.expectedAt)})`) : '',
        )
      : '',
  );
}

function render(v: SideBySideView): void {
  const n = Math.max(v.left?.turns.length ?? 0, v.right?.turns.length ?? 0);
  const summary =
    v.left && v.right
      ? v.divergeAt === null
        ? 'the executed actions are the same at every turn'
        : `the executed actions first differ at turn ${v.divergeAt}`
      : '';
  // the left run is A (the task view puts A's rollout there); one run on both sides keeps one colour
  const slots = runSlots([v.left?.root ?? 'left', v.right?.root ?? 'right']);
  const rows = h('div', { class: 'sbs-rows', id: 'sbs-rows' });
  for (let i = 0; i < n; i++) {
    const cls = i === v.divergeAt ? 'diverge' : v.sameAt[i] ? 'same' : 'differ';
    rows.append(
      h(
        'div',
        {
          class: `sbs-row ${cls}`,
          'data-turn': i,
          role: 'group',
          'aria-label': `turn ${i}${i === v.divergeAt ? ', the first divergent turn' : ''}`,
        },
        h(
          'div',
          { class: 'sbs-index' },
          h('strong', {}, String(i)),
          i === v.divergeAt ? h('div', { class: 'diverge-tag' }, 'first divergence') : '',
        ),
        turnCell(v.left?.turns[i], v.left, 'left'),
        turnCell(v.right?.turns[i], v.right, 'right'),
      ),
    );
  }
  app.replaceChildren(
    h(
      'div',
      { class: 'sbs-top' },
      h('div', {}),
      header(v.left, v.leftError, 'left', slots[0]!),
      header(v.right, v.rightError, 'right', slots[1]!),
    ),
    h('div', { class: 'toolbar' }, h('strong', { id: 'divergence' }, summary), legend()),
    rows,
  );
  // scroll to the divergence once per pair (a live update keeps the reader's place)
  if (scrolledTo !== v.divergeAt) {
    scrolledTo = v.divergeAt;
    const at = v.divergeAt === null ? null : rows.querySelector(`[data-turn="${v.divergeAt}"]`);
    if (at) scrollWithin(at, 'center');
  }
}

onMessage((m) => {
  if (m.type === 'sideBySide/view') render(m.view);
  else if (m.type === 'error') app.replaceChildren(h('div', { class: 'error', role: 'alert' }, m.message));
});
if (!state) app.replaceChildren(h('div', { class: 'error', role: 'alert' }, 'This panel lost its trajectories: open it again.'));
// never a blank panel: what is coming, until the host's first answer
else app.replaceChildren(h('p', { class: 'muted', 'aria-busy': 'true' }, 'Reading both trajectories…'));
post({ type: 'ready' });
