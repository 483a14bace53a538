/** The metrics dashboard: a chart per metric, grouped by prefix, searchable, pinnable, smoothed. */
import { Chart, LineController, LineElement, PointElement, LinearScale, Tooltip } from 'chart.js';
import { scrollWithin } from '../scroll';
import { h, initialState, useControls, onThemeChange, saveState, channel, lineOptions } from '../common';
import { formatMetric, formatRate } from '../../src/shared/format';
import { pointKeys } from './keys';
import { visibleText } from '../../src/shared/visibleText';
import { moreMetricsLine } from '../../src/shared/moreMetrics';
import type { MetricsHostMessage, MetricsPanelState, MetricsWebviewMessage, SeriesView } from '../../src/shared/protocol/metrics';
import { parseFocusMetric } from '../../src/shared/protocol/metrics';
import { legend } from './legend';
import { gapText, sectionTitle, summaryLine, targetTally } from './summary';
import { TWIN_MARKS, disagreementText, offTarget } from './verdict';
import { titleTag } from './cardNotes';
import type { DrawContext } from './datasets';
import { colors, datasets, resetColors, tickCallback, yBounds } from './datasets';
import { closeRunMenu, showRunMenu } from './runMenu';
import { runColor } from './palette';
import type { Line } from './overlay';
import { EVAL_GROUP, EVAL_SECTION_TITLE, describeEvalPoint, evalPointText, evalSummary, isEvalChart } from './evalChart';
import { allRuns, hasValues, hiddenRuns, linesOf, nearestPoint, overlaid, overlayNote, runsKey, setRuns, toggleRun } from './overlay';

const { post, onMessage } = channel<MetricsWebviewMessage, MetricsHostMessage>();

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

/** Chart text in the workbench's font, like the rest of the panel. */
function applyFont(): void {
  const cs = getComputedStyle(document.body);
  Chart.defaults.font.family = cs.fontFamily || 'sans-serif';
  const size = parseFloat(cs.fontSize);
  Chart.defaults.font.size = Number.isFinite(size) && size > 0 ? Math.max(9, size - 2) : 11;
}
applyFont();

/** Charts in a row this wide (the grid's columns are at least 340 px and 10 px apart). */
function columns(width: number): number {
  return Math.max(1, Math.floor((width + 10) / 350));
}
// Ask for the data first, with the charts' width for the host's decimation: the host
// reads and decimates while this page builds itself (its answer is handled after this
// script, as every message is). The body's padding is 12 px a side.
{
  const width = Math.max(200, (document.documentElement.clientWidth || window.innerWidth) - 24);
  post({ type: 'metrics/width', width: Math.max(200, Math.floor(width / columns(width))) });
  post({ type: 'ready' });
}

const state: MetricsPanelState = initialState();
state.pinned ??= [];
state.smoothing ??= 0.6;
let series: SeriesView[] = [];
let xRange: { min: number; max: number } | null = null;
const charts = new Map<string, Chart>();
const app = document.getElementById('app')!;

const search = h('vscode-textfield' as 'input', {
  placeholder: 'Filter metrics by name',
  'aria-label': 'Filter metrics by name',
  id: 'metric-search',
});
search.value = state.search ?? '';
const slider = h('input', { type: 'range', min: 0, max: 0.99, step: 0.01, 'aria-label': 'Smoothing', id: 'smoothing' });
slider.value = String(state.smoothing);
const sliderLabel = h('span', { class: 'muted' }, formatRate(state.smoothing, 2));
const info = h('span', { class: 'muted', id: 'metrics-info' });
const hint = h(
  'span',
  { class: 'muted hint', id: 'chart-hint' },
  'Click a point (or focus a chart, move with ← →, press Enter) to open the trajectories behind it',
);
const body = h('div', { id: 'charts-root' });
/** what the host's cap left out: "N more metrics not charted ..." (hidden when nothing was) */
const moreLine = h('p', { class: 'muted', id: 'more-metrics' });
const addRun = h('button', { class: 'add-run', id: 'add-run', title: 'Overlay another local run on these charts' }, 'Add run…');
addRun.addEventListener('click', () => post({ type: 'metrics/addRun' }));
const legendBox = h('div', { class: 'legend-box' });
app.append(
  h('div', { class: 'toolbar' }, search, h('label', {}, 'Smoothing', slider, sliderLabel), addRun, info, hint, legendBox),
  moreLine,
  body,
);
setRuns(undefined, state.hiddenRuns ?? []);

function showLegend(): void {
  legendBox.replaceChildren(
    legend(allRuns(), hiddenRuns(), {
      toggle: (root) => {
        toggleRun(root);
        state.hiddenRuns = hiddenRuns();
        saveState(state);
        showLegend();
        legendBox.querySelector<HTMLElement>(`.run-toggle[data-run="${CSS.escape(root)}"]`)?.focus();
        for (const s of series) updateChart(s);
      },
      remove: (root) => post({ type: 'metrics/removeRun', run: root }),
    }),
  );
}

search.addEventListener('input', () => {
  state.search = search.value;
  saveState(state);
  render();
});
slider.addEventListener('input', () => {
  state.smoothing = Number(slider.value);
  sliderLabel.textContent = formatRate(state.smoothing, 2);
  saveState(state);
  for (const s of series) updateChart(s);
});

/** What the datasets are drawn from now. */
function drawContext(): DrawContext {
  return { smoothing: state.smoothing ?? 0, root: state.root, xRange };
}

function makeChart(canvas: HTMLCanvasElement, s: SeriesView): Chart {
  const c = colors();
  const ds = datasets(s, drawContext());
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: ds },
    options: {
      ...lineOptions({
        text: c.text,
        grid: c.grid,
        // the axis ends at the last iteration, not at the next round tick
        ...(xRange ? { x: { min: xRange.min, max: xRange.max } } : {}),
        y: yBounds(ds, s.name),
        xTicks: { maxTicksLimit: 6, callback: tickCallback, includeBounds: true },
        yTicks: { maxTicksLimit: 5, callback: tickCallback },
        // the swatch of a line is its run's colour (not the target-miss colour of its points)
        labelColor: (item) => {
          const c = typeof item.dataset.borderColor === 'string' ? item.dataset.borderColor : colors().line;
          return { borderColor: c, backgroundColor: c };
        },
        label: (item) =>
          item.dataset.label === TWIN_MARKS
            ? (disagreementText(s, item.parsed.x ?? NaN) ?? '')
            : `${item.dataset.label ?? ''}: ${pointValue(s, item.datasetIndex, item.dataIndex, item.parsed.y ?? null)}`,
      }),
      normalized: true,
      onClick: (e, elements, chart) => {
        const el = elements.find((x) => x.datasetIndex === 0) ?? elements[0];
        const p = el && chart.data.datasets[el.datasetIndex]?.data[el.index];
        if (!p || typeof p !== 'object' || !('x' in p)) return;
        const box = chart.canvas.getBoundingClientRect();
        openAt(current(s), Number(p.x), chart, box.left + (e.x ?? 0), box.top + (e.y ?? 0));
      },
    },
  });
}

/** The latest data of the chart `s` was built for. */
function current(s: SeriesView): SeriesView {
  return series.find((x) => x.name === s.name) ?? s;
}

function postOpen(l: Line, i: number): void {
  const x = l.x[i];
  if (x !== undefined) post({ type: 'metrics/openPoint', metric: l.metric, iteration: Math.round(x), run: l.run });
}

/**
 * A click (or Enter) at iteration `x` of a chart: the trajectories of the run whose point it
 * is; where several runs have a point there (within a few pixels), a menu asks which.
 */
function openAt(s: SeriesView, x: number, ch: Chart, menuX: number, menuY: number): void {
  const scale = ch.scales['x'];
  const px = scale?.getPixelForValue(x) ?? 0;
  const hits = linesOf(s, state.root).flatMap((l) => {
    const i = nearestPoint(l, x);
    return i >= 0 && Math.abs((scale?.getPixelForValue(l.x[i]!) ?? px) - px) <= 8 ? [{ l, i }] : [];
  });
  const [first] = hits;
  if (!first) return;
  if (hits.length === 1) return postOpen(first.l, first.i);
  showRunMenu(
    menuX,
    menuY,
    `Iteration ${Math.round(x)}: open the trajectories of`,
    hits.map(({ l, i }) => ({
      label: `${l.name} · iteration ${l.x[i]}: ${formatMetric(s.name, l.y[i] ?? null)}`,
      color: runColor(l.color),
      pick: () => postOpen(l, i),
    })),
  );
}

/** A tooltip's value: an eval point with its tasks and interval, else the metric's value (and a target miss). */
function pointValue(s: SeriesView, dataset: number, i: number, y: number | null): string {
  const shown = current(s);
  const l = isEvalChart(shown) ? linesOf(shown, state.root)[dataset] : undefined;
  return l ? evalPointText(l, i, true) : `${formatMetric(s.name, y)}${offNote(s, dataset, i)}`;
}

function offNote(s: SeriesView, dataset: number, i: number): string {
  return dataset === 0 && !overlaid() && s.off?.includes(i) ? ` (misses the target ${s.target?.label ?? ''})` : '';
}

/** What the keyboard readout says about point i of the chart's first line. */
function describePoint(s: SeriesView, l: Line, i: number): string {
  if (l.evalPoints) return describeEvalPoint(l, i);
  const x = l.x[i];
  const who = l.name ? ` (${l.name})` : '';
  const off = l.off?.includes(i) ? ` (misses the target ${s.target?.label ?? ''})` : '';
  const value = formatMetric(s.name, l.y[i] ?? null);
  return `${visibleText(s.name)}${who}, iteration ${x ?? '?'}: ${value}${off}. Enter opens its trajectories.`;
}

function updateChart(s: SeriesView): void {
  const ch = charts.get(s.name);
  if (!ch) return;
  const ds = datasets(s, drawContext());
  const b = yBounds(ds, s.name);
  ch.data.datasets = ds;
  const y = ch.options.scales!['y']!;
  y.min = b.min;
  y.max = b.max;
  const x = ch.options.scales!['x']!;
  x.min = xRange?.min;
  x.max = xRange?.max;
  ch.update('none');
  const card = body.querySelector<HTMLElement>(`.chart-card[data-metric="${CSS.escape(s.name)}"]`);
  if (card) card.dataset['lines'] = String(linesOf(s, state.root).length);
}

/** A card's text (summary, gap note) after new data, without rebuilding its chart. */
function updateCard(s: SeriesView): void {
  const el = body.querySelector(`.chart-card[data-metric="${CSS.escape(s.name)}"]`);
  el?.querySelector('.summary')?.replaceWith(isEvalChart(s) && !overlaid() ? evalSummary(s) : summaryLine(s, state.root));
  const note = overlayNote(s);
  const old = el?.querySelector('.overlay-note');
  if (old) old.replaceWith(note || '');
  else if (note) el?.querySelector('.summary')?.after(note);
  el?.classList.toggle('off-target', offTarget(s));
  const gap = el?.querySelector('.gap-note');
  const text = gapText(s);
  if (gap) {
    gap.textContent = text;
    gap.setAttribute('title', text);
  } else if (text) el?.querySelector('.canvas-box')?.append(h('div', { class: 'gap-note', title: text }, text));
}

// Charts are built when they come into view, a few per frame so that scrolling and typing
// stay responsive: 45 metrics x 20,000 points stay cheap. The first row is drawn at once.
function draw(card: HTMLElement): void {
  const name = card.dataset['metric']!;
  const s = series.find((x) => x.name === name);
  if (s && !charts.has(name) && card.isConnected && hasValues(s)) {
    const ch = makeChart(card.querySelector('canvas')!, s);
    charts.set(name, ch);
    card.dataset['xMax'] = String(ch.scales['x']?.max ?? '');
    card.dataset['drawn'] = 'true';
    card.dataset['lines'] = String(linesOf(s, state.root).length);
  }
}

const queue: HTMLElement[] = [];
let queued = false;
function drainQueue(): void {
  queued = false;
  const until = performance.now() + 12;
  while (queue.length > 0 && performance.now() < until) draw(queue.shift()!);
  if (queue.length > 0) schedule();
}
/** The next batch runs after the next frame is painted, never before it. */
function schedule(): void {
  if (!queued) {
    queued = true;
    requestAnimationFrame(() => setTimeout(drainQueue, 0));
  }
}

const seen = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      queue.push(e.target as HTMLElement);
      seen.unobserve(e.target);
    }
    schedule();
  },
  { rootMargin: '300px' },
);

function card(s: SeriesView): HTMLElement {
  const pinned = state.pinned!.includes(s.name);
  const pin = h('button', {
    class: `pin codicon codicon-${pinned ? 'pinned' : 'pin'}${pinned ? ' on' : ''}`,
    title: pinned ? 'Unpin' : 'Pin to the top',
    'aria-label': `${pinned ? 'Unpin' : 'Pin'} ${visibleText(s.name)}`,
    'aria-pressed': String(pinned),
  });
  const link = h('button', {
    class: 'pin copy-link codicon codicon-link',
    title: 'Copy Link',
    'aria-label': `Copy a link to ${visibleText(s.name)}`,
  });
  link.addEventListener('click', () => {
    const own = s.absent ? s.lines?.[0] : undefined;
    post({ type: 'metrics/copyLink', metric: own ? own.metric : s.name, run: own ? own.run : state.root });
  });
  pin.addEventListener('click', () => {
    state.pinned = pinned ? state.pinned!.filter((n) => n !== s.name) : [...state.pinned!, s.name];
    saveState(state);
    post({ type: 'metrics/pin', pinned: state.pinned });
    render();
  });
  const does = isEvalChart(s) ? 'to offer its checkpoint’s download' : 'to open its trajectories';
  const canvas = h('canvas', {
    role: 'img',
    'aria-label': `${visibleText(s.name)} over iterations; click a point, or press the arrow keys and Enter, ${does}`,
    title: `Click a point ${does}`,
  });
  const readout = h('span', { class: 'readout', 'aria-live': 'polite' });
  pointKeys(
    canvas,
    readout,
    () => charts.get(s.name),
    () => {
      const cur = series.find((x) => x.name === s.name);
      const l = cur && linesOf(cur, state.root)[0];
      if (!cur || !l) return undefined;
      return {
        x: l.x,
        y: l.y,
        describe: (i) => describePoint(cur, l, i),
        open: (i) => {
          const ch = charts.get(cur.name);
          const box = canvas.getBoundingClientRect();
          if (ch) openAt(cur, l.x[i] ?? NaN, ch, box.left + 40, box.top + 20);
        },
      };
    },
  );
  const gapNote = gapText(s);
  const el = h(
    'div',
    { class: `chart-card${offTarget(s) ? ' off-target' : ''}`, 'data-metric': s.name },
    // the Evaluation chart is computed from the eval log, not a metric a link can name
    h(
      'header',
      {},
      h('span', { class: 'title', text: visibleText(s.name) }),
      titleTag(s) ? h('span', { class: 'badge source-tag', 'data-source': s.recomputed ? 'recomputed' : 'none' }, titleTag(s)) : '',
      h('span', { class: 'card-actions' }, isEvalChart(s) ? '' : link, pin),
    ),
    isEvalChart(s) && !overlaid() ? evalSummary(s) : summaryLine(s, state.root),
    overlayNote(s),
    h(
      'div',
      { class: 'canvas-box' },
      canvas,
      gapNote ? h('div', { class: `gap-note${hasValues(s) ? '' : ' empty'}`, title: gapNote }, gapNote) : '',
    ),
    readout,
  );
  return el;
}

/** "12 of 45 values are missing or not finite", "no values", or '' for a whole series. */
function render(): void {
  closeRunMenu();
  seen.disconnect();
  queue.length = 0;
  for (const c of charts.values()) c.destroy();
  charts.clear();
  body.replaceChildren();
  const q = (state.search ?? '').toLowerCase();
  const shown = series.filter((s) => s.name.toLowerCase().includes(q));
  info.textContent = `${shown.length} of ${series.length} metrics`;
  const pinned = shown.filter((s) => state.pinned!.includes(s.name));
  const targeted = shown.filter((s) => s.target && !state.pinned!.includes(s.name));
  const groups = new Map<string, SeriesView[]>();
  if (targeted.length) groups.set('targets', targeted);
  if (pinned.length) groups.set('pinned', pinned);
  for (const s of shown)
    if (!state.pinned!.includes(s.name) && !s.target) {
      const g = groups.get(s.group);
      if (g) g.push(s);
      else groups.set(s.group, [s]);
    }
  for (const [g, list] of groups) {
    const grid = h('div', { class: 'charts' });
    for (const s of list) {
      const c = card(s);
      grid.append(c);
      seen.observe(c);
    }
    body.append(
      h(
        'section',
        { class: 'section', 'aria-label': g === 'targets' ? 'Card targets' : g, ...(g === 'targets' ? { id: 'card-targets' } : {}) },
        h(
          'h2',
          {},
          g === EVAL_GROUP ? EVAL_SECTION_TITLE : sectionTitle(g),
          ' ',
          h('span', { class: 'badge' }, list.length),
          g === 'targets' ? targetTally(list) : '',
        ),
        grid,
      ),
    );
  }
  // the first row at once (what the first paint shows); the rest as it comes into view
  const first = body.querySelector('.charts');
  if (first)
    for (const c of Array.from(first.children).slice(0, columns(body.clientWidth || window.innerWidth))) {
      draw(c as HTMLElement);
      seen.unobserve(c);
    }
  if (shown.length === 0)
    body.append(h('p', { class: 'muted' }, series.length ? 'No metric matches the filter.' : 'No numeric metric in ws_metrics.jsonl yet.'));
}

/**
 * A link named this metric: its chart scrolls into view (the search cleared if it hid it)
 * and is outlined for two seconds; meanwhile the charts drawn as they come into view grow
 * the page, so each growth scrolls it back.
 */
function focusMetric(metric: string): void {
  const find = (): HTMLElement | null => body.querySelector<HTMLElement>(`.chart-card[data-metric="${CSS.escape(metric)}"]`);
  if (!find() && series.some((s) => s.name === metric)) {
    state.search = '';
    search.value = '';
    saveState(state);
    render();
  }
  const el = find();
  if (!el) return;
  const reveal = (): void => scrollWithin(el, 'center');
  const growing = new ResizeObserver(reveal);
  growing.observe(body);
  reveal();
  el.dataset['focused'] = 'true';
  el.style.outline = '2px solid var(--vscode-focusBorder)';
  setTimeout(() => {
    growing.disconnect();
    delete el.dataset['focused'];
    el.style.outline = '';
  }, 2000);
}

onMessage((m) => {
  const focus = parseFocusMetric(m);
  if (focus) return focusMetric(focus.metric);
  if (m.type === 'metrics/data') {
    const samePins = JSON.stringify(m.pinned) === JSON.stringify(state.pinned);
    const before = runsKey();
    setRuns(m.runs, state.hiddenRuns ?? []);
    const sameRuns = before === runsKey();
    const sameNames = samePins && sameRuns && m.series.length === series.length && m.series.every((s, i) => s.name === series[i]!.name);
    series = m.series;
    xRange = m.xRange;
    moreLine.textContent = moreMetricsLine(m.more);
    moreLine.hidden = m.more <= 0;
    state.pinned = m.pinned;
    if (m.overlay) {
      state.overlay = m.overlay;
      state.overlayAt = m.overlayAt ?? 0;
    }
    state.hiddenRuns = hiddenRuns();
    saveState(state);
    if (!sameRuns) showLegend();
    document.title = `Metrics: ${m.runName}`;
    if (sameNames && charts.size > 0) {
      for (const s of series) {
        updateChart(s);
        updateCard(s);
      }
      info.textContent = `${series.length} metrics · ${m.iterations} iterations`;
    } else render();
    body.dataset['iterations'] = String(m.iterations);
  } else if (m.type === 'error') {
    body.replaceChildren(h('p', { class: 'error' }, m.message));
  }
});
onThemeChange(() => {
  resetColors();
  applyFont();
  render();
});
// a panel restored while hidden lays its canvases out at zero size: redraw when shown
document.addEventListener('visibilitychange', () => {
  if (!document.hidden) for (const c of charts.values()) c.resize();
});
window.addEventListener('resize', () => {
  for (const c of charts.values()) c.resize();
});
/**
 * Chart.js's first chart costs several times a later one (its code compiled, its defaults
 * resolved): one small chart off the screen while the host reads the run, unless its data
 * came first, so that the first row is drawn at a later chart's cost.
 */
function warmUp(): void {
  if (series.length > 0 || charts.size > 0) return;
  const canvas = h('canvas', {});
  const box = h('div', { class: 'warm-up', 'aria-hidden': 'true' }, h('div', { class: 'canvas-box' }, canvas));
  document.body.append(box);
  const s: SeriesView = { name: 'warm-up', group: 'warm-up', x: [0, 1, 2], y: [0, 1, 0.5], total: 3, gaps: 0, last: null, off: [1] };
  makeChart(canvas, s).destroy();
  box.remove();
}
saveState(state);
useControls();
setTimeout(warmUp, 0);
