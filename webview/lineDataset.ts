/**
 * One line of a Chart.js line chart, as every panel draws it (the dashboard's metrics, the
 * report's credit charts, the comparison, the task view): a run's line, an interval's bound,
 * a level such as the zero line or a target. Pure: no DOM, no theme read (the caller passes
 * the colour).
 */
import type { ChartDataset } from 'chart.js';

type Line<P> = ChartDataset<'line', P[]>;

/** A line's look beyond its colour: Chart.js's own dataset options, over the defaults below. */
export type LineLook<P> = Partial<Line<P>>;

/** A thin line without dots whose points still answer the tooltip nearby; `look` sets anything else. */
export function lineDataset<P>(label: string, data: P[], color: string, look: LineLook<P> = {}): Line<P> {
  return { label, data, borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0, pointHitRadius: 6, ...look };
}

/** A horizontal line at `y` across the x range (no points without one), thin and dashed: a zero line, a card's figure, a target. */
export function levelDataset(
  label: string,
  x: { min?: number; max?: number },
  y: number,
  color: string,
  look: LineLook<{ x: number; y: number }> = {},
): Line<{ x: number; y: number }> {
  const data =
    x.min === undefined || x.max === undefined
      ? []
      : [
          { x: x.min, y },
          { x: x.max, y },
        ];
  return lineDataset(label, data, color, { borderDash: [4, 4], borderWidth: 1, ...look });
}

/** A theme colour (#rgb or #rrggbb) at `alpha` (hex; 15% by default) for an interval's band; other forms as they are. */
export function translucent(c: string, alpha = '26'): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(c);
  if (!m) return c;
  const x = m[1]!.length === 3 ? [...m[1]!].map((d) => d + d).join('') : m[1]!;
  return `#${x}${alpha}`;
}
