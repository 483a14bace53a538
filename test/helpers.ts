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

/** `n` deterministic pseudo-random bytes (a linear congruential generator from `seed`): file contents for the Hub tests. */
export function noise(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    b[i] = seed >>> 24;
  }
  return b;
}
