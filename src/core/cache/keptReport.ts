/**
 * A run's report (`Run.report()`, what the extension's panels show) kept next to the saved
 * indexes: looked up after each update while the logs are as they were, kept after it is
 * computed. Kept only when its JSON gives back the same value (a report holding NaN or
 * undefined is not kept), so that a kept report equals a fresh one.
 */
import { isDeepStrictEqual } from 'node:util';
import { fileStates, loadKept, saveKept } from './keptFigures';
import type { FileState, KeptKey } from './keptFigures';
import type { IndexStore } from '../log/indexStore';
import type { CurveRow, FullReport } from '../report/report';

export type ReportWithCurve = FullReport & { curve: CurveRow[] };

export function isReportWithCurve(v: unknown): v is ReportWithCurve {
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const arrays = ['perIteration', 'gateGroups', 'signFlipGroups', 'twinDisagreements', 'curve'];
  return (
    typeof o['report'] === 'object' &&
    o['report'] !== null &&
    typeof o['sameMismatches'] === 'number' &&
    typeof o['creditDiagnostics'] === 'object' &&
    o['creditDiagnostics'] !== null &&
    arrays.every((k) => Array.isArray(o[k]))
  );
}

/** The logs' states around an update: the same before and after, else undefined (they changed while read). */
export async function steadyStates(key: KeptKey, before: FileState[]): Promise<FileState[] | undefined> {
  const after = await fileStates(key.paths);
  return isDeepStrictEqual(before, after) ? after : undefined;
}

/** The kept report for logs in `states`, if any. */
export function loadKeptReport(store: IndexStore, key: KeptKey, states: FileState[]): Promise<ReportWithCurve | undefined> {
  return loadKept(store, key, states, isReportWithCurve).catch(() => undefined);
}

/** Keeps `value` for logs in `states` when its JSON round trip is exact; best effort. */
export async function keepReport(store: IndexStore, key: KeptKey, states: FileState[], value: ReportWithCurve): Promise<void> {
  if (store.maxBytes <= 0) return;
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value)) return;
  await saveKept(store, key, states, value);
}
