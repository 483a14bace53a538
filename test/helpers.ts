import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const made: string[] = [];
process.on('exit', () => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder, removed when the test process exits. */
export function tempDir(prefix = 'rlrb-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

export function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

export function close(actual: number | null | undefined, expected: number, eps = 1e-9): boolean {
  return typeof actual === 'number' && Math.abs(actual - expected) <= eps;
}
