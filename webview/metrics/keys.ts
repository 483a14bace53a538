/** Keyboard access to a chart's points: arrows move a highlighted point, Enter opens the trajectories behind it. */
import type { Chart } from 'chart.js';

export interface PointKeys {
  /** x and y of the points (null: a gap, skipped) */
  x: readonly number[];
  y: readonly (number | null)[];
  /** the readout for the point at index i */
  describe: (i: number) => string;
  open: (i: number) => void;
}

function step(y: readonly (number | null)[], from: number, dir: number): number {
  for (let i = from + dir; i >= 0 && i < y.length; i += dir) if (y[i] !== null) return i;
  return from;
}

/** Makes the canvas focusable and drives the highlighted point of dataset 0 from the keyboard. */
export function pointKeys(
  canvas: HTMLCanvasElement,
  readout: HTMLElement,
  chart: () => Chart | undefined,
  p: () => PointKeys | undefined,
): void {
  canvas.tabIndex = 0;
  let at = -1;
  const show = (ch: Chart, k: PointKeys, i: number): void => {
    at = i;
    const el = [{ datasetIndex: 0, index: i }];
    ch.setActiveElements(el);
    const meta = ch.getDatasetMeta(0).data[i];
    ch.tooltip?.setActiveElements(el, { x: meta?.x ?? 0, y: meta?.y ?? 0 });
    ch.update('none');
    readout.textContent = k.describe(i);
  };
  canvas.addEventListener('keydown', (e) => {
    const ch = chart();
    const k = p();
    if (!ch || !k || k.x.length === 0) return;
    const first = step(k.y, -1, 1);
    const lastI = step(k.y, k.y.length, -1);
    const start = at < 0 || at >= k.x.length ? lastI : at;
    const jump = Math.max(1, Math.round(k.x.length / 10));
    let next: number | undefined;
    if (e.key === 'ArrowRight') next = at < 0 ? first : step(k.y, start, 1);
    else if (e.key === 'ArrowLeft') next = at < 0 ? lastI : step(k.y, start, -1);
    else if (e.key === 'PageUp') next = step(k.y, Math.min(k.y.length, start + jump + 1), -1);
    else if (e.key === 'PageDown') next = step(k.y, Math.max(-1, start - jump - 1), 1);
    else if (e.key === 'Home') next = first;
    else if (e.key === 'End') next = lastI;
    else if (e.key === 'Enter' || e.key === ' ') {
      if (at >= 0 && k.y[at] !== undefined) k.open(at);
      e.preventDefault();
      return;
    }
    if (next === undefined || next < 0 || k.y[next] === null || k.y[next] === undefined) return;
    e.preventDefault();
    show(ch, k, next);
  });
  canvas.addEventListener('blur', () => {
    const ch = chart();
    if (!ch) return;
    ch.setActiveElements([]);
    ch.tooltip?.setActiveElements([], { x: 0, y: 0 });
    ch.update('none');
  });
}
