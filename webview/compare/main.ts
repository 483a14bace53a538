/** The comparison of two runs: section 6 with what each figure means, the success chart, the per-task table, both reports and curves. */
import { afterPaint } from '../afterPaint';
import { channel, h, initialState, onThemeChange, saveState } from '../common';
import { formatCount, formatP, formatQuantity, plural } from '../../src/shared/format';
import type {
  CompareChartsView,
  CompareHostMessage,
  CompareState,
  CompareView,
  CompareWebviewMessage,
  CurveLineView,
  TaskSortView,
} from '../../src/shared/protocol/compare';
import { parseCompareState } from '../../src/shared/protocol/compare';
import { TaskTable } from './table';
import { behaviourSection } from './behaviour';
import { logNodes } from '../trajectories/text';
import { SuccessCharts } from './chart';
import { VerdictSection } from './verdict';
import { CreditGates } from './credit';
import { SLOT_A, SLOT_B, runTextColourVar } from '../../src/shared/runColours';

const { post, onMessage } = channel<CompareWebviewMessage, CompareHostMessage>();

// the shared helpers keep a PanelState; this page keeps its own (checked) shape in the same slot
const state: CompareState = parseCompareState(initialState()) ?? { kind: 'compare', rootA: '', rootB: '', root: '' };
const persist = (): void => saveState(state);
persist();

const app = document.getElementById('app')!;
const header = h('header', { class: 'compare-header' });
const notice = h('div', { class: 'notice', id: 'notice', role: 'status', 'aria-live': 'polite' });
const body = h('div', { id: 'compare-body' }, h('p', { class: 'muted', id: 'loading' }, 'Comparing the two runs…'));
const charts = new SuccessCharts();
const creditGates = new CreditGates();
const verdict = new VerdictSection(
  (task, iteration) => post({ type: 'compare/openEvalTask', task, iteration }),
  (seq, iteration) => post({ type: 'compare/queryVerdictTasks', seq, iteration }),
);
const table = new TaskTable({
  sort: state.sort ?? { key: 'diff', descending: true },
  text: state.text ?? '',
  scrollTop: state.scrollTop ?? 0,
  query: (q) => post({ type: 'compare/queryTasks', ...q }),
  open: (task) => post({ type: 'compare/openTask', task }),
  changed: (sort: TaskSortView, text: string, scrollTop: number) => {
    state.sort = sort;
    state.text = text;
    state.scrollTop = scrollTop;
    persist();
  },
});
app.append(header, notice, body);
let shown = false;

function copyButton(): HTMLElement {
  const b = h('button', { class: 'link', id: 'copy-link', title: 'Copy a link that opens this comparison' }, 'Copy Link');
  b.addEventListener('click', () => post({ type: 'compare/copyLink' }));
  return b;
}

/** Run A's or B's name in its colour (set through the style object: the CSP allows no inline style attribute). */
function side(which: 'a' | 'b', text: string, slot: number): HTMLElement {
  const el = h('span', { class: `side-${which}`, 'data-slot': slot }, ...logNodes(text));
  el.style.color = runTextColourVar(slot);
  return el;
}

function renderHeader(v: CompareView): void {
  const w = v.window;
  const win = w.iterations === 0 ? 'no common iteration' : `iterations ${w.first}–${w.last} (${w.iterations} in common)`;
  header.replaceChildren(
    h('h1', {}, side('a', `A: ${v.a.name}`, SLOT_A), ' vs ', side('b', `B: ${v.b.name}`, SLOT_B)),
    h(
      'div',
      { class: 'muted roots' },
      h('div', { title: v.a.root }, ...logNodes(`A = ${v.a.root}`)),
      h('div', { title: v.b.root }, ...logNodes(`B = ${v.b.root}`)),
    ),
    h('div', { class: 'toolbar' }, h('span', { class: 'badge', id: 'window' }, `Window: ${win}`), copyButton()),
  );
}

/** The host's warnings (a run without labeled turns among them: core says so). */
function warnings(v: CompareView): HTMLElement | null {
  if (v.warnings.length === 0) return null;
  return h(
    'ul',
    { class: 'warnings', id: 'warnings' },
    ...v.warnings.map((w) => h('li', {}, h('i', { class: 'codicon codicon-warning' }), ' ', ...logNodes(w))),
  );
}

function figuresTable(v: CompareView): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id: 'figures', tabindex: 0, 'aria-label': 'the figures of A and B' },
    h(
      'tr',
      {},
      h('th', {}, 'figure'),
      h('th', { class: 'num' }, 'A'),
      h('th', { class: 'num' }, 'B'),
      h('th', { class: 'num' }, 'A − B'),
      h('th', { class: 'num' }, 'p'),
      h('th', {}, 'what it means'),
    ),
  );
  for (const f of v.figures) {
    const diffQ = f.quantity === 'rate' || f.quantity === 'plain' ? 'signed' : f.quantity;
    t.append(
      h(
        'tr',
        { 'data-key': f.key },
        h('td', {}, f.label),
        h('td', { class: 'num', 'data-value': String(f.a) }, formatQuantity(f.quantity, f.a)),
        h('td', { class: 'num', 'data-value': String(f.b) }, formatQuantity(f.quantity, f.b)),
        h('td', { class: 'num', 'data-value': String(f.diff) }, f.diff === null ? '' : formatQuantity(diffQ, f.diff)),
        h(
          'td',
          { class: `num${f.p !== null && f.p < 0.05 ? ' strong' : ''}`, 'data-value': String(f.p) },
          f.p === null ? '' : formatP(f.p),
        ),
        h('td', { class: 'wrap meaning' }, f.meaning),
      ),
    );
  }
  return t;
}

function reportTable(v: CompareView): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id: 'reports', tabindex: 0, 'aria-label': 'the two run reports' },
    h(
      'tr',
      {},
      h('th', {}, 'figure (section 4)'),
      h('th', { class: 'num' }, 'A'),
      h('th', {}, ''),
      h('th', { class: 'num' }, 'B'),
      h('th', {}, ''),
      h('th', {}, 'target'),
      h('th', {}, 'card'),
    ),
  );
  const mark = (m: string): HTMLElement => h('td', { class: `mark-${m === 'no labeled turn' || m === 'no data' ? 'none' : m}` }, m);
  for (const l of v.report)
    t.append(
      h(
        'tr',
        { 'data-key': l.key },
        h('td', {}, l.label),
        h('td', { class: 'num' }, formatQuantity(l.quantity, l.a)),
        mark(l.markA),
        h('td', { class: 'num' }, formatQuantity(l.quantity, l.b)),
        mark(l.markB),
        h('td', {}, l.target),
        h('td', { class: 'muted' }, l.card),
      ),
    );
  return t;
}

function curveTable(title: string, rows: CurveLineView[], id: string): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id },
    h('tr', {}, h('th', {}, title), h('th', { class: 'num' }, 'first 10'), h('th', { class: 'num' }, 'last 10'), h('th', {}, 'from')),
  );
  for (const c of rows)
    t.append(
      h(
        'tr',
        {},
        h('td', {}, ...logNodes(c.name)),
        h('td', { class: 'num' }, formatQuantity('plain', c.first, 3)),
        h('td', { class: 'num' }, formatQuantity('plain', c.last, 3)),
        h('td', { class: 'muted' }, c.source),
      ),
    );
  if (rows.length === 0) t.append(h('tr', {}, h('td', { class: 'muted' }, 'no training curve')));
  return t;
}

function section(title: string, ...children: (HTMLElement | null)[]): HTMLElement {
  return h('section', { class: 'section' }, h('h2', {}, title), ...children);
}

const boxes = {
  warnings: h('div', { id: 'warnings-box' }),
  figures: h('div', { id: 'figures-box' }),
  tasksNote: h('p', { class: 'muted', id: 'tasks-note' }),
  report: h('div', { id: 'report-box' }),
  curves: h('div', { class: 'side-by-side', id: 'curves-box' }),
  behaviour: h('div', { id: 'behaviour-box' }),
};
const sections = [
  boxes.warnings,
  section('The verdict: checkpoint evaluations (docs/format.md section 8)', verdict.el),
  section('Training rollouts (docs/format.md section 6): each run pools a task over whatever iterations it drew it at', boxes.figures),
  section('Training success per iteration', charts.el),
  section("Credit diagnostics: both runs' gates per iteration", creditGates.el),
  section('Per task', boxes.tasksNote, table.el),
  section('Behaviour (docs/format.md section 7)', boxes.behaviour),
  section('Run reports side by side', boxes.report),
  section('Training curve: first 10 against last 10 iterations', boxes.curves),
];

/** The view the page shows now, and the charts' series the host sent last. */
let latest: CompareView | undefined;
let series: CompareChartsView | undefined;
/** the first view's figures are on the screen: from then on the charts are drawn as their series come */
let painted = false;

function drawCharts(): void {
  if (!painted || !latest || !series) return;
  charts.draw(latest, series);
  creditGates.draw(latest, series);
}

/** Each new view fills the same boxes, so the table keeps its scroll and the charts their canvas. */
function render(v: CompareView): void {
  renderHeader(v);
  if (!shown) body.replaceChildren(...sections);
  const w = warnings(v);
  boxes.warnings.replaceChildren(...(w ? [w] : []));
  boxes.figures.replaceChildren(figuresTable(v));
  boxes.behaviour.replaceChildren(...behaviourSection(v.behaviour, (tag) => post({ type: 'compare/openTag', tag })));
  const tc = v.taskCounts;
  boxes.tasksNote.textContent =
    `${plural(tc.both, 'task')} seen by both runs, ${formatCount(tc.onlyA)} by A only, ` +
    `${formatCount(tc.onlyB)} by B only, in the window. ` +
    'Click a task to open it in the task view.';
  const notes = [v.a.unlabeled && `A: ${v.a.unlabeled}.`, v.b.unlabeled && `B: ${v.b.unlabeled}.`].filter(Boolean).join(' ');
  boxes.report.replaceChildren(...(notes ? [h('p', { class: 'muted', id: 'report-note' }, notes)] : []), reportTable(v));
  boxes.curves.replaceChildren(curveTable(`A: ${v.a.name}`, v.curveA, 'curve-a'), curveTable(`B: ${v.b.name}`, v.curveB, 'curve-b'));
  latest = v;
  // the charts' series (at 500,000 trajectories thousands of points) are asked for once the
  // figures are on the screen; the host then sends them after every view
  if (!shown)
    afterPaint(() => {
      painted = true;
      post({ type: 'compare/queryCharts' });
      drawCharts();
    });
  shown = true;
  table.refresh();
}

onMessage((m) => {
  switch (m.type) {
    case 'compare/data':
      render(m.view);
      break;
    case 'compare/charts':
      series = m.charts;
      drawCharts();
      break;
    case 'compare/verdict':
      verdict.render(m.verdict);
      break;
    case 'compare/verdictTasks':
      verdict.receive(m);
      break;
    case 'compare/tasks':
      table.receive(m);
      break;
    case 'compare/notice':
      notice.textContent = m.message;
      break;
    case 'error':
      shown = false;
      body.replaceChildren(h('p', { class: 'error', id: 'compare-error' }, m.message));
      break;
  }
});
onThemeChange(() => {
  charts.redraw();
  verdict.redraw();
  creditGates.redraw();
});
post({ type: 'ready' });
