/** The CLI's plain-text tables: each cell made one safe line first (src/cli/safeText), then the columns padded to their widest cell. */
import { safeLine } from './safeText';

export function table(rows: readonly (readonly string[])[]): string[] {
  const cells = rows.map((r) => r.map(safeLine));
  const widths = (cells[0] ?? []).map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => ('  ' + r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ')).trimEnd());
}
