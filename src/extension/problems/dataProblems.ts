/**
 * A run's data problems as one list, from what its indexes already hold (the same
 * sources as the run report's warnings and schema check; the logs are not read again):
 * skipped lines, repeated metric rows, metrics logged as NaN/Infinity/null, required
 * fields missing or of the wrong type, repeated trajectory keys. Pure: the Problems
 * panel, the tree and the panels' banner all present this.
 */
import { basename } from 'node:path';
import type { CreditIndex } from '../../core/log/creditIndex';
import type { MetricsIndex } from '../../core/log/metricsIndex';
import type { DataProblemsMessage } from '../../shared/protocol';
import { duplicateRows } from './duplicateScan';
import { visibleText } from '../../shared/visibleText';

export type ProblemKind = 'skipped' | 'duplicateMetric' | 'nonFinite' | 'missingField' | 'wrongType' | 'duplicateTrajectory';

export interface DataProblem {
  kind: ProblemKind;
  file: string;
  /** 1-based line in `file` */
  line: number;
  severity: 'error' | 'warning';
  /** one line naming what is wrong */
  message: string;
}

/** The problems of one kind in one file: `count` of them, the first `problems` listed. */
export interface ProblemGroup {
  kind: ProblemKind;
  file: string;
  count: number;
  problems: DataProblem[];
}

export interface RunProblems {
  groups: ProblemGroup[];
  total: number;
}

/** What the collector reads of a run: its two indexes. */
export interface ProblemSources {
  readonly credit: CreditIndex | undefined;
  readonly metrics: MetricsIndex | undefined;
}

/** Problems listed per kind and file; the rest are counted in one summary entry. */
export const MAX_PROBLEMS_PER_KIND = 500;

const NOUNS: Readonly<Record<ProblemKind, [string, string]>> = {
  skipped: ['skipped line', 'skipped lines'],
  duplicateMetric: ['duplicate metric row', 'duplicate metric rows'],
  nonFinite: ['metric with NaN or infinite values', 'metrics with NaN or infinite values'],
  missingField: ['missing field', 'missing fields'],
  wrongType: ['field of the wrong type', 'fields of the wrong type'],
  duplicateTrajectory: ['duplicate trajectory row', 'duplicate trajectory rows'],
};

export function kindNoun(kind: ProblemKind, count: number): string {
  return `${count} ${NOUNS[kind][count === 1 ? 0 : 1]}`;
}

const times = (n: number): string => (n === 2 ? 'twice' : `${n} times`);

function group(kind: ProblemKind, file: string, count: number, problems: DataProblem[], limit: number): ProblemGroup {
  // log text (a metric's name, a skipped line's reason) may hold bidi controls: shown as <U+202E> tokens, as the report does
  const shown = problems.slice(0, limit).map((p) => ({ ...p, message: visibleText(p.message) }));
  return { kind, file, count: Math.max(count, problems.length), problems: shown };
}

function creditProblems(idx: CreditIndex, limit: number): ProblemGroup[] {
  const file = idx.path;
  const name = basename(file);
  const p = (kind: ProblemKind, line: number, message: string, severity: DataProblem['severity'] = 'warning'): DataProblem => ({
    kind,
    file,
    line: Math.max(1, line),
    severity,
    message,
  });
  const skipped = idx.skippedLines.slice(0, limit).map((s) => p('skipped', s.line, `line ${s.line} skipped: ${s.message}`, 'error'));
  const check = idx.schemaCheck();
  const missing: DataProblem[] = check.notFound.map((f) => p('missingField', 1, `${f} is not found in any record of ${name}`));
  for (const f of check.fields) {
    if (!f.required || f.missing === 0 || f.foundAs.length === 0) continue;
    const unit = f.level === 'turn' ? 'turns' : 'records';
    const total = f.level === 'turn' ? check.turns : check.records;
    missing.push(p('missingField', 1, `${f.level === 'turn' ? 'turn.' : ''}${f.field} is missing from ${f.missing} of ${total} ${unit}`));
  }
  const wrong: DataProblem[] = check.fields
    .filter((f) => f.wrongType > 0)
    .map((f) =>
      p(
        'wrongType',
        f.wrongTypeLines[0] ?? 1,
        `${f.level === 'turn' ? 'turn.' : ''}${f.field} has a value of the wrong type in ${f.wrongType} record(s), read as ` +
          `missing (line${f.wrongType > 1 ? 's' : ''} ` +
          `${f.wrongTypeLines.join(', ')}${f.wrongType > f.wrongTypeLines.length ? ', ...' : ''})`,
      ),
    );
  const d = duplicateRows(idx, limit);
  const dups = d.rows.map((r) =>
    p(
      'duplicateTrajectory',
      r.line,
      `iteration ${r.iteration}, group ${r.group}, rollout ${r.rollout} appears again at line ${r.line} (first at line ${r.first})`,
    ),
  );
  const dupCount = d.count;
  return [
    group('skipped', file, idx.skippedCount, skipped, limit),
    group('missingField', file, missing.length, missing, limit),
    group('wrongType', file, wrong.length, wrong, limit),
    group('duplicateTrajectory', file, dupCount, dups, limit),
  ];
}

function metricsProblems(m: MetricsIndex, limit: number): ProblemGroup[] {
  const file = m.path;
  const name = basename(file);
  const skipped = m.skippedLines.slice(0, limit).map((s): DataProblem => ({
    kind: 'skipped',
    file,
    line: Math.max(1, s.line),
    severity: 'error',
    message: `line ${s.line} skipped: ${s.message}`,
  }));
  const dups: DataProblem[] = [];
  let dupCount = 0;
  for (const d of m.duplicates()) {
    const used = d.lines[d.lines.length - 1]!;
    for (const line of d.lines.slice(0, -1)) {
      dupCount++;
      if (dups.length < limit)
        dups.push({
          kind: 'duplicateMetric',
          file,
          line: Math.max(1, line),
          severity: 'warning',
          message:
            `iteration ${d.iteration} appears ${times(d.lines.length)} in ${name} (lines ${d.lines.join(', ')}); the last ` +
            `row (line ${used}) is used`,
        });
    }
  }
  const nonFinite = m.nonFinite().map((n): DataProblem => ({
    kind: 'nonFinite',
    file,
    line: Math.max(1, n.lines[0] ?? 1),
    severity: 'warning',
    message:
      `${n.name} is NaN, infinite or null on ${n.count} of ${n.rows} rows (line${n.count > 1 ? 's' : ''} ` +
      `${n.lines.join(', ')}${n.count > n.lines.length ? ', ...' : ''})`,
  }));
  return [
    group('skipped', file, m.skippedCount, skipped, limit),
    group('duplicateMetric', file, dupCount, dups, limit),
    group('nonFinite', file, nonFinite.length, nonFinite, limit),
  ];
}

/** Every data problem of a run, at most `limit` listed per kind and file. */
export function collectProblems(run: ProblemSources, limit = MAX_PROBLEMS_PER_KIND): RunProblems {
  const groups = [
    ...(run.credit ? creditProblems(run.credit, limit) : []),
    ...(run.metrics ? metricsProblems(run.metrics, limit) : []),
  ].filter((g) => g.count > 0);
  return { groups, total: groups.reduce((s, g) => s + g.count, 0) };
}

const cache = new WeakMap<ProblemSources, { key: string; value: RunProblems }>();

/** collectProblems, computed again only when either index has changed. */
export function runProblems(run: ProblemSources): RunProblems {
  const credit = `${run.credit?.version ?? -1}:${run.credit?.skippedCount ?? -1}`;
  const key = `${credit}:${run.metrics?.version ?? -1}:${run.metrics?.skippedCount ?? -1}`;
  const hit = cache.get(run);
  if (hit?.key === key) return hit.value;
  const value = collectProblems(run);
  cache.set(run, { key, value });
  return value;
}

/** Counts per kind over both files, in a fixed order. */
export function problemCounts(p: RunProblems): { kind: ProblemKind; count: number }[] {
  const by = new Map<ProblemKind, number>();
  for (const g of p.groups) by.set(g.kind, (by.get(g.kind) ?? 0) + g.count);
  return (Object.keys(NOUNS) as ProblemKind[]).filter((k) => by.has(k)).map((kind) => ({ kind, count: by.get(kind)! }));
}

/** "2 skipped lines, 1 duplicate metric row" */
export function problemBreakdown(p: RunProblems): string {
  return problemCounts(p)
    .map((c) => kindNoun(c.kind, c.count))
    .join(', ');
}

/** "3 data problems" */
export function problemTotal(p: RunProblems): string {
  return `${p.total} data problem${p.total === 1 ? '' : 's'}`;
}

/** The summary entry for the problems of a group left out of the list, or undefined when none were. */
export function moreProblems(g: ProblemGroup): DataProblem | undefined {
  const more = g.count - g.problems.length;
  if (more <= 0) return undefined;
  const last = g.problems[g.problems.length - 1];
  return {
    kind: g.kind,
    file: g.file,
    line: last?.line ?? 1,
    severity: 'warning',
    message: visibleText(
      `and ${more} more problem${more === 1 ? '' : 's'} of this kind (${kindNoun(g.kind, g.count)} in ${basename(g.file)})`,
    ),
  };
}

/** What the panels' banner shows (total 0: no banner). */
export function problemsMessage(p: RunProblems): DataProblemsMessage {
  return { type: 'dataProblems', total: p.total, breakdown: problemBreakdown(p) };
}
