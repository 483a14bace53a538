/** Human formats shared by the CLI and the extension. */

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '?';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = n;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${i === 0 ? v.toFixed(0) : v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${units[i]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A number for tables: fixed digits, a sign, em dash for no data. */
export function formatFigure(v: number | null | undefined, digits = 4): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (Number.isInteger(v)) return String(v);
  if (v !== 0 && Math.abs(v) < 10 ** -digits) return v.toExponential(2);
  return (v >= 0 ? '+' : '') + v.toFixed(digits);
}

/** formatFigure without its plus sign (rewards, where the sign says nothing). */
export function formatPlain(v: number | null | undefined, digits = 4): string {
  return formatFigure(v, digits).replace(/^\+/, '');
}
