/**
 * Which row of the metrics log each iteration takes its values from: the later row of an
 * iteration logged twice (a requeued run logs again after its resume point) wins whole.
 */
/** A column read by row. */
interface Column {
  readonly length: number;
  at(i: number): number;
}

export interface DuplicateIteration {
  iteration: number;
  lines: number[];
}

export interface MetricsOrder {
  /** how many iterations there are */
  count: number;
  /** every iteration logged, ascending (built on first use when each row is its own iteration) */
  iterations(): number[];
  /** each row's place in `iterations`, -1 for a row a later one replaced; undefined: row i is at i (each iteration once, in order) */
  placeOfRow: Int32Array | undefined;
  /** iterations logged more than once, in the order they first appear, with the lines of each row */
  duplicates: DuplicateIteration[];
}

/** The order of rows whose iterations are `iteration` (`increasing`: each larger than the one before). */
export function metricsOrder(iteration: Column, line: Column, increasing: boolean): MetricsOrder {
  const n = iteration.length;
  if (increasing) {
    let built: number[] | undefined;
    return {
      count: n,
      iterations: () => (built ??= Array.from({ length: n }, (_, i) => iteration.at(i))),
      placeOfRow: undefined,
      duplicates: [],
    };
  }
  const it = Float64Array.from({ length: n }, (_, i) => iteration.at(i));
  const byIteration = new Uint32Array(n);
  for (let i = 0; i < n; i++) byIteration[i] = i;
  byIteration.sort((a, b) => it[a]! - it[b]! || a - b);
  const placeOfRow = new Int32Array(n).fill(-1);
  const iterations: number[] = [];
  const duplicates: (DuplicateIteration & { first: number })[] = [];
  for (let k = 0; k < n;) {
    const first = byIteration[k]!;
    let end = k + 1;
    while (end < n && it[byIteration[end]!] === it[first]) end++;
    placeOfRow[byIteration[end - 1]!] = iterations.length;
    iterations.push(it[first]!);
    if (end - k > 1) {
      const lines: number[] = [];
      for (let j = k; j < end; j++) lines.push(line.at(byIteration[j]!));
      duplicates.push({ iteration: it[first]!, lines, first });
    }
    k = end;
  }
  duplicates.sort((a, b) => a.first - b.first);
  return {
    count: iterations.length,
    iterations: () => iterations,
    placeOfRow,
    duplicates: duplicates.map(({ iteration, lines }) => ({ iteration, lines })),
  };
}
