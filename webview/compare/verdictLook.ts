/**
 * How the page colours a verdict (docs/format.md section 8): a difference its interval shows in the
 * theme's chart green or red, an inconclusive one (or none) in the neutral foreground, never as a gain or a loss.
 */
import type { VerdictConclusion } from '../../src/shared/protocol/compareVerdict';

/** The theme variable and its fallback for a conclusion's colour. */
export function conclusionColour(c: VerdictConclusion | null): { variable: string; fallback: string } {
  switch (c) {
    case 'better':
      return { variable: '--vscode-charts-green', fallback: '#89d185' };
    case 'worse':
      return { variable: '--vscode-charts-red', fallback: '#f14c4c' };
    default:
      return { variable: '--vscode-descriptionForeground', fallback: '#888' };
  }
}

/** The class a headline or table cell carries for its conclusion (media/compare.css colours it). */
export function conclusionClass(c: VerdictConclusion | null): string {
  return `verdict-${c ?? 'none'}`;
}
