/** (Bundled into each test, so __dirname is build/test/<kind>.) The checkpoints test/fixtures/checkpoints/make.py wrote with torch, and the reference its reference.py computed. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CheckReport } from '../src/core/integrity/types';

export const CHECKPOINTS = resolve(__dirname, '../../../test/fixtures/checkpoints');
export const CHECKPOINT_TREE = resolve(CHECKPOINTS, 'tree');
export const EXPLOIT_METADATA = resolve(CHECKPOINTS, 'exploit/.metadata');
/** Checkpoints the reader was not written on (make.py heldout): other layouts, other breakages, a trojaned .metadata. */
export const HELDOUT_TREE = resolve(CHECKPOINTS, 'heldout');

export function reference(name: 'tree' | 'destination' | 'heldout'): CheckReport {
  return JSON.parse(readFileSync(resolve(CHECKPOINTS, `expected-${name}.json`), 'utf8')) as CheckReport;
}

/** The report with only the keys the reference has (no `reason`, `unsafe` or `dtypes`): what is compared with it. */
export function comparable(r: CheckReport): CheckReport {
  const strip = <T extends object>(o: Record<string, T>): Record<string, T> =>
    Object.fromEntries(
      Object.entries(o).map(([k, v]) => {
        const { reason: _r, dtypes: _d, unsafe: _u, ...rest } = v as T & { reason?: string; dtypes?: unknown; unsafe?: string };
        return [k, rest as T];
      }),
    );
  return { resume: strip(r.resume), hf: strip(r.hf), latest: r.latest };
}
