/** Browser-side helpers shared by the panels: the VS Code API, state, DOM, colours (numbers: src/shared/format). */
import type { ChartOptions, LinearScaleOptions, TooltipItem, TooltipLabelStyle } from 'chart.js';
import { spacedBounds } from '../src/shared/chartTicks';
import type { PanelState } from '../src/shared/protocol';
import { handleBanner } from './banner';

interface VsCodeApi {
  postMessage(m: unknown): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();
/** This panel's own script element: its URL locates controls.js, its nonce lets it run. */
const ownScript = document.currentScript as HTMLScriptElement | null;

let controlsWanted = false;
let controlsLoaded = false;

/**
 * Loads the webview controls (controls.js) after the first frame that shows the host's
 * first answer (or after a second without one): their library costs about 30 ms to
 * start, which the first paint of the data does not wait for. Until then a control is
 * an undefined element styled as an empty field (webview.css).
 */
export function useControls(): void {
  controlsWanted = true;
  setTimeout(loadControls, 1000);
}

function loadControls(): void {
  if (!controlsWanted || controlsLoaded || !ownScript?.src) return;
  controlsLoaded = true;
  const src = new URL('controls.js', ownScript.src).href;
  requestAnimationFrame(() =>
    setTimeout(() => {
      const s = document.createElement('script');
      s.src = src;
      s.nonce = ownScript.nonce ?? '';
      document.body.append(s);
    }, 0),
  );
}

/** The page's end of its panel's protocol (src/shared/protocol/<panel>.ts): what it sends, what it gets. */
export interface Channel<Out, In> {
  post: (m: Out) => void;
  onMessage: (fn: (m: In) => void) => void;
}

export function channel<Out, In>(): Channel<Out, In> {
  return {
    post: (m) => api.postMessage(m),
    onMessage: (fn) =>
      window.addEventListener('message', (e: MessageEvent<In>) => {
        if (handleBanner(e.data, (m) => api.postMessage(m))) return;
        fn(e.data);
        loadControls();
      }),
  };
}

/** The state embedded in the page, or the one saved before a reload. */
export function initialState(): PanelState {
  const saved = api.getState() as PanelState | undefined;
  if (saved && typeof saved.root === 'string') return saved;
  const el = document.getElementById('initial-state');
  return JSON.parse(el?.textContent ?? '{}') as PanelState;
}

export function saveState(s: PanelState | { kind: string; root: string }): void {
  api.setState(s);
}

type Child = Node | string | number | null | undefined | false;

/** Builds an element; strings become text nodes, never markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | ((e: Event) => void) | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children)
    if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'object' ? c : document.createTextNode(String(c)));
  return el;
}

/** A theme colour, read from the page (canvas cannot read CSS variables). */
export function themeColor(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** Calls fn when VS Code switches theme (it changes the body's class). */
export function onThemeChange(fn: () => void): void {
  new MutationObserver(fn).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

/** What a line chart of iterations sets for itself; everything else is shared (lineOptions). */
export interface LineSpec {
  /** the axes' text and grid colours */
  text: string;
  grid: string;
  /** axis bounds: give x its data's first and last iteration so that it does not end at the next round tick */
  x?: { min?: number; max?: number };
  y?: { min?: number; max?: number };
  xTicks?: Partial<LinearScaleOptions['ticks']>;
  yTicks?: Partial<LinearScaleOptions['ticks']>;
  /** the x axis's title ("iteration"), none when not given */
  xTitle?: string;
  legend?: boolean;
  /** one tooltip line of a point (the title is its iteration) */
  label: (item: TooltipItem<'line'>) => string;
  /** the tooltip swatch of a point (Chart.js's own: the dataset's colours) */
  labelColor?: (item: TooltipItem<'line'>) => TooltipLabelStyle;
}

/** Chart.js options of a line chart over iterations (x) as every panel draws one: no animation, pre-parsed points, nearest x. */
export function lineOptions(s: LineSpec): ChartOptions<'line'> {
  return {
    animation: false,
    parsing: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'nearest', intersect: false, axis: 'x' },
    scales: {
      x: {
        type: 'linear',
        ...s.x,
        ticks: { color: s.text, ...s.xTicks },
        grid: { color: s.grid },
        title: { display: s.xTitle !== undefined, text: s.xTitle ?? '', color: s.text },
        afterBuildTicks: (axis) => {
          axis.ticks = spacedBounds(axis.ticks);
        },
      },
      y: { type: 'linear', ...s.y, ticks: { color: s.text, ...s.yTicks }, grid: { color: s.grid } },
    },
    plugins: {
      legend: s.legend ? { display: true, labels: { color: s.text, boxHeight: 2 } } : { display: false },
      tooltip: {
        callbacks: {
          title: (items) => `iteration ${items[0]?.parsed.x ?? ''}`,
          label: s.label,
          ...(s.labelColor ? { labelColor: s.labelColor } : {}),
        },
      },
    },
  };
}

/** The x bounds of points: their first and last x (none without points). */
export function dataRange(xs: Iterable<number>): { min?: number; max?: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const x of xs) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return min <= max ? { min, max } : {};
}
