/**
 * The trajectory browser: a virtualized table paged from the host, a detail pane turn
 * by turn, and the group view. Every log string is set as text, never as markup.
 */
import { h, initialState, useControls, saveState, channel } from './common';
import { formatFigure, formatPlain } from '../src/shared/format';
import type { QueryView, PanelState, SortKeyView } from '../src/shared/protocol';
import type {
  RowView,
  TrajectoriesHostMessage,
  TrajectoriesWebviewMessage,
  TrajectoryDetailView,
  TurnDetailView,
} from '../src/shared/protocol/trajectories';

const { post, onMessage } = channel<TrajectoriesWebviewMessage, TrajectoriesHostMessage>();

const ROW_H = 22;
const PAGE = 200;
const FLAG = { SignFlip: 1, Argmax: 2, Fallback: 4 } as const;

const state: PanelState = initialState();
let query: QueryView = state.query ?? { filter: {}, sort: [] };
let total = 0;
const rows = new Map<number, RowView>();
let selIndex = -1;
let selRow = state.selectedRow ?? -1;
let detail: TrajectoryDetailView | undefined;
let focusTurn = 0;
let groupView = false;
const pendingOffsets = new Set<number>();

const app = document.getElementById('app')!;
const header = h('div', { class: 'muted', id: 'jump-label' });
const count = h('span', { class: 'muted', id: 'row-count' });
const num = (label: string, key: 'iterationMin' | 'iterationMax' | 'group'): HTMLInputElement => {
  const el = h('input', { type: 'number', min: 0, 'aria-label': label, placeholder: label, id: `f-${key}` });
  const v = query.filter[key];
  if (v !== undefined) el.value = String(v);
  el.addEventListener('change', () => {
    const n = el.value === '' ? undefined : Math.max(0, Math.floor(Number(el.value)));
    if (n === undefined) delete query.filter[key];
    else query.filter[key] = n;
    refetch();
  });
  return el;
};
const rewardSel = h(
  'select',
  { 'aria-label': 'Reward', id: 'f-reward' },
  h('option', { value: '' }, 'any reward'),
  h('option', { value: 'success' }, 'succeeded'),
  h('option', { value: 'failure' }, 'failed'),
  h('option', { value: 'format' }, 'format failure'),
);
rewardSel.value = query.filter.reward ?? '';
rewardSel.addEventListener('change', () => {
  const v = rewardSel.value;
  if (v === 'success' || v === 'failure' || v === 'format') query.filter.reward = v;
  else delete query.filter.reward;
  refetch();
});
const check = (label: string, get: () => boolean, set: (v: boolean) => void, id: string): HTMLLabelElement => {
  const el = h('input', { type: 'checkbox', id });
  el.checked = get();
  el.addEventListener('change', () => {
    set(el.checked);
    refetch();
  });
  return h('label', {}, el, label);
};
const flagBox = (label: string, bit: number, id: string): HTMLLabelElement =>
  check(
    label,
    () => ((query.filter.flags ?? 0) & bit) !== 0,
    (v) => {
      const f = (query.filter.flags ?? 0) & ~bit;
      query.filter.flags = v ? f | bit : f;
      if (!query.filter.flags) delete query.filter.flags;
    },
    id,
  );
const text = h('vscode-textfield' as 'input', {
  placeholder: 'Search actions and instruction',
  'aria-label': 'Search actions and instruction',
  id: 'f-text',
});
text.value = query.filter.text ?? '';
let textTimer: number | undefined;
text.addEventListener('input', () => {
  window.clearTimeout(textTimer);
  textTimer = window.setTimeout(() => {
    const v = text.value.trim();
    if (v) query.filter.text = v;
    else delete query.filter.text;
    refetch();
  }, 350);
});

const cols: { key: SortKeyView; label: string; cls?: string; get: (r: RowView) => string }[] = [
  { key: 'iteration', label: 'iter', get: (r) => String(r.iteration) },
  { key: 'group', label: 'group', get: (r) => String(r.group) },
  { key: 'rollout', label: 'roll', get: (r) => String(r.rollout) },
  { key: 'reward', label: 'reward', get: (r) => formatPlain(r.reward, 0) },
  { key: 'A', label: 'A', get: (r) => formatFigure(r.A, 3) },
  { key: 'labeled', label: 'lab', get: (r) => (r.labeled ? '●' : '') },
  { key: 'turns', label: 'turns', get: (r) => String(r.turns) },
  { key: 'meanC', label: 'mean c', get: (r) => formatFigure(r.meanC, 3) },
  {
    key: 'flags',
    label: 'flags',
    get: (r) =>
      [r.signFlips ? `flip×${r.signFlips}` : '', r.argmaxTurns ? `argmax×${r.argmaxTurns}` : '', r.fallbackTurns ? 'fallback' : '']
        .filter(Boolean)
        .join(' '),
  },
];
const thead = h('div', { class: 'thead', role: 'row' });
/** Click: sort by that column (again: the other way). Shift+click: add it as the next key. */
function renderHead(): void {
  thead.replaceChildren(
    ...cols.map((c) => {
      const at = query.sort.findIndex((x) => x.key === c.key);
      const s = at >= 0 ? query.sort[at] : undefined;
      const arrow = s ? (s.descending ? '▼' : '▲') : '';
      const b = h(
        'button',
        {
          role: 'columnheader',
          'aria-sort': s ? (s.descending ? 'descending' : 'ascending') : 'none',
          title: `Sort by ${c.label} (Shift+click: then by ${c.label})`,
          'data-key': c.key,
        },
        c.label + (arrow ? ` ${arrow}` : ''),
        s && query.sort.length > 1 ? h('sup', { 'aria-label': `sort key ${at + 1}` }, at + 1) : null,
      );
      b.addEventListener('click', (e) => {
        const flipped = { key: c.key, ...(s && !s.descending ? { descending: true } : {}) };
        if (e.shiftKey && query.sort.length > 0)
          query.sort = at >= 0 ? query.sort.map((x, i) => (i === at ? flipped : x)) : [...query.sort, { key: c.key }];
        else query.sort = [at === 0 ? flipped : { key: c.key }];
        renderHead();
        refetch();
      });
      return b;
    }),
  );
}
const viewport = h('div', { class: 'viewport', tabindex: 0, role: 'grid', 'aria-label': 'Trajectories', id: 'table' });
const spacer = h('div', { class: 'spacer' });
viewport.append(spacer);
const detailPane = h(
  'div',
  { class: 'detail', id: 'detail', tabindex: 0, 'aria-label': 'Selected trajectory' },
  h('p', { class: 'muted' }, 'Select a trajectory (arrows, Enter). g toggles the group view.'),
);
const back = h('button', { class: 'link', id: 'back-to-metrics' }, 'metrics');
back.addEventListener('click', () => post({ type: 'openMetrics' }));
const reveal = h('button', { class: 'link', id: 'reveal-in-tree' }, 'reveal in tree');
reveal.addEventListener('click', () => {
  if (selRow >= 0) post({ type: 'trajectories/reveal', row: selRow });
});
app.append(
  h(
    'div',
    { class: 'toolbar' },
    num('iter from', 'iterationMin'),
    num('iter to', 'iterationMax'),
    num('group', 'group'),
    rewardSel,
    check(
      'labeled',
      () => query.filter.labeledOnly === true,
      (v) => {
        if (v) query.filter.labeledOnly = true;
        else delete query.filter.labeledOnly;
      },
      'f-labeled',
    ),
    flagBox('sign flip', FLAG.SignFlip, 'f-flip'),
    flagBox('fallback', FLAG.Fallback, 'f-fallback'),
    text,
    count,
  ),
  h('div', { class: 'toolbar' }, header, back, reveal),
  h('div', { class: 'browser' }, h('div', { class: 'table-wrap' }, thead, viewport), detailPane),
);
renderHead();

function persist(): void {
  state.query = query;
  state.selectedRow = selRow;
  state.scrollTop = viewport.scrollTop;
  saveState(state);
}

function refetch(): void {
  rows.clear();
  pendingOffsets.clear();
  selIndex = -1;
  viewport.scrollTop = 0;
  persist();
  request(0);
}

function request(offset: number): void {
  const o = Math.max(0, Math.floor(offset / PAGE) * PAGE);
  if (pendingOffsets.has(o)) return;
  pendingOffsets.add(o);
  post({ type: 'trajectories/query', query, offset: o, limit: PAGE });
}

function renderRows(): void {
  spacer.style.height = `${total * ROW_H}px`;
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_H) - 5);
  const last = Math.min(total, first + Math.ceil(viewport.clientHeight / ROW_H) + 10);
  const frag: HTMLElement[] = [];
  for (let i = first; i < last; i++) {
    const r = rows.get(i);
    if (!r) {
      request(i);
      continue;
    }
    const el = h(
      'div',
      {
        class: `trow${i === selIndex ? ' sel' : ''}`,
        role: 'row',
        'aria-selected': String(i === selIndex),
        'data-index': i,
        'data-row': r.row,
        'data-key': `${r.iteration}/${r.group}/${r.rollout}`,
      },
      ...cols.map((c) => h('span', {}, c.get(r))),
    );
    el.style.top = `${i * ROW_H}px`;
    frag.push(el);
  }
  spacer.replaceChildren(...frag);
}

function select(i: number, open: boolean): void {
  if (i < 0 || i >= total) return;
  selIndex = i;
  const r = rows.get(i);
  if (r) selRow = r.row;
  const top = i * ROW_H;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_H > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW_H - viewport.clientHeight;
  renderRows();
  persist();
  if (open && r) post({ type: 'trajectories/open', row: r.row });
}

viewport.addEventListener('scroll', () => {
  renderRows();
  persist();
});
// one listener for every row, present and future
spacer.addEventListener('click', (e) => {
  const row = (e.target as Element | null)?.closest<HTMLElement>('.trow');
  if (row) select(Number(row.dataset['index']), true);
});
viewport.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown') {
    select(selIndex + 1, false);
    e.preventDefault();
  } else if (e.key === 'ArrowUp') {
    select(Math.max(0, selIndex - 1), false);
    e.preventDefault();
  } else if (e.key === 'PageDown') {
    select(Math.min(total - 1, selIndex + Math.floor(viewport.clientHeight / ROW_H)), false);
    e.preventDefault();
  } else if (e.key === 'PageUp') {
    select(Math.max(0, selIndex - Math.floor(viewport.clientHeight / ROW_H)), false);
    e.preventDefault();
  } else if (e.key === 'Enter') {
    select(selIndex < 0 ? 0 : selIndex, true);
    e.preventDefault();
  } else if (e.key === 'g') {
    toggleGroup();
  }
});
detailPane.addEventListener('keydown', (e) => {
  if (!detail) return;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    focusTurn = Math.max(0, Math.min(detail.turns.length - 1, focusTurn + (e.key === 'ArrowDown' ? 1 : -1)));
    const el = detailPane.querySelector(`[data-turn="${focusTurn}"]`);
    detailPane.querySelectorAll('.turn.focus').forEach((x) => x.classList.remove('focus'));
    el?.classList.add('focus');
    el?.scrollIntoView({ block: 'nearest' });
    e.preventDefault();
  } else if (e.key === 'g') toggleGroup();
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'g' && e.target === document.body) toggleGroup();
});

function toggleGroup(): void {
  groupView = !groupView;
  if (detail) renderDetail(detail);
}

function tags(list: [boolean, string, string][]): HTMLElement[] {
  return list.filter(([on]) => on).map(([, cls, label]) => h('span', { class: `tag ${cls}` }, label));
}

function renderTurn(t: TurnDetailView, A: number | null): HTMLElement {
  const el = h('div', { class: 'turn', 'data-turn': t.index, role: 'group', 'aria-label': `turn ${t.index}` });
  el.append(
    h(
      'div',
      {},
      h('strong', {}, `turn ${t.index}`),
      ' ',
      ...tags([
        [t.labeled, 'same', 'labeled'],
        [t.masked, 'done', 'masked (terminal done)'],
        [t.fallback, 'warn', 'fallback'],
      ]),
    ),
  );
  el.append(h('pre', { class: 'action', 'data-field': 'action' }, t.action ?? '(no action logged)'));
  if (t.labeled) {
    const scores = t.candidates.map((c) => c.score).filter((s): s is number => s !== null);
    const lo = Math.min(0, ...scores),
      hi = Math.max(0, ...scores);
    const span = hi - lo || 1;
    const grid = h(
      'div',
      { class: 'cands', role: 'table', 'aria-label': 'candidates' },
      h('span', { class: 'muted' }, 'k'),
      h('span', { class: 'muted' }, 'candidate'),
      h('span', { class: 'muted' }, 'score'),
      h('span', { class: 'muted' }, ''),
      h('span', { class: 'muted' }, 'd_k'),
      h('span', { class: 'muted' }, ''),
    );
    for (const c of t.candidates) {
      const bar = h('div', { class: `bar${c.k === 0 ? ' exec' : ''}${c.dropped ? ' dropped' : ''}` });
      bar.style.width = c.score === null ? '0' : `${Math.max(2, ((c.score - lo) / span) * 100)}%`;
      grid.append(
        h('span', {}, String(c.k)),
        h('span', { class: 'action', 'data-field': 'candidate' }, c.text ?? '—'),
        h('span', { 'data-field': 'score' }, c.score === null ? 'null' : c.score.toFixed(3)),
        h('div', {}, bar),
        h('span', { 'data-field': 'd' }, c.k === 0 ? '' : c.d === null ? '—' : formatFigure(c.d, 2)),
        h(
          'span',
          { class: 'tags' },
          ...tags([
            [c.k === 0, 'exec', 'executed'],
            [c.k > 0 && c.same, 'same', 'same action'],
            [c.done, 'done', c.k === 0 ? 'done' : 'done (dropped)'],
            [c.dropped === 'no-score', 'warn', 'no score'],
            [c.isArgmax, 'exec', 'argmax'],
          ]),
        ),
      );
    }
    el.append(grid);
  }
  const cbar = h('span', { class: 'cbar', role: 'img', 'aria-label': `credit ${formatFigure(t.c)}` }, h('span', { class: 'zero' }));
  if (t.c !== null) {
    const fill = h('span', { class: 'fill' });
    const w = Math.min(1, Math.abs(t.c)) * 50;
    fill.style.left = t.c >= 0 ? '50%' : `${50 - w}%`;
    fill.style.width = `${w}%`;
    cbar.append(fill);
  }
  el.append(
    h(
      'div',
      {},
      t.labeled
        ? h(
            'span',
            {},
            'c ',
            h('strong', { 'data-field': 'c' }, t.c === null ? 'null' : formatFigure(t.c)),
            ' ',
            cbar,
            t.cRecomputed !== null
              ? h('span', { class: t.cMismatch ? 'mark-fail' : 'muted' }, ` recomputed ${formatFigure(t.cRecomputed)}`)
              : '',
            ' · ',
          )
        : '',
      'A → A_t: ',
      h('span', {}, formatFigure(A, 4)),
      ' → ',
      h('strong', { 'data-field': 'At' }, t.At === null ? 'absent' : formatFigure(t.At, 4)),
      t.aTMismatch ? h('span', { class: 'mark-fail' }, ` (expected ${formatFigure(t.expectedAt, 4)})`) : '',
    ),
  );
  if (t.extras) el.append(h('details', {}, h('summary', { class: 'muted' }, 'other fields'), h('pre', { class: 'text' }, t.extras)));
  return el;
}

function renderDetail(d: TrajectoryDetailView): void {
  const parts: HTMLElement[] = [];
  parts.push(
    h(
      'h2',
      { id: 'detail-title' },
      `iteration ${d.iteration} · group ${d.group} · rollout ${d.rollout}`,
      ' ',
      h('span', { class: 'muted' }, `line ${d.line}`),
    ),
  );
  if (d.taskId !== null) parts.push(h('div', { class: 'muted' }, 'task ', h('span', { 'data-field': 'task' }, d.taskId)));
  parts.push(h('pre', { class: 'text', id: 'instruction', 'data-field': 'instruction' }, d.instruction ?? '(no instruction logged)'));
  parts.push(
    h(
      'div',
      {},
      'reward ',
      h('strong', { id: 'reward' }, formatPlain(d.reward, 0)),
      ` · A ${formatFigure(d.A, 4)} · ${d.labeled ? 'labeled' : 'unlabeled'} · mean c ${formatFigure(d.meanC, 4)} · `,
      h('button', { class: 'link', id: 'toggle-group', onclick: toggleGroup }, groupView ? 'hide group (g)' : 'group view (g)'),
    ),
  );
  if (groupView) {
    const t = h(
      'table',
      { class: 'grid', id: 'group-view' },
      h('tr', {}, ...['rollout', 'reward', 'A', 'labeled', 'mean c', 'turns'].map((x) => h('th', {}, x))),
    );
    for (const r of d.group5) {
      const link = h('button', { class: 'link' }, String(r.rollout));
      link.addEventListener('click', () => post({ type: 'openTrajectory', iteration: r.iteration, group: r.group, rollout: r.rollout }));
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
    parts.push(h('div', { class: 'group-view' }, h('h3', {}, `group ${d.group}: its rollouts`), t));
  }
  if (d.extras) parts.push(h('details', {}, h('summary', { class: 'muted' }, 'other fields'), h('pre', { class: 'text' }, d.extras)));
  for (const t of d.turns) parts.push(renderTurn(t, d.A));
  detailPane.replaceChildren(...parts);
  focusTurn = 0;
}

onMessage((m) => {
  switch (m.type) {
    case 'trajectories/page': {
      const p = m;
      if (JSON.stringify(p.query) !== JSON.stringify(query)) {
        // the host navigated (a jump from a chart): take its query
        query = p.query;
        syncControls();
        rows.clear();
        pendingOffsets.clear();
      }
      pendingOffsets.delete(p.offset);
      total = p.total;
      p.rows.forEach((r, i) => rows.set(p.offset + i, r));
      header.textContent = p.label ?? '';
      state.label = p.label;
      persist();
      count.textContent = p.searching ? 'searching…' : `${p.total} trajectories`;
      document.title = `Trajectories: ${p.runName}`;
      renderRows();
      break;
    }
    case 'trajectories/select': {
      selRow = m.row;
      if (m.index >= 0) {
        selIndex = m.index;
        viewport.scrollTop = Math.max(0, m.index * ROW_H - viewport.clientHeight / 2);
        renderRows();
      }
      persist();
      break;
    }
    case 'trajectories/detail':
      detail = m.detail;
      selRow = m.detail.row;
      state.selected = { iteration: m.detail.iteration, group: m.detail.group, rollout: m.detail.rollout };
      renderDetail(m.detail);
      persist();
      break;
    case 'error':
      detailPane.replaceChildren(h('p', { class: 'error' }, m.message));
      break;
    default:
      break;
  }
});

function syncControls(): void {
  for (const k of ['iterationMin', 'iterationMax', 'group'] as const) {
    const el = document.getElementById(`f-${k}`) as HTMLInputElement | null;
    if (el) el.value = query.filter[k] === undefined ? '' : String(query.filter[k]);
  }
  rewardSel.value = query.filter.reward ?? '';
  (document.getElementById('f-labeled') as HTMLInputElement).checked = query.filter.labeledOnly === true;
  (document.getElementById('f-flip') as HTMLInputElement).checked = ((query.filter.flags ?? 0) & FLAG.SignFlip) !== 0;
  (document.getElementById('f-fallback') as HTMLInputElement).checked = ((query.filter.flags ?? 0) & FLAG.Fallback) !== 0;
  text.value = query.filter.text ?? '';
  renderHead();
}

if (state.scrollTop)
  requestAnimationFrame(() => {
    viewport.scrollTop = state.scrollTop ?? 0;
  });
persist();
post({ type: 'ready' });
useControls();
