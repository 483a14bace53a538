/**
 * Which checkpoint iterations are complete (docs/format.md section 9), as a live run asks it: once
 * a poll that saw a change. The probes (`integrityProbe.ts`) run section 9's checker; the folders
 * here are what a local run's head compares.
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
