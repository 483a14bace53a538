/**
 * A run's colour in the current theme: the slot src/shared/runColours.ts gives it (0 the
 * primary run's, "this run"; the host gives each overlaid run its own slot and keeps it).
 */
import { themeColor } from '../common';
import { runColourVar, runPaletteEntry } from '../../src/shared/runColours';

export { runDash } from '../../src/shared/runColours';

/** A run's colour in the current theme (canvas cannot read CSS variables). */
export function runColor(index: number): string {
  const [name, fallback] = runPaletteEntry(index);
  return themeColor(name, fallback);
}

/** The CSS variable of a run's colour (for the legend's swatch, which follows a theme change by itself). */
export function runColorVar(index: number): string {
  return runColourVar(index);
}

/** A run's colour swatch (set through the style object: the panel's CSP allows no inline style attribute). */
export function swatch(color: string): HTMLElement {
  const el = document.createElement('span');
  el.className = 'swatch';
  el.setAttribute('aria-hidden', 'true');
  el.style.background = color;
  return el;
}
