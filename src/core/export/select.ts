/** The rows an export takes: the browser's filter, through the same query and text search. */
import type { TrajectoryFilter } from '../../shared/shapes';
import type { CreditIndex } from '../log/creditIndex';
import { queryRows, textSearch } from '../run/query';

export interface SelectOptions {
  signal?: AbortSignal;
  /** the gate's rows, when the filter asks for them (`filter.gate`) */
  gateRows?: ReadonlySet<number>;
}

/** Row ids that pass `filter`, in file order. */
export async function selectRows(index: CreditIndex, filter: TrajectoryFilter, opts: SelectOptions = {}): Promise<Int32Array> {
  const text = filter.text?.trim();
  const textRows = text ? await textSearch(index, text, opts.signal) : undefined;
  return queryRows(index, { filter, sort: [] }, opts.gateRows, textRows);
}
