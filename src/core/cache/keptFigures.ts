/**
 * Finished figures (a report, a comparison, the tags, the evaluations) kept next to the saved
 * indexes, so that a second open of an unchanged run costs no read of its logs. An entry is keyed
 * by its kind, what it was computed with (the options, the window) and the files it was computed
 * from; it is used only while every one of those files is exactly as it was (same size, mtime and
 * first and last 64 KB; a file that was absent still absent). A grown file is a miss: the figures
 * are computed again (from the saved index, read incrementally) and kept anew.
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileIdentity, stableJson } from '../log/indexStore';
import type { FileIdentity, IndexStore } from '../log/indexStore';

/** Bumped when what is kept changes shape; the store's `build` (the product version) keys entries too. */
export const KEPT_FORMAT = 3;

/** One file as a kept entry saw it: absent (null) or its identity. */
export type FileState = FileIdentity | null;

/** The state of each file now (an unreadable or absent one: null). */
export async function fileStates(paths: readonly (string | undefined)[]): Promise<FileState[]> {
  return Promise.all(
    paths.map(async (p) => {
      if (p === undefined) return null;
      const st = await stat(p).catch(() => undefined);
      if (!st?.isFile()) return null;
      return fileIdentity(p, st.size, st.size, st.mtimeMs).catch(() => null);
    }),
  );
}

/** The states of files, taken by `fileStates` or by a memo of it (`statesOnce`). */
export type StatesOf = (paths: readonly (string | undefined)[]) => Promise<FileState[]>;

/**
 * `fileStates` taking each file's state once: for the lookups of many kept entries over the same
 * logs at one moment (the runs table: each row and its verdict, every verdict the baseline's).
 * Never for the check after a computation, which must see the files as they are then.
 */
export function statesOnce(): StatesOf {
  const seen = new Map<string, Promise<FileState>>();
  const one = (p: string): Promise<FileState> => {
    let s = seen.get(p);
    if (!s) seen.set(p, (s = fileStates([p]).then((x) => x[0] ?? null)));
    return s;
  };
  return (paths) => Promise.all(paths.map((p) => (p === undefined ? Promise.resolve(null) : one(p))));
}

export interface KeptKey {
  kind: string;
  /** every file the figures are computed from, in a fixed order (undefined: the run has none) */
  paths: readonly (string | undefined)[];
  /** everything else the figures depend on: options, window, what the command prints */
  with: unknown;
}

function keyText(store: IndexStore, k: KeptKey): string {
  return stableJson({
    format: KEPT_FORMAT,
    build: store.build,
    kind: k.kind,
    paths: k.paths.map((p) => (p === undefined ? null : resolve(p))),
    with: k.with,
  });
}

/** The kept value of `k` if its files are as `now` says and it passes `valid`; else undefined. */
export async function loadKept<T>(store: IndexStore, k: KeptKey, now: FileState[], valid: (v: unknown) => v is T): Promise<T | undefined> {
  const key = keyText(store, k);
  const buf = await store.load(store.keyName(`kept:${k.kind}`, key));
  if (!buf) return undefined;
  let entry: unknown;
  try {
    entry = JSON.parse(buf.toString('utf8'));
  } catch {
    return undefined;
  }
  if (entry === null || typeof entry !== 'object') return undefined;
  const e = entry as Record<string, unknown>;
  if (e['key'] !== key || !isDeepStrictEqual(e['files'], now)) return undefined;
  return valid(e['value']) ? e['value'] : undefined;
}

/** Keeps `value` for `k`, computed from files as `now` says; best effort (an error is swallowed). */
export async function saveKept(store: IndexStore, k: KeptKey, now: FileState[], value: unknown): Promise<void> {
  const key = keyText(store, k);
  const text = JSON.stringify({ key, files: now, value });
  await store.save(store.keyName(`kept:${k.kind}`, key), [Buffer.from(text, 'utf8')]).catch(() => undefined);
}

/**
 * The figures of `k`: kept ones when the files are unchanged, else `compute()` (which reads the
 * logs), kept when the files did not change while it ran and `clean()` says nothing failed to read.
 */
export async function keptOrCompute<T>(
  store: IndexStore | undefined,
  k: KeptKey,
  valid: (v: unknown) => v is T,
  compute: () => Promise<T>,
  clean: () => boolean = () => true,
  states: StatesOf = fileStates,
): Promise<T> {
  if (!store || store.maxBytes <= 0) return compute();
  const before = await states(k.paths);
  const hit = await loadKept(store, k, before, valid);
  if (hit !== undefined) return hit;
  const value = await compute();
  if (!clean()) return value;
  const after = await fileStates(k.paths);
  if (isDeepStrictEqual(before, after)) await saveKept(store, k, after, value);
  return value;
}
