/**
 * The runs table: one row a run with the figures a sweep is judged by, sorted by a click on a
 * header, filtered by what the filter field says (shown as a chip), a click on a cell opens the
 * view behind it, ticked rows are compared (two) or overlaid (several), and a baseline picked
 * for the verdict column. The host sends each row's cells already in words.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { channel, h, initialState, saveState } from '../common';
import { plural } from '../../src/shared/format';
import { TAG_WORDS } from '../../src/shared/tagWords';
import type {
  RunsColumn,
  RunsRowView,
  RunsSort,
  RunsTableHostMessage,
  RunsTableState,
  RunsTableView,
  RunsTableWebviewMessage,
} from '../../src/shared/protocol/runsTable';
import { RUNS_COLUMNS, columnTag, parseRunsTableState } from '../../src/shared/protocol/runsTable';
import { parseRunsFilter, passes, sortRows } from './filter';
import { watchScrollCue } from '../scrollCueWatch';

const { post, onMessage } = channel<RunsTableWebviewMessage, RunsTableHostMessage>();
const app = document.getElementById('app')!;
const state: RunsTableState = parseRunsTableState(initialState()) ?? { kind: 'runsTable', root: '' };
let sort: RunsSort | null = state.sort ?? null;
let filterText = state.filter ?? '';
const selected = new Set(state.selected ?? []);
let view: RunsTableView | undefined;

/** Each column's header and what it means (the header's tooltip); a tag's from its words. */
const HEAD: Record<Exclude<RunsColumn, `tag:${string}`>, [string, string]> = {
  run: ['run', 'the run: a click opens its dashboard'],
  beta: ['β', 'beta, as its metrics log or its card states it'],
  tau: ['τ', 'tau, as its metrics log or its card states it'],
  iterations: ['iters', 'iterations logged'],
  trajectories: ['trajs', 'trajectories logged: a click opens the browser'],
  rewardFirst: ['reward first', 'mean reward of the first 10 iterations'],
  rewardLast: ['reward last', 'mean reward of the last 10 iterations'],
  gateDiff: ['gate diff', "the gate's mean difference of c, success minus failure, over mixed groups"],
  gateP: ['gate p', "the gate's p value"],
  signFlip: ['sign-flip', 'share of labeled turns whose credit has the other sign than A'],
  fallback: ['fallback', 'share of labeled turns that fell back to the group advantage'],
  argmax: ['argmax', 'share of labeled turns where the executed action is the argmax'],
  evalSuccess: ['last eval', 'success at the last evaluated checkpoint'],
  verdict: ['verdict', 'at the last checkpoint both evaluated, against the baseline'],
};

function head(c: RunsColumn): [string, string] {
  const t = columnTag(c);
  return t ? [TAG_WORDS[t].label, `behaviour tag: ${TAG_WORDS[t].meaning}`] : HEAD[c as keyof typeof HEAD];
}

const numeric = (c: RunsColumn): boolean => c !== 'run' && c !== 'verdict';

function save(): void {
  const s: RunsTableState = { ...state, sort: sort ?? undefined, filter: filterText, selected: [...selected] };
  saveState(s);
  post({ type: 'runsTable/state', sort, filter: filterText, selected: [...selected] });
}

// ---- the page's frame, built once: the controls keep their focus and value across the host's pushes

const status = h('div', { id: 'runs-status', class: 'muted', role: 'status' });
const filterField = h('vscode-textfield', {
  id: 'runs-filter',
  placeholder: 'Filter: words of the name, or beta>=0.4, success<50%, repeat>1%',
  'aria-label': 'filter the runs',
  value: filterText,
}) as HTMLElement & { value: string };
const baselineSelect = h('vscode-single-select', { id: 'baseline', 'aria-label': 'baseline for the verdicts' }) as HTMLElement & {
  value: string;
};
const compareButton = h('vscode-button', { id: 'compare', secondary: true }, 'Compare');
const overlayButton = h('vscode-button', { id: 'overlay', secondary: true }, 'Overlay');
const addButton = h('vscode-button', { id: 'add-run', secondary: true }, 'Add Run Folder…');
const chips = h('div', { class: 'chips', id: 'runs-chips' });
const warnings = h('ul', { class: 'warnings', id: 'runs-warnings', hidden: true });
const tableBox = h('div', { class: 'runs-box', id: 'runs-box', tabindex: 0, role: 'region', 'aria-label': 'Runs table' });
// a narrow panel hides the right-hand columns behind the box's sideways scroll: the cue above it says so
const tableCue = h('div', { class: 'scroll-cue muted', id: 'runs-table-cue', 'aria-hidden': 'true' });
const updateCue = watchScrollCue(tableBox, tableCue);

app.append(
  h('header', { class: 'runs-header' }, h('h1', {}, 'Runs'), status),
  h(
    'div',
    { class: 'toolbar runs-toolbar' },
    filterField,
    h('span', { class: 'baseline-pick' }, h('label', { class: 'baseline-label', for: 'baseline' }, 'Baseline'), baselineSelect),
    compareButton,
    overlayButton,
    addButton,
  ),
  chips,
  warnings,
  tableCue,
  tableBox,
);

filterField.addEventListener('input', () => {
  filterText = filterField.value;
  render();
  save();
});
baselineSelect.addEventListener('change', () => {
  const v = baselineSelect.value;
  post({ type: 'runsTable/baseline', root: v === '' ? null : v });
});
compareButton.addEventListener('click', () => {
  // run A is the one ticked first; the picked baseline is always B
  const roots = ticked().sort((a, b) => Number(a === view?.baseline?.root) - Number(b === view?.baseline?.root));
  if (roots.length === 2) post({ type: 'runsTable/compare', roots });
});
overlayButton.addEventListener('click', () => {
  const roots = ticked();
  if (roots.length >= 2) post({ type: 'runsTable/overlay', roots });
});
addButton.addEventListener('click', () => post({ type: 'runsTable/add' }));

/** The ticked rows still in the table, in the order they were ticked. */
function ticked(): string[] {
  const shown = new Set((view?.rows ?? []).filter((r) => r.note === null).map((r) => r.root));
  return [...selected].filter((root) => shown.has(root));
}

function chip(kind: string, text: string, clear: () => void): HTMLElement {
  const x = h('button', { 'aria-label': `clear: ${text}`, title: 'clear' }, h('span', { class: 'codicon codicon-close' }));
  x.addEventListener('click', clear);
  return h('span', { class: 'chip', 'data-chip': kind }, text, x);
}

function renderChips(): void {
  const parts: HTMLElement[] = [];
  if (filterText.trim() !== '') {
    const f = parseRunsFilter(filterText);
    const ignored = f.unknown.length > 0 ? ` (not understood: ${f.unknown.join(' ')})` : '';
    parts.push(
      chip('filter', `filter: ${filterText.trim()}${ignored}`, () => {
        filterText = '';
        filterField.value = '';
        render();
        save();
      }),
    );
  }
  if (sort)
    parts.push(
      chip('sort', `sorted by ${head(sort.column)[0]}, ${sort.descending ? 'descending' : 'ascending'}`, () => {
        sort = null;
        render();
        save();
      }),
    );
  chips.replaceChildren(...parts);
}

function renderBaseline(v: RunsTableView): void {
  const choices = v.rows.filter((r) => r.note === null);
  const current = v.baseline?.root ?? '';
  // the select reads its options when the slot changes, after this returns: the chosen one says so itself
  const opts = [
    h('vscode-option', { value: '', selected: current === '' }, 'no baseline'),
    ...choices.map((r) => h('vscode-option', { value: r.root, description: r.root, selected: r.root === current }, r.name)),
  ];
  baselineSelect.replaceChildren(...opts);
  baselineSelect.value = current;
}

function header(): HTMLElement {
  const tick = h('th', { class: 'tick', scope: 'col' }, h('span', { class: 'sr-only' }, 'selected'));
  const cells = RUNS_COLUMNS.map((c) => {
    const [label, title] = head(c);
    const on = sort?.column === c;
    const b = h('button', { class: 'sort', 'data-sort': c, title }, label, on ? (sort!.descending ? ' ▼' : ' ▲') : '');
    b.addEventListener('click', () => {
      // a number's first click puts the largest first; the name's, A to Z
      sort = on ? { column: c, descending: !sort!.descending } : { column: c, descending: numeric(c) };
      render();
      save();
    });
    return h(
      'th',
      { scope: 'col', class: numeric(c) ? 'num' : '', 'aria-sort': on ? (sort!.descending ? 'descending' : 'ascending') : undefined },
      b,
    );
  });
  return h('thead', {}, h('tr', {}, tick, ...cells));
}

function checkbox(r: RunsRowView): HTMLElement {
  const box = h('vscode-checkbox', {
    'aria-label': `select ${r.name}`,
    'data-select': r.root,
    checked: selected.has(r.root),
  }) as HTMLElement & { checked: boolean };
  box.addEventListener('change', () => {
    if (box.checked) selected.add(r.root);
    else selected.delete(r.root);
    renderButtons();
    save();
  });
  return box;
}

function row(r: RunsRowView): HTMLElement {
  const tr = h('tr', { 'data-root': r.root, class: r.baseline ? 'is-baseline' : '' });
  if (r.note !== null) {
    const read = r.readable ? h('button', { class: 'link', 'data-read': r.root }, 'Read its logs in place') : '';
    if (read) read.addEventListener('click', () => post({ type: 'runsTable/read', root: r.root }));
    tr.append(
      h('td', { class: 'tick' }),
      h(
        'td',
        { class: 'name' },
        h('span', { class: 'nm', title: r.name }, r.name),
        r.source === 'hub' ? h('span', { class: 'codicon codicon-cloud', title: 'on the Hub' }) : '',
      ),
      h('td', { colspan: RUNS_COLUMNS.length - 1, class: 'muted note' }, r.note, ' ', read),
    );
    return tr;
  }
  tr.append(h('td', { class: 'tick' }, checkbox(r)));
  for (const c of RUNS_COLUMNS) {
    const v = r.cells[c];
    const td = h('td', { class: `${numeric(c) ? 'num' : ''}${c === 'run' ? ' name' : ''}`, 'data-col': c });
    if (v) {
      const icon =
        c === 'run' && r.source !== 'local' ? h('span', { class: `codicon codicon-${r.source === 'hub' ? 'cloud' : 'folder'}` }) : '';
      const text = [c === 'run' ? h('span', { class: 'nm' }, v.text) : v.text, icon];
      const el = v.opens
        ? h('button', { class: 'link', 'data-open': c, title: v.title, 'data-value': v.sort ?? '' }, ...text)
        : h('span', { title: v.title, 'data-value': v.sort ?? '' }, ...text);
      if (v.opens) el.addEventListener('click', () => post({ type: 'runsTable/open', root: r.root, column: c }));
      if (v.tone) el.classList.add(`tone-${v.tone}`);
      td.append(el);
    }
    tr.append(td);
  }
  return tr;
}

function renderButtons(): void {
  const n = ticked().length;
  compareButton.toggleAttribute('disabled', n !== 2);
  overlayButton.toggleAttribute('disabled', n < 2);
  compareButton.title = n === 2 ? 'compare the first ticked run against the second' : 'tick two runs to compare them';
  overlayButton.title = n >= 2 ? "overlay the ticked runs on the first one's dashboard" : 'tick two or more runs to overlay them';
}

function render(): void {
  renderChips();
  renderButtons();
  const v = view;
  if (!v) return;
  const f = parseRunsFilter(filterText);
  const shown = v.rows.filter((r) => filterText.trim() === '' || passes(f, r));
  const rows = sort ? sortRows(shown, sort.column, sort.descending) : shown;
  const table = h('table', { class: 'grid runs', id: 'runs-table' }, header(), h('tbody', {}, ...rows.map(row)));
  const left = tableBox.scrollLeft;
  tableBox.replaceChildren(table);
  tableBox.scrollLeft = left;
  updateCue();
  const reading = v.reading > 0 ? `; ${v.reading} still being read` : '';
  const base = v.baseline ? `; verdicts against ${v.baseline.name}` : '';
  status.textContent = `${plural(v.rows.length, 'run')}, ${shown.length} shown${reading}${base}`;
}

onMessage((m) => {
  if (m.type === 'error') {
    status.textContent = m.message;
    return;
  }
  if (m.type !== 'runsTable/view') return;
  view = m.view;
  renderBaseline(m.view);
  warnings.replaceChildren(...m.view.warnings.map((w) => h('li', {}, w)));
  warnings.hidden = m.view.warnings.length === 0;
  render();
});

const first: RunsTableState = { ...state, sort: sort ?? undefined, filter: filterText, selected: [...selected] };
saveState(first);
post({ type: 'ready' });
