/**
 * Which checkpoint iterations are complete (docs/format.md section 9), as a live run asks it: once
 * a poll that saw a change. The follower takes a `CheckpointProbe`, so the full section-9 checker
 * (the `.metadata` pickle's byte counts, the safetensors headers) plugs in where `presenceProbe`
 * is passed today.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointKind } from './liveEvent';

/** One checkpoint iteration's files as a listing names them (a Hub tree or a local folder). */
export interface CheckpointFolder {
  kind: CheckpointKind;
  iteration: number;
  files: readonly { path: string; size: number }[];
}

export interface CheckpointState {
  kind: CheckpointKind;
  iteration: number;
  /** section 9's `complete`: null when it cannot tell */
  complete: boolean | null;
}

/** Every checkpoint iteration of the run and whether it is complete, asked after a change was seen. */
export type CheckpointProbe = () => Promise<readonly CheckpointState[]>;

const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const SHARD = /^model-(\d+)-of-(\d+)\.safetensors$/;

/**
 * A stand-in for section 9 until its checker is wired in: a resume iteration is complete when
 * `.metadata`, `common.pt`, `metadata.json` and at least one `.distcp` shard are there and not
 * empty (the shards `.metadata` names are not read); an hf iteration when `config.json` and
 * `model.safetensors`, or every `model-K-of-N.safetensors` its names promise, are there.
 */
export function presenceComplete(f: CheckpointFolder): boolean {
  const sizes = new Map(f.files.map((x) => [base(x.path), x.size]));
  const has = (n: string): boolean => (sizes.get(n) ?? 0) > 0;
  if (f.kind === 'resume')
    return has('.metadata') && has('common.pt') && has('metadata.json') && [...sizes.keys()].some((n) => n.endsWith('.distcp'));
  if (!has('config.json')) return false;
  if (has('model.safetensors')) return true;
  const shards = [...sizes.keys()].map((n) => SHARD.exec(n)).filter((m): m is RegExpExecArray => m !== null);
  if (shards.length === 0) return false;
  const of = Number(shards[0]![2]);
  const got = new Set(shards.filter((m) => Number(m[2]) === of && sizes.get(m[0])! > 0).map((m) => Number(m[1])));
  for (let k = 1; k <= of; k++) if (!got.has(k)) return false;
  return true;
}

/** The stand-in probe over a listing fetched when asked. */
export function presenceProbe(list: () => Promise<readonly CheckpointFolder[]>): CheckpointProbe {
  return async () => (await list()).map((f) => ({ kind: f.kind, iteration: f.iteration, complete: presenceComplete(f) }));
}

const ITER_DIR = /^iter_(\d{7,})$/;

async function folderFiles(dir: string, rel: string): Promise<{ path: string; size: number }[]> {
  const out: { path: string; size: number }[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!e.isFile()) continue;
    const s = await stat(join(dir, e.name)).catch(() => undefined);
    if (s) out.push({ path: `${rel}/${e.name}`, size: s.size });
  }
  return out;
}

/**
 * The checkpoint folders of a local run: `resume/iter_N` and `hf/iter_N` of a folder laid out
 * like the repo, and `iter_N` at the top of a resume download destination (reported as resume).
 */
export async function localCheckpointFolders(root: string): Promise<CheckpointFolder[]> {
  const out: CheckpointFolder[] = [];
  const scan = async (dir: string, rel: string, kind: CheckpointKind): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const m = ITER_DIR.exec(e.name);
      if (!m || !e.isDirectory() || m[1] !== String(Number(m[1])).padStart(7, '0')) continue;
      const at = rel ? `${rel}/${e.name}` : e.name;
      out.push({ kind, iteration: Number(m[1]), files: await folderFiles(join(dir, e.name), at) });
    }
  };
  await scan(join(root, 'resume'), 'resume', 'resume');
  await scan(join(root, 'hf'), 'hf', 'hf');
  await scan(root, '', 'resume');
  return out;
}
