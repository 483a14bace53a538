/**
 * The rows of a browser query and their export to a file with a cancellable progress
 * notification. The file is written under a temporary name and renamed when complete, so
 * a cancel or an error leaves nothing where the chosen file belongs.
 */
import type { TrajectoryFilter, TrajectoryQuery } from '../../shared/shapes';
import * as vscode from 'vscode';
import type { CreditIndex } from '../../core/log/creditIndex';
import { exportRows } from '../../core/export/exportRows';
import type { ExportFormat, ExportResult } from '../../core/export/exportRows';
import { selectRows } from '../../core/export/select';
import type { RangeOrigin } from '../../core/export/recordReader';
import type { LiveRun } from '../runs/runService';
import { copyFilter } from '../trajectories/queryViews';
import { formatBytes } from '../../shared/format';
import { writeAtomically } from './atomicFile';

export interface Selection {
  index: CreditIndex;
  /** the log's bytes when it is not a local file (a Hub log read in place) */
  origin?: RangeOrigin;
  filter: TrajectoryFilter;
  rows: Int32Array;
}

/** The rows the browser shows for `query` (its text search and the gate's groups included), in file order. */
export async function selection(live: LiveRun, query: TrajectoryQuery): Promise<Selection | undefined> {
  const index = live.run.credit;
  if (!index) return undefined;
  const filter = copyFilter(query.filter);
  const gateRows = filter.gate ? new Set(live.run.report()?.gateGroups.flatMap((g) => g.rows) ?? []) : undefined;
  const origin = live.run.location.remote?.credit;
  return { index, filter, rows: await selectRows(index, filter, gateRows ? { gateRows } : {}), ...(origin ? { origin } : {}) };
}

/** Writes the selection to `path` with a progress notification; undefined when cancelled. */
export async function exportWithProgress(sel: Selection, format: ExportFormat, path: string): Promise<ExportResult | undefined> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Exporting ${sel.rows.length} ${sel.rows.length === 1 ? 'trajectory' : 'trajectories'}`,
      cancellable: true,
    },
    async (progress, token) => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort());
      let shown = 0;
      try {
        return await writeAtomically(path, (sink) =>
          exportRows(sel.index, sel.rows, format, sink, {
            signal: ac.signal,
            ...(sel.origin ? { origin: sel.origin } : {}),
            onProgress: (p) => {
              const pct = p.rowsTotal > 0 ? (100 * p.rowsDone) / p.rowsTotal : 100;
              progress.report({ increment: pct - shown, message: `${p.rowsDone} of ${p.rowsTotal} · ${formatBytes(p.bytesWritten)}` });
              shown = pct;
            },
          }),
        );
      } catch (e) {
        if (ac.signal.aborted) return undefined;
        throw e;
      } finally {
        sub.dispose();
      }
    },
  );
}
