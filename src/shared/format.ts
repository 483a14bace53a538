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

/** A fraction as percentage points with one decimal, no sign and no % ("6.6" for 0.066): the verdict's "points more". */
export function formatPoints(v: number): string {
  return (v * 100).toFixed(1);
}

/** formatFigure without its plus sign (rewards, where the sign says nothing). */
export function formatPlain(v: number | null | undefined, digits = 4): string {
  return formatFigure(v, digits).replace(/^\+/, '');
}

/**
 * What a number is, which decides how it is written: `rate` a fraction in 0..1 (no sign),
 * `count` a whole number, `tokens` a length in tokens (a whole number, means included),
 * `p` a p value, `signed` a quantity whose sign matters (c, A, a difference), `plain` anything else.
 */
export type Quantity = 'rate' | 'count' | 'tokens' | 'p' | 'signed' | 'plain';

const NO_DATA = '—';
const bad = (v: number | null | undefined): v is null | undefined => v === null || v === undefined || Number.isNaN(v);

/** 1234567 as "1,234,567" (no Intl: its first use costs more than a chart). */
function grouped(n: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? '-' : '') + s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A rate as a plain decimal without a sign; a tiny non-zero rate keeps one significant digit, so it never reads as 0. */
export function formatRate(v: number | null | undefined, digits = 4): string {
  if (bad(v)) return NO_DATA;
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && a < 10 ** -digits) return v.toFixed(Math.min(12, Math.ceil(-Math.log10(a))));
  return v.toFixed(digits);
}

/** A rate as a percentage: 0.0123 is "1.2%". */
export function formatPercent(v: number | null | undefined, digits = 1): string {
  if (bad(v)) return NO_DATA;
  const pct = v * 100;
  if (pct !== 0 && Math.abs(pct) < 10 ** -digits) return `${formatRate(pct, digits)}%`;
  return `${pct.toFixed(digits)}%`;
}

/** A count (or a token length): a whole number with thousands separators. */
export function formatCount(v: number | null | undefined): string {
  if (bad(v)) return NO_DATA;
  if (!Number.isFinite(v)) return String(v);
  return grouped(Math.round(v));
}

/** A p value: four decimals, scientific notation only below 0.001. */
export function formatP(v: number | null | undefined): string {
  if (bad(v)) return NO_DATA;
  if (v !== 0 && Math.abs(v) < 1e-3) return v.toExponential(1);
  return v.toFixed(4);
}

/** A number written as the quantity it is. */
export function formatQuantity(q: Quantity, v: number | null | undefined, digits = 4): string {
  switch (q) {
    case 'rate':
      return formatRate(v, digits);
    case 'count':
    case 'tokens':
      return formatCount(v);
    case 'p':
      return formatP(v);
    case 'signed':
      return formatSigned(v, digits);
    case 'plain':
      return formatPlain(v, digits);
  }
}

/**
 * The quantity a metric of ws_metrics.jsonl holds, from its name (docs/format.md section 5:
 * `ws/fallback_rate` a rate, `ws/all_fail_groups` a count, `ws/response_len_mean` tokens,
 * `ws/c_mean` and `ws/gate_mean_diff` signed). Unknown names are `plain`.
 */
export function metricQuantity(name: string): Quantity {
  const n = name.toLowerCase();
  if (/(^|[/_])(p|p_?value|pval)$/.test(n)) return 'p';
  if (/rate|frac|fraction|ratio_success|success|executed_is_argmax|accuracy|pct/.test(n)) return 'rate';
  if (/(^|[/_])(len|length|tokens?)(_|$)|response_len|num_tokens/.test(n)) return 'tokens';
  if (/(^|[/_])(groups|count|num|n)(_|$)|_groups$|_count$/.test(n)) return 'count';
  if (/(^|[/_])(c|a|a_t|adv|advantage)(_|$)|diff|c_mean|mean_c/.test(n)) return 'signed';
  return 'plain';
}

/** A metric's value as its quantity (see metricQuantity). */
export function formatMetric(name: string, v: number | null | undefined): string {
  return formatQuantity(metricQuantity(name), v);
}

/**
 * A signed quantity (c, A, A_t, a difference) with a sign and fixed decimals, never in
 * scientific notation: 0.00544 at 3 decimals is "+0.005"; a tiny non-zero value keeps
 * one significant digit ("+0.00004") so that it never reads as zero; zero has no sign.
 */
export function formatSigned(v: number | null | undefined, digits = 4): string {
  if (bad(v)) return NO_DATA;
  if (!Number.isFinite(v)) return v > 0 ? '+∞' : '−∞';
  if (v === 0) return (0).toFixed(digits);
  const a = Math.abs(v);
  const d = a < 10 ** -digits ? Math.min(12, Math.ceil(-Math.log10(a))) : digits;
  return (v > 0 ? '+' : '-') + a.toFixed(d);
}

/** A reward: the judge's 1, 0 and -1 as whole numbers, anything else with two decimals (no plus sign). */
export function formatReward(v: number | null | undefined): string {
  if (bad(v)) return NO_DATA;
  if (Number.isInteger(v) || !Number.isFinite(v)) return String(v);
  return formatSigned(v, 2).replace(/^\+/, '');
}

const BREAK_AFTER = new Set([' ', '\t', '\n', ',', '(', '[', '{', '=', ')', ']', '}']);
const NO_BREAK_BEFORE = new Set([' ', '\t', '\n', ',', ')', ']', '}']);

/**
 * Code-like text cut into pieces that may wrap only between them: after a space, a comma,
 * a bracket or an `=` (unless a space, comma or closing bracket follows). Inside a token
 * (`point_2d`, `0.125`, a path) nothing breaks. The pieces joined are the string.
 */
export function wrapPieces(s: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 1; i < s.length; i++)
    if (BREAK_AFTER.has(s[i - 1]!) && !NO_BREAK_BEFORE.has(s[i]!)) {
      out.push(s.slice(from, i));
      from = i;
    }
  if (from < s.length) out.push(s.slice(from));
  return out;
}

/**
 * A count and its noun, singular for exactly one: `plural(1, 'task')` is "1 task",
 * `plural(1200, 'turn')` "1,200 turns"; `many` for a plural not made with an s.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Credit (c) and advantage (A, A_t) everywhere: a signed figure with four decimals, a clipped c of 1 reading "+1.0000". */
export function formatCredit(v: number | null | undefined): string {
  return formatSigned(v, 4);
}

/** A candidate's score: three decimals, "null" when the judge gave none. */
export function formatScore(v: number | null): string {
  return v === null ? 'null' : v.toFixed(3);
}

/** A candidate's d_k (its score against the executed one's): signed, three decimals. */
export function formatDk(v: number | null | undefined): string {
  return formatSigned(v, 3);
}
