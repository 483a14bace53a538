/** A metric chart's datasets (each run's raw and smoothed lines, the target), its colours and its axis helpers. */
import type { ChartDataset } from 'chart.js';
import { themeColor } from '../common';
import { smooth } from '../../src/shared/smoothing';
import { metricQuantity } from '../../src/shared/format';
import { flatRange, tickLabel } from '../../src/shared/ticks';
import type { SeriesView } from '../../src/shared/protocol/metrics';
import { runColor, runDash } from './palette';
import type { Line } from './overlay';
import { linesOf, overlaid } from './overlay';
import { twinDatasets } from './verdict';
import { levelDataset, lineDataset } from '../lineDataset';

export interface Colors {
  line: string;
  raw: string;
  target: string;
  off: string;
  grid: string;
  text: string;
}
let themeColors: Colors | undefined;

/** Read the colours again (the theme changed). */
export function resetColors(): void {
  themeColors = undefined;
}

/** The chart colours of the current theme, read once per theme (each read is a style lookup). */
export function colors(): Colors {
  if (!themeColors) {
    // the run's own line: slot A's colour, as everywhere (src/shared/runColours.ts)
    const blue = runColor(0);
    themeColors = {
      line: blue,
      raw: blue + '40',
      target: themeColor('--vscode-charts-yellow', '#cca700'),
      off: themeColor('--vscode-errorForeground', '') || themeColor('--vscode-charts-red', '#f14c4c'),
      grid: themeColor('--vscode-panel-border', '#80808040'),
      text: themeColor('--vscode-descriptionForeground', '#999'),
    };
  }
  return themeColors;
}

export type Points = ChartDataset<'line', { x: number; y: number | null }[]>;

/**
 * An eval-success line (section 8): each checkpoint a dot, never smoothed (a handful of
 * points), and its 95% interval as two thin lines of the run's colour, after every run's
 * line (dataset 0 stays the primary run's line, which the keyboard walks).
 */
function evalDatasets(l: Line, single: boolean): { line: Points; interval: Points[] } {
  const color = single ? colors().line : runColor(l.color);
  const e = l.evalPoints!;
  const points = (ys: readonly (number | null)[]): { x: number; y: number | null }[] => l.x.map((x, i) => ({ x, y: ys[i] ?? null }));
  const line = lineDataset(single ? 'eval success' : l.name, points(l.y), color, {
    borderWidth: 1.6,
    borderDash: single ? [] : runDash(l.color),
    pointRadius: 3.5,
    pointHoverRadius: 5,
    pointHitRadius: 8,
    spanGaps: false,
  });
  const bound = (ys: (number | null)[], which: string): Points =>
    lineDataset(`${single ? '' : `${l.name} `}95% CI ${which}`, points(ys), color + '80', {
      borderWidth: 1,
      borderDash: [2, 2],
      pointHitRadius: 0,
      spanGaps: false,
    });
  return { line, interval: [bound(e.hi, 'high'), bound(e.lo, 'low')] };
}

/** The raw line of a run (and its smoothed line): one run's look is its colour, the target misses in the error colour. */
function lineDatasets(l: Line, single: boolean, smoothing: number): Points[] {
  const c = colors();
  const color = single ? c.line : runColor(l.color);
  const raw = l.x.map((x, i) => ({ x, y: l.y[i] ?? null }));
  const off = new Set(l.off ?? []);
  const dash = single ? [] : runDash(l.color);
  const out: Points[] = [
    lineDataset(single ? 'raw' : smoothing > 0 ? `${l.name} (raw)` : l.name, raw, smoothing > 0 ? color + '40' : color, {
      borderWidth: 1,
      borderDash: smoothing > 0 ? [] : dash,
      // a value that misses the card's target: a dot and its segment in the error colour
      pointRadius: off.size ? raw.map((_p, i) => (off.has(i) ? 2 : 0)) : 0,
      pointBackgroundColor: c.off,
      pointBorderColor: c.off,
      pointHoverRadius: 4,
      pointHoverBackgroundColor: color,
      spanGaps: false,
      ...(off.size ? { segment: { borderColor: (ctx: { p1DataIndex: number }) => (off.has(ctx.p1DataIndex) ? c.off : undefined) } } : {}),
    }),
  ];
  if (smoothing > 0) {
    const sm = smooth(
      l.y.map((v) => (v === null ? NaN : v)),
      smoothing,
    );
    const data = l.x.map((x, i) => ({ x, y: Number.isFinite(sm[i]!) ? sm[i]! : null }));
    out.push(
      lineDataset(single ? 'smoothed' : l.name, data, color, { borderWidth: 1.6, borderDash: dash, pointHitRadius: 0, spanGaps: false }),
    );
  }
  return out;
}

/** What the charts draw from besides the series: the smoothing, this run's root, the x range every chart shares. */
export interface DrawContext {
  smoothing: number;
  root: string;
  xRange: { min: number; max: number } | null;
}

/** A chart's datasets: each run's lines, and the target's lines across the shared x range. */
export function datasets(s: SeriesView, ctx: DrawContext): Points[] {
  const c = colors();
  const single = !overlaid();
  const xRange = ctx.xRange;
  const intervals: Points[] = [];
  const out = linesOf(s, ctx.root).flatMap((l) => {
    if (!l.evalPoints) return lineDatasets(l, single, ctx.smoothing);
    const e = evalDatasets(l, single);
    intervals.push(...e.interval);
    return [e.line];
  });
  out.push(...intervals);
  if (single && out.length > 0) out.push(...twinDatasets(s, themeColor('--vscode-charts-purple', '#b180d7'), c.off));
  if (s.target && xRange && out.length > 0) {
    const t = s.target;
    // an 'abs' target bounds the value on both sides of zero
    for (const y of t.kind === 'abs' ? [t.value, -t.value] : [t.value])
      out.push(levelDataset(`target ${t.label}`, xRange, y, c.target, { borderDash: [4, 3], pointHitRadius: 0 }));
  }
  return out;
}

/** Chart.js's tick callback: labels from the whole axis (see src/shared/ticks.ts). */
export function tickCallback(value: number | string, _i: number, ticks: { value: number }[]): string {
  return tickLabel(
    Number(value),
    ticks.map((t) => t.value),
  );
}

/** Fixed y bounds for a series that is constant up to float noise (see flatRange); a rate or a count never below 0. */
export function yBounds(ds: ChartDataset<'line', { x: number; y: number | null }[]>[], name: string): { min?: number; max?: number } {
  const floor = ['rate', 'count', 'tokens'].includes(metricQuantity(name)) ? 0 : undefined;
  return (
    flatRange(
      ds.flatMap((d) => d.data.map((p) => p.y)),
      floor,
    ) ?? {}
  );
}
