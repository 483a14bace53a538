/** The built CLI (`dist/cli.js`) run as a user runs it, its saved indexes in a temporary folder (never the user's cache). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { tempDir } from './helpers';

export const CLI = resolve('dist/cli.js');

/** the CLI's saved indexes go here, never into the user's cache folder */
const CACHE = tempDir();

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export function rlrb(...args: string[]): CliResult {
  const r = spawnSync('node', [CLI, ...args], { encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: CACHE } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** `rlrb … --json`: asserts exit 0 and returns the one object it printed. */
export function rlrbJson(...args: string[]): Record<string, unknown> {
  const r = rlrb(...args, '--json');
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as Record<string, unknown>;
}
