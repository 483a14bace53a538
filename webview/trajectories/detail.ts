/** The detail pane: one trajectory, a strip of its turns, every turn with its marks, and the group view. */
import { showsAdvantage, unlabeledNote } from './turnWalk';
import { h } from '../common';
import { formatCredit, formatDk, formatReward, formatScore, formatSigned } from '../../src/shared/format';
import { candidateTags } from './candidateTags';
import { visibleText } from '../../src/shared/visibleText';
import type { TrajectoryKey } from '../../src/shared/protocol';
import type { ShareAction, TrajectoryDetailView, TurnDetailView } from '../../src/shared/protocol/trajectories';
import { icon, isAnomalous, legend, marksOf } from './marks';
import { codeEl, logEl } from './text';
import { groupView } from './group';
import { tagButtons } from './tags';

export interface DetailOptions {
  showGroup: boolean;
  onToggleGroup: () => void;
  onOpenSibling: (iteration: number, group: number, rollout: number) => void;
  /** two siblings of the group view to compare side by side */
  onCompare: (a: TrajectoryKey, b: TrajectoryKey) => void;
  onJumpTurn: (index: number) => void;
  /** Next mark: scroll to the next marked turn */
  onNextMark: () => void;
  /** Copy Link / Open Raw Record, of the trajectory (turn null) or of one turn */
  onShare?: (action: ShareAction, turn: number | null) => void;
}

/** A small link-styled button that asks the host to share (copy a link, open the raw record). */
function shareButton(o: DetailOptions, action: ShareAction, turn: number | null, text: string, cls: string): HTMLElement | string {
  const on = o.onShare;
  if (!on) return '';
  const title = `${text}${turn === null ? ' of this trajectory' : ` of turn ${turn}`}`;
  const b = h('button', { class: `link ${cls}`, title, 'data-share': action, ...(turn === null ? {} : { 'data-turn-share': turn }) }, text);
  b.addEventListener('click', () => on(action, turn));
  return b;
}

/** A logged c or A_t, as every view writes it: a clip at 1 is "+1.0000", like any other c. */
const logged = (v: number): string => formatCredit(v);

function candidates(t: TurnDetailView): HTMLElement {
  const scores = t.candidates.map((c) => c.score).filter((s): s is number => s !== null);
  const lo = Math.min(0, ...scores),
    hi = Math.max(0, ...scores);
  const span = hi - lo || 1;
  const grid = h(
    'div',
    { class: 'cands', role: 'table', 'aria-label': 'candidates' },
    // rows as `display: contents` (media/trajectories.css): the cells stay the grid's items
    h(
      'div',
      { role: 'row' },
      h('span', { class: 'muted', role: 'columnheader' }, 'k'),
      h('span', { class: 'muted', role: 'columnheader' }, 'candidate'),
      h('span', { class: 'muted', role: 'columnheader' }, 'score'),
      h('span', { class: 'muted', role: 'columnheader' }, ''),
      h('span', { class: 'muted', role: 'columnheader', title: t.masked ? 'a masked turn uses no d_k' : undefined }, t.masked ? '' : 'd_k'),
      h('span', { class: 'muted', role: 'columnheader' }, ''),
    ),
  );
  for (const c of t.candidates) {
    const bar = h('div', { class: `bar${c.k === 0 ? ' exec' : ''}${c.dropped ? ' dropped' : ''}` });
    bar.style.width = c.score === null ? '0' : `${Math.max(2, ((c.score - lo) / span) * 100)}%`;
    const row = h(
      'div',
      { role: 'row' },
      h('span', { role: 'cell' }, String(c.k)),
      codeEl('span', { class: 'action', role: 'cell', 'data-field': 'candidate' }, c.text, '—'),
      h('span', { role: 'cell', 'data-field': 'score' }, formatScore(c.score)),
      h('div', { role: 'cell' }, bar),
      h('span', { role: 'cell', 'data-field': 'd' }, c.k === 0 || t.masked ? '' : formatDk(c.d)),
      h('span', { class: 'tags', role: 'cell' }, ...candidateTags(c)),
    );
    grid.append(row);
  }
  return grid;
}

function creditBar(c: number | null): HTMLElement {
  const cbar = h('span', { class: 'cbar', role: 'img', 'aria-label': `credit ${formatSigned(c, 4)}` }, h('span', { class: 'zero' }));
  if (c !== null) {
    const fill = h('span', { class: 'fill' });
    const w = Math.min(1, Math.abs(c)) * 50;
    fill.style.left = c >= 0 ? '50%' : `${50 - w}%`;
    fill.style.width = `${w}%`;
    cbar.append(fill);
  }
  return cbar;
}

/** c as logged, and whether its recomputation agrees: a check when it does, the other number only when it does not. */
function creditLine(t: TurnDetailView): HTMLElement | string {
  if (!t.labeled) return '';
  if (t.masked) return h('span', {}, 'c ', h('strong', { 'data-field': 'c', class: 'mk-masked' }, 'masked'), ' · ');
  const agrees = t.cRecomputed !== null && !t.cMismatch;
  return h(
    'span',
    {},
    'c ',
    h('strong', { 'data-field': 'c' }, t.c === null ? 'null' : logged(t.c)),
    ' ',
    creditBar(t.c),
    agrees
      ? h(
          'span',
          { class: 'agrees', 'data-field': 'c-agrees', title: 'equals the recomputation from the scores' },
          ' ',
          icon('check'),
          ' recomputed',
        )
      : '',
    t.cMismatch && t.cRecomputed !== null
      ? h('span', { class: 'mk-cmis', 'data-field': 'c-recomputed' }, ` recomputed ${formatSigned(t.cRecomputed, 4)}`)
      : '',
    ' · ',
  );
}

function advantageLine(t: TurnDetailView, A: number | null): HTMLElement {
  const At = h('strong', { 'data-field': 'At' }, t.At === null ? 'absent' : logged(t.At));
  return h(
    'div',
    {},
    creditLine(t),
    h('span', { class: t.signFlip ? 'flip-line' : '', 'data-field': 'A-line' }, 'A ', formatSigned(A, 4), ' → A_t ', At),
    t.aTMismatch ? h('span', { class: 'mk-atmis' }, ` (expected ${formatSigned(t.expectedAt, 4)})`) : '',
  );
}

function renderTurn(t: TurnDetailView, A: number | null, o: DetailOptions): HTMLElement {
  const el = h('div', {
    class: `turn${isAnomalous(t) ? ' marked' : ''}`,
    'data-turn': t.index,
    role: 'group',
    'aria-label': `turn ${t.index}`,
  });
  el.append(
    h(
      'div',
      { class: 'turn-head' },
      h('strong', {}, `turn ${t.index}`),
      ' ',
      t.labeled ? h('span', { class: 'tag same' }, 'labeled') : '',
      ...marksOf(t),
      ' ',
      shareButton(o, 'copyLink', t.index, 'copy link', 'turn-copy-link'),
      ' ',
      shareButton(o, 'openRaw', t.index, 'raw', 'turn-raw'),
    ),
    codeEl('pre', { class: 'action', 'data-field': 'action' }, t.action, '(no action logged)'),
  );
  if (t.labeled) el.append(candidates(t));
  if (showsAdvantage(t, A)) el.append(advantageLine(t, A));
  if (t.extras)
    el.append(h('details', {}, h('summary', { class: 'muted' }, 'other fields'), logEl('pre', { class: 'text' }, t.extras, '')));
  return el;
}

/** The compact strip of every turn: action kind, c, A_t and marks; a click scrolls to the turn. */
function strip(d: TrajectoryDetailView, onJump: (i: number) => void): HTMLElement {
  return h(
    'div',
    { class: 'strip', id: 'turn-strip', role: 'list', 'aria-label': 'turns at a glance' },
    ...d.turns.map((t) => {
      const b = h(
        'button',
        {
          class: isAnomalous(t) ? 'marked' : '',
          role: 'listitem',
          'data-turn': t.index,
          title: `turn ${t.index}: ${visibleText(t.action ?? 'no action')}`,
        },
        h('span', {}, h('strong', {}, String(t.index)), ' ', logEl('span', {}, t.kind || '—', '')),
        h('span', {}, t.masked ? 'masked' : `c ${formatSigned(t.c, 3)}`),
        h('span', {}, `A_t ${formatSigned(t.At, 3)}`),
        h('span', { class: 'marks' }, ...marksOf(t, true)),
      );
      b.addEventListener('click', () => onJump(t.index));
      return b;
    }),
  );
}

/** The trajectory's behaviour tags (each a filter), or that it has none. */
function tagLine(d: TrajectoryDetailView): HTMLElement {
  return h(
    'div',
    { class: 'detail-tags', id: 'detail-tags' },
    h('span', { class: 'muted' }, 'tags '),
    ...(d.tags.length ? tagButtons(d.tags, true) : [h('span', { class: 'muted' }, 'none')]),
  );
}

/** How many turns carry a mark, and the Next mark button (key n) that walks them. */
function markBar(d: TrajectoryDetailView, o: DetailOptions): HTMLElement {
  const n = d.turns.filter(isAnomalous).length;
  const next = h(
    'button',
    { class: 'link', id: 'next-mark', title: 'scroll to the next turn with a mark (n)', disabled: n === 0 },
    'Next mark (n)',
  );
  next.addEventListener('click', o.onNextMark);
  return h('div', { class: 'mark-bar' }, h('span', { class: 'muted' }, `${n} marked turn${n === 1 ? '' : 's'} · `), next);
}

export function renderDetail(d: TrajectoryDetailView, o: DetailOptions): HTMLElement[] {
  const parts: HTMLElement[] = [];
  parts.push(
    h(
      'h2',
      { id: 'detail-title' },
      `iteration ${d.iteration} · group ${d.group} · rollout ${d.rollout}`,
      h('span', { class: 'muted' }, ` · line ${d.line}`),
      h(
        'span',
        { class: 'detail-actions' },
        h('span', { class: 'muted', 'aria-hidden': 'true' }, '· '),
        shareButton(o, 'copyLink', null, 'Copy Link', 'detail-copy-link'),
        h('span', { class: 'muted', 'aria-hidden': 'true' }, ' · '),
        shareButton(o, 'openRaw', null, 'Open Raw Record', 'detail-raw'),
      ),
    ),
  );
  if (d.taskId !== null) parts.push(h('div', { class: 'muted' }, 'task ', logEl('span', { 'data-field': 'task' }, d.taskId, '')));
  parts.push(logEl('pre', { class: 'text', id: 'instruction', 'data-field': 'instruction' }, d.instruction, '(no instruction logged)'));
  const toggle = h('button', { class: 'link', id: 'toggle-group' }, o.showGroup ? 'hide group (g)' : 'group view (g)');
  toggle.addEventListener('click', o.onToggleGroup);
  parts.push(
    h(
      'div',
      {},
      'reward ',
      h('strong', { id: 'reward' }, formatReward(d.reward)),
      ` · A ${formatSigned(d.A, 4)} · ${d.labeled ? 'labeled' : 'unlabeled'} · mean c ${formatSigned(d.meanC, 4)} · `,
      toggle,
    ),
  );
  if (o.showGroup) parts.push(groupView(d, { open: o.onOpenSibling, compare: o.onCompare }));
  if (d.extras)
    parts.push(h('details', {}, h('summary', { class: 'muted' }, 'other fields'), logEl('pre', { class: 'text' }, d.extras, '')));
  parts.push(tagLine(d), strip(d, o.onJumpTurn), markBar(d, o), legend());
  const quiet = unlabeledNote(d.turns, d.A);
  if (quiet) parts.push(h('div', { class: 'muted', id: 'unlabeled-note' }, quiet));
  for (const t of d.turns) parts.push(renderTurn(t, d.A, o));
  return parts;
}
