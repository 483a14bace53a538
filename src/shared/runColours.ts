/**
 * The one place that decides a run's colour in every view (the comparison panel, the task
 * view, the side-by-side view, the dashboard's overlay): a run's colour is its slot, and
 * its slot is its role, never its name. Slot 0 is run A, "this run" (the run the user
 * compares from, the dashboard's own run); slot 1 is run B, the baseline (the first run
 * overlaid); later slots are the further overlaid runs. Colours are the theme's chart
 * colours (--vscode-charts-*, set for dark, light and high-contrast themes alike).
 */

/** The CSS variable of each slot and the colour used where the theme sets none. */
export const RUN_PALETTE: readonly (readonly [cssVar: string, fallback: string])[] = [
  ['--vscode-charts-blue', '#3794ff'],
  ['--vscode-charts-orange', '#d18616'],
  ['--vscode-charts-green', '#89d185'],
  ['--vscode-charts-purple', '#b180d7'],
  ['--vscode-charts-foreground', '#cccccc'],
  ['--vscode-charts-red', '#f14c4c'],
];

/** Run A's slot ("this run", compared from) and run B's (the baseline). */
export const SLOT_A = 0;
export const SLOT_B = 1;

/** The palette entry of a slot (slots past the palette wrap around; runDash tells them apart). */
export function runPaletteEntry(slot: number): readonly [cssVar: string, fallback: string] {
  const n = RUN_PALETTE.length;
  return RUN_PALETTE[((Math.trunc(slot) % n) + n) % n]!;
}

/** A slot's colour as CSS (`var(--vscode-charts-blue, #3794ff)`), for what CSS draws: swatches, headings. */
export function runColourVar(slot: number): string {
  const [name, fallback] = runPaletteEntry(slot);
  return `var(${name}, ${fallback})`;
}

/**
 * A run's colour for text (its name): the chart colour mixed with the theme's foreground, which
 * keeps 4.5:1 on the editor background in the stock light and dark themes (the charts' blue and
 * orange alone are 3.6:1 and 2.9:1 on white), as the status colours of media/webview.css do.
 */
export function runTextColourVar(slot: number): string {
  return `color-mix(in srgb, ${runColourVar(slot)} 55%, var(--vscode-foreground))`;
}

/** A dash pattern per slot beyond the first four, so that lines stay apart where two colours are close. */
export function runDash(slot: number): number[] {
  return slot >= 4 ? (slot % 2 === 0 ? [6, 3] : [2, 2]) : [];
}

/**
 * The slots of a view's runs, given in role order (A first): the position of each run's
 * first appearance, so that one run shown twice (two rollouts of one group side by side)
 * keeps one colour.
 */
export function runSlots(roots: readonly string[]): number[] {
  const seen: string[] = [];
  return roots.map((r) => {
    if (!seen.includes(r)) seen.push(r);
    return seen.indexOf(r);
  });
}
