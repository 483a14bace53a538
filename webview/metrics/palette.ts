/**
 * One colour per run on the dashboard, from the theme's chart colours (--vscode-charts-*,
 * which VS Code sets for dark, light and high-contrast themes alike). Index 0 is the
 * primary run's; the host gives each overlaid run its own index and keeps it.
 */
import { themeColor } from '../common';

const PALETTE: readonly (readonly [string, string])[] = [
  ['--vscode-charts-blue', '#3794ff'],
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-green', '#89d185'],
  ['--vscode-charts-purple', '#b180d7'],
  ['--vscode-charts-foreground', '#cccccc'],
  ['--vscode-charts-red', '#f14c4c'],
];

/** A run's colour in the current theme. */
export function runColor(index: number): string {
  const [name, fallback] = PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
  return themeColor(name, fallback);
}

/** The CSS variable of a run's colour (for the legend's swatch, which follows a theme change by itself). */
export function runColorVar(index: number): string {
  const [name, fallback] = PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length]!;
  return `var(${name}, ${fallback})`;
}

/** A dash pattern per run beyond the first four, so that lines stay apart where two colours are close. */
export function runDash(index: number): number[] {
  return index >= 4 ? (index % 2 === 0 ? [6, 3] : [2, 2]) : [];
}

/** A run's colour swatch (set through the style object: the panel's CSP allows no inline style attribute). */
export function swatch(color: string): HTMLElement {
  const el = document.createElement('span');
  el.className = 'swatch';
  el.setAttribute('aria-hidden', 'true');
  el.style.background = color;
  return el;
}
