/** What one worker is given (a file's byte range, never its bytes) and what it sends back. */
import { SchemaObserver } from '../../record/schema';
import type { ReadLimits, SkippedLine } from '../jsonlFile';
import type { ObserverJson } from '../observerCodec';
import type { CreditParams } from '../../credit/credit';
import type { MatchOptions } from '../../credit/actions';
import type { FieldMapping } from '../../record/schema';
import type { TypedColumn } from '../indexCodec';
import type { ThreadCpu } from './cpu';

export interface PartTask {
  path: string;
  /** the whole lines of [start, end) */
  start: number;
  end: number;
  /** where a whole read's chunks start (3 after a byte order mark, else 0) */
  align: number;
  /** the index options (`IndexOptions`, spelled out: this folder does not import the index) */
  options: { credit: CreditParams; match: MatchOptions; mapping: FieldMapping };
  limits: ReadLimits | undefined;
  /** the read scope's roots (`withReadRoots`) the part is read in, if any */
  roots?: readonly string[] | undefined;
}

export interface PartResult {
  rows: number;
  /** each summary column, `rows` long */
  columns: Record<string, TypedColumn>;
  /** newlines in the part: its lines, numbered from 1 */
  lines: number;
  skipped: SkippedLine[];
  skippedCount: number;
  observer: ObserverJson;
  /** more distinct unknown keys than a part keeps: the merge cannot be exact, the caller indexes on one thread */
  overflow: boolean;
  slowPathRows: number;
  /** the worker's main-thread CPU time, its start included (undefined where the system does not say) */
  cpu?: ThreadCpu | undefined;
}

/** Distinct unknown keys a part keeps, each level (the whole file keeps 200: the cap is applied once, at the merge). */
export const PART_UNKNOWN_KEYS = 100_000;

/** The schema observer of a part: unknown keys are not capped at 200 here, only bounded. */
export class PartObserver extends SchemaObserver {
  overflow = false;

  override seeUnknown(level: 'trajectory' | 'turn', name: string, count = 1): void {
    const m = level === 'trajectory' ? this.unknownTrajectoryKeys : this.unknownTurnKeys;
    if (m.size < PART_UNKNOWN_KEYS || m.has(name)) m.set(name, (m.get(name) ?? 0) + count);
    else this.overflow = true;
  }
}

/** Reads one part of a log on the calling thread: what a worker does with a task (`cpu` left to the caller). */
export type PartReader = (task: PartTask, signal?: AbortSignal) => Promise<Omit<PartResult, 'cpu'>>;
