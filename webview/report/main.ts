/** The run report: the card's figures with targets and marks, the gate per iteration, the schema check. */
import { Chart, BarController, BarElement, LinearScale, CategoryScale, Tooltip } from 'chart.js';
import { afterPaint } from '../afterPaint';
import { h, initialState, onThemeChange, saveState, themeColor, channel } from '../common';
import { formatCount, formatQuantity, formatSigned, metricQuantity, plural } from '../../src/shared/format';
import { visibleText } from '../../src/shared/visibleText';
import { logNodes } from '../trajectories/text';
import { signFlipSection, twinSection } from './verdict';
import { checkpointVerdictSection } from './checkpointVerdict';
import { watchScrollCue } from '../scrollCueWatch';
import { behaviourSection } from './behaviour';
import { CreditSection } from './credit';
import type {
  GateGroupView,
  ReportGateGroupsMessage,
  ReportHostMessage,
  ReportView,
  ReportWebviewMessage,
} from '../../src/shared/protocol/report';
import { GATE_GROUP_PAGE } from '../../src/shared/protocol/report';

const { post, onMessage } = channel<ReportWebviewMessage, ReportHostMessage>();

Chart.register(BarController, BarElement, LinearScale, CategoryScale, Tooltip);
const state = initialState();
saveState(state);
const app = document.getElementById('app')!;
let chart: Chart | undefined;
let last: ReportView | undefined;
const credit = new CreditSection();

const MARK: Record<string, string> = { pass: '✓ pass', near: '≈ near', fail: '✗ fail', info: '', none: 'no data' };

/** A report row's label as a link to the turns behind it. */
function figureLink(key: string, label: string): HTMLElement {
  const b = h('button', { class: 'link', title: 'Open the trajectories behind this figure' }, label);
  b.addEventListener('click', () => post({ type: 'report/openFigure', key }));
  return b;
}

function sideLink(g: GateGroupView, side: 'succeeded' | 'failed'): HTMLElement {
  const n = side === 'succeeded' ? g.succeeded : g.failed;
  const b = h('button', { class: 'link', title: `Open the ${side} labeled trajectories of this group` }, `${n} ${side}`);
  b.addEventListener('click', () => post({ type: 'report/openGateSide', iteration: g.iteration, group: g.group, side }));
  return b;
}

function gateRow(g: GateGroupView): HTMLElement {
  return h(
    'tr',
    {},
    h('td', { class: 'num' }, g.iteration),
    h('td', { class: 'num' }, g.group),
    h('td', { class: 'num' }, formatSigned(g.succeededMeanC, 4)),
    h('td', { class: 'num' }, formatSigned(g.failedMeanC, 4)),
    h('td', { class: `num ${g.diff > 0 ? 'mark-pass' : g.diff < 0 ? 'mark-fail' : ''}` }, formatSigned(g.diff, 4)),
    h('td', {}, sideLink(g, 'succeeded'), ' · ', sideLink(g, 'failed')),
  );
}

/**
 * The gate groups the page holds: the report's first page, then the pages the host answered as
 * the table scrolled to its end (`seq` names the report they belong to; an answer to another is dropped).
 */
const gate = {
  rows: [] as GateGroupView[],
  listed: 0,
  seq: 0,
  pending: false,
  /** the host had no more */
  end: false,
  table: undefined as HTMLElement | undefined,
  status: undefined as HTMLElement | undefined,
};

function gateStatus(): string {
  if (gate.rows.length >= gate.listed || gate.end) return '';
  if (gate.pending) return 'Loading more groups…';
  return `${formatCount(gate.rows.length)} of ${formatCount(gate.listed)} listed: scroll for more`;
}

function moreGateGroups(): void {
  if (gate.pending || gate.end || gate.rows.length >= gate.listed) return;
  gate.pending = true;
  post({ type: 'report/queryGateGroups', seq: gate.seq, offset: gate.rows.length, limit: GATE_GROUP_PAGE });
  if (gate.status) gate.status.textContent = gateStatus();
}

function receiveGateGroups(m: ReportGateGroupsMessage): void {
  if (m.seq !== gate.seq || m.offset !== gate.rows.length) return;
  gate.pending = false;
  if (m.rows.length === 0) gate.end = true;
  gate.rows.push(...m.rows);
  gate.table?.append(...m.rows.map(gateRow));
  if (gate.status) gate.status.textContent = gateStatus();
}

/** The gate group by group: both sides' mean c, the difference, and links to each side; its end asks for the next page. */
function gateTable(): HTMLElement {
  const t = h(
    'table',
    { class: 'grid', id: 'gate-groups' },
    h(
      'tr',
      {},
      h('th', { class: 'num' }, 'iteration'),
      h('th', { class: 'num' }, 'group'),
      h('th', { class: 'num' }, 'succeeded mean c'),
      h('th', { class: 'num' }, 'failed mean c'),
      h('th', { class: 'num' }, 'diff'),
      h('th', {}, 'open'),
    ),
    ...gate.rows.map(gateRow),
  );
  const status = h('p', { class: 'muted', id: 'gate-groups-more', role: 'status' }, gateStatus());
  const box = h('div', { class: 'gate-groups-box' }, t, status);
  box.addEventListener('scroll', () => {
    if (box.scrollTop + box.clientHeight >= box.scrollHeight - 80) moreGateGroups();
  });
  gate.table = t;
  gate.status = status;
  return box;
}

/** The figures of section 4 with their targets, marks and rules; a figure opens its trajectories. */
function figureTable(r: ReportView): HTMLElement {
  const lines = h(
    'table',
    { class: 'grid', id: 'report-table' },
    h(
      'tr',
      {},
      h('th', {}, 'figure'),
      h('th', { class: 'num' }, 'this run'),
      h('th', {}, 'target'),
      h('th', {}, 'card'),
      h('th', {}, 'mark'),
      h('th', {}, 'rule behind the mark'),
    ),
  );
  for (const l of r.lines)
    lines.append(
      h(
        'tr',
        { 'data-key': l.key },
        h('td', {}, figureLink(l.key, visibleText(l.label))),
        h('td', { class: 'num', 'data-value': l.value === null ? 'null' : String(l.value) }, formatQuantity(l.quantity, l.value)),
        h('td', {}, ...logNodes(l.target)),
        h('td', { class: 'muted' }, ...logNodes(l.card)),
        h('td', { class: `mark-${l.mark}` }, MARK[l.mark] ?? ''),
        h('td', { class: 'muted wrap' }, l.tolerance),
      ),
    );
  return lines;
}

/** The training curve: each metric's first and last ten iterations. */
function curveTable(r: ReportView): HTMLElement {
  const curve = h(
    'table',
    { class: 'grid', id: 'curve-table' },
    h('tr', {}, h('th', {}, 'figure'), h('th', { class: 'num' }, 'first 10'), h('th', { class: 'num' }, 'last 10'), h('th', {}, 'from')),
  );
  for (const c of r.curve)
    curve.append(
      h(
        'tr',
        {},
        h('td', {}, ...logNodes(c.name)),
        h('td', { class: 'num' }, formatQuantity(metricQuantity(c.name), c.first, 3)),
        h('td', { class: 'num' }, formatQuantity(metricQuantity(c.name), c.last, 3)),
        h('td', { class: 'muted' }, ...logNodes(c.source)),
      ),
    );
  return curve;
}

/** Which field of the spec was found under which key, and how often it is missing. */
function schemaTable(r: ReportView): HTMLElement {
  const schema = h(
    'table',
    { class: 'grid', id: 'schema-table' },
    h('tr', {}, h('th', {}, 'field'), h('th', {}, 'found as'), h('th', { class: 'num' }, 'missing from')),
  );
  for (const s of r.schema)
    schema.append(
      h(
        'tr',
        {},
        h('td', {}, ...logNodes(s.field), s.required ? ' *' : ''),
        h('td', { class: s.foundAs ? '' : s.required ? 'mark-fail' : 'muted' }, ...logNodes(s.foundAs || 'not found')),
        h('td', { class: 'num' }, s.foundAs ? `${formatCount(s.missing)} ${s.level === 'turn' ? 'turns' : 'records'}` : ''),
      ),
    );
  return schema;
}

/** The trajectories whose logged c or A_t disagree with the recomputation, each a link. */
function mismatchList(r: ReportView): HTMLElement {
  const mism = h('ul', { id: 'mismatches' });
  for (const m of r.mismatches) {
    const a = h('button', { class: 'link' }, `iteration ${m.iteration}, group ${m.group}, rollout ${m.rollout}`);
    a.addEventListener('click', () => post({ type: 'openTrajectory', iteration: m.iteration, group: m.group, rollout: m.rollout }));
    mism.append(
      h(
        'li',
        {},
        a,
        h('span', { class: 'muted' }, `  ${m.c ? `${m.c} c` : ''}${m.c && m.aT ? ', ' : ''}${m.aT ? `${m.aT} A_t` : ''} mismatch(es)`),
      ),
    );
  }
  return mism;
}

/** The lines the reader skipped, with why. */
function skippedList(r: ReportView): HTMLElement {
  const skipped = h('ul', { id: 'skipped' }, ...r.skipped.map((s) => h('li', {}, `line ${s.line}: `, ...logNodes(s.message))));
  return skipped;
}

/** The gate's mean difference per iteration as bars; a bar opens that iteration's gate pairs. */
function gateChart(canvas: HTMLCanvasElement, r: ReportView): Chart {
  const pos = themeColor('--vscode-charts-green', '#89d185');
  const neg = themeColor('--vscode-charts-red', '#f14c4c');
  const text = themeColor('--vscode-descriptionForeground', '#999');
  const grid = themeColor('--vscode-panel-border', '#80808040');
  const data = r.gatePerIteration.flatMap((g) => (g.meanDiff === null ? [] : [{ ...g, meanDiff: g.meanDiff }]));
  return new Chart(canvas, {
    type: 'bar',
    data: {
      labels: data.map((g) => String(g.iteration)),
      datasets: [{ label: 'mean diff', data: data.map((g) => g.meanDiff), backgroundColor: data.map((g) => (g.meanDiff > 0 ? pos : neg)) }],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: { x: { ticks: { color: text }, grid: { color: grid } }, y: { ticks: { color: text }, grid: { color: grid } } },
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (i) => `mean diff ${formatSigned(i.parsed.y, 4)} over ${data[i.dataIndex]?.groups ?? 0} groups` } },
      },
      onClick: (_e, els) => {
        const bar = els[0] && data[els[0].index];
        if (bar) post({ type: 'report/openIteration', iteration: bar.iteration, gate: true });
      },
    },
  });
}

/** Counts renders: a later part of an older one is dropped. */
let renderSeq = 0;

/**
 * The whole page for one report (the chart is drawn anew). The first time, the heading and the
 * figures first and the rest after that part has been painted, so a long run's sections do not
 * hold up its figures; later (a new report as the log grows, a theme) at once, where the reader is.
 */
function render(r: ReportView, progressive: boolean): void {
  chart?.destroy();
  chart = undefined;
  const seq = ++renderSeq;
  const f = r.figures;
  const figures = figureTable(r);
  const figuresCue = h('div', { class: 'scroll-cue muted', 'aria-hidden': 'true', id: 'report-table-cue' });
  app.replaceChildren(
    h('h1', {}, 'Run report: ', ...logNodes(r.runName)),
    h(
      'p',
      { class: 'muted' },
      `${plural(f.trajectories, 'trajectory', 'trajectories')} over ${plural(f.iterations, 'iteration')} · ` +
        `${plural(f.labeledTurns, 'labeled turn')}, ${formatCount(f.creditedTurns)} credited · β ${r.beta}, τ ${r.tau}`,
    ),
    checkpointVerdictSection(r.checkpointVerdict, () => post({ type: 'report/chooseBaseline' })),
    h('p', { class: 'muted' }, 'Click a figure to open the trajectories behind it.'),
    figuresCue,
    figures,
  );
  // a narrow panel scrolls the table sideways inside its own box (webview.css): the cue says so
  watchScrollCue(figures, figuresCue);
  if (!progressive) {
    // a theme change before an earlier first render's rest came: that rest is dropped, so is its busy mark
    app.removeAttribute('aria-busy');
    renderRest(r);
    return;
  }
  app.setAttribute('aria-busy', 'true');
  afterPaint(() => {
    if (seq !== renderSeq) return;
    renderRest(r);
    app.removeAttribute('aria-busy');
  });
}

/** The sections under the figures: the verdict, the gate, the credit, the behaviour, the curve and the checks. */
function renderRest(r: ReportView): void {
  const f = r.figures;
  const canvas = h('canvas', {
    id: 'gate-chart',
    role: 'img',
    'aria-label': 'gate mean difference per iteration; click a bar to open that iteration',
  });
  app.append(
    h(
      'p',
      { class: 'muted' },
      `gate: ${plural(f.gate.groups, 'mixed group')}, ${f.gate.iterationsPositive}/${f.gate.iterations} iterations positive`,
    ),
    ...signFlipSection(r.verdict, r.beta, post),
    ...twinSection(r.verdict, post),
    h('h2', {}, 'Gate per iteration'),
    h('div', { class: 'gate-box' }, canvas),
    h(
      'h2',
      {},
      `Gate groups (${formatCount(r.gateGroupCount)}` +
        `${r.gateGroupCount > r.gateGroupsListed ? `, the first ${formatCount(r.gateGroupsListed)} listed` : ''})`,
    ),
    gate.rows.length ? gateTable() : h('p', { class: 'muted' }, 'no mixed group with a succeeded and a failed labeled trajectory'),
    ...credit.elements(r.credit),
    ...behaviourSection(r.behaviour, (key) => post({ type: 'report/openFigure', key })),
    h('h2', {}, 'Training curve'),
    curveTable(r),
    h('h2', {}, 'Schema check'),
    schemaTable(r),
    r.notFound.length
      ? h(
          'p',
          { class: 'mark-fail' },
          `expected fields not found: ${visibleText(r.notFound.join(', '))} (map them with the setting rlRunBrowser.fieldMapping)`,
        )
      : h('p', { class: 'muted' }, 'every required field was found'),
    r.unknownKeys.length
      ? h(
          'p',
          { class: 'muted', id: 'unknown-keys' },
          'other fields (kept, shown in the detail view): ',
          ...logNodes(r.unknownKeys.join(', ')),
        )
      : '',
    h('h2', {}, `Skipped lines (${formatCount(r.skippedCount)})`),
    r.skippedCount ? skippedList(r) : h('p', { class: 'muted' }, 'none'),
    h('h2', {}, `c and A_t mismatches (${r.mismatches.length}${r.mismatches.length >= 200 ? '+' : ''} trajectories)`),
    r.mismatches.length ? mismatchList(r) : h('p', { class: 'muted' }, 'none'),
    r.warnings.length
      ? h('div', {}, h('h2', {}, 'Warnings'), h('ul', { id: 'warnings' }, ...r.warnings.map((w) => h('li', {}, ...logNodes(w)))))
      : '',
  );
  chart = gateChart(canvas, r);
  credit.draw(r.credit);
}

onMessage((m) => {
  if (m.type === 'report/data') {
    const first = last === undefined;
    last = m.report;
    gate.rows = [...m.report.gateGroups];
    gate.listed = m.report.gateGroupsListed;
    gate.seq++;
    gate.pending = false;
    gate.end = false;
    document.title = `Run report: ${visibleText(m.report.runName)}`;
    render(m.report, first);
  } else if (m.type === 'report/gateGroups') receiveGateGroups(m);
  else if (m.type === 'error') app.replaceChildren(h('p', { class: 'error' }, ...logNodes(m.message)));
});
onThemeChange(() => {
  if (last) render(last, false);
});
post({ type: 'ready' });
