/**
 * docs/format.md section 9 for a local folder: one laid out like the repo (resume/, hf/), or a resume
 * download destination (iter_XXXXXXX/ and latest_checkpointed_iteration.txt at its top; reported
 * under resume, hf empty). Reads `.metadata` whole and each shard's 8 bytes and header, never a shard's body.
 */
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseLatest } from '../hub/model';
import { readDistcpMetadata } from './distcpMetadata';
import type { DistcpMetadata } from './distcpMetadata';
import { DEFAULT_PICKLE_LIMITS } from './pickle';
import { INDEX_FILE, MAX_INDEX_BYTES, SINGLE_FILE, readLocalHeader, shardsFromIndex } from './safetensorsHeader';
import type { SafetensorsHeader } from './safetensorsHeader';
import type { FileEntry, HfCheck, IntegrityCheck, ResumeCheck } from './types';
import { byCodePoint, hfVerdict, latestVerdict, resumeVerdict, sortedReport } from './verdict';

const LATEST = 'latest_checkpointed_iteration.txt';

/** `iter_` and the number zero-padded to 7 digits, the way the trainer writes it. */
export function iterFolderNumber(name: string): number | null {
  const m = /^iter_(\d{7,16})$/.exec(name);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && m[1] === String(n).padStart(7, '0') ? n : null;
}

export async function checkFolder(root: string): Promise<IntegrityCheck> {
  const top = await dirents(root);
  const repoLayout = top.some((d) => d.dir && (d.name === 'resume' || d.name === 'hf'));
  const resumeRoot = repoLayout ? join(root, 'resume') : root;
  const warnings: string[] = [];
  const out: IntegrityCheck = { report: { resume: {}, hf: {}, latest: latestVerdict({}, null) }, files: { resume: {}, hf: {} }, warnings };
  for (const d of await iterDirs(resumeRoot)) {
    const files = await filesOf(join(resumeRoot, d));
    out.files.resume[d] = files;
    out.report.resume[d] = await resumeOf(join(resumeRoot, d), files);
  }
  if (repoLayout) {
    for (const d of await iterDirs(join(root, 'hf'))) {
      const files = await filesOf(join(root, 'hf', d));
      out.files.hf[d] = files;
      out.report.hf[d] = await hfOf(join(root, 'hf', d), files);
    }
  }
  let names: number | null = null;
  try {
    const text = (await readFile(join(resumeRoot, LATEST))).subarray(0, 64).toString('utf8');
    names = parseLatest(text);
    if (names === null) warnings.push(`${join(resumeRoot, LATEST)} does not hold a whole number`);
  } catch {
    // no latest file: nothing is named
  }
  out.report.latest = latestVerdict(out.report.resume, names);
  out.report = sortedReport(out.report);
  return out;
}

/** One resume iteration folder on disk (a download's, before its latest file is written). */
export async function checkResumeFolder(dir: string): Promise<ResumeCheck> {
  return resumeOf(dir, await filesOf(dir));
}

async function resumeOf(dir: string, files: FileEntry[]): Promise<ResumeCheck> {
  const md = files.find((f) => f.name === '.metadata');
  let read: DistcpMetadata | undefined;
  if (md) {
    read =
      md.size > DEFAULT_PICKLE_LIMITS.maxBytes
        ? { ok: false, reason: `.metadata is ${md.size} bytes, over the ${DEFAULT_PICKLE_LIMITS.maxBytes} a reader accepts` }
        : readDistcpMetadata(await readFile(join(dir, '.metadata')));
  }
  return resumeVerdict(files, read);
}

async function hfOf(dir: string, files: FileEntry[]): Promise<HfCheck> {
  const index = files.find((f) => f.name === INDEX_FILE);
  let shards: string[] | { reason: string } = [SINGLE_FILE];
  if (index) {
    shards =
      index.size > MAX_INDEX_BYTES
        ? { reason: `${INDEX_FILE} is over ${MAX_INDEX_BYTES} bytes` }
        : shardsFromIndex(await readFile(join(dir, INDEX_FILE), 'utf8'));
  }
  const headers = new Map<string, SafetensorsHeader | Error>();
  if (Array.isArray(shards)) {
    const present = new Set(files.map((f) => f.name));
    for (const s of shards) if (present.has(s)) headers.set(s, await readLocalHeader(join(dir, s)).catch((e: Error) => e));
  }
  return hfVerdict(shards, files, headers);
}

async function dirents(dir: string): Promise<{ name: string; dir: boolean; file: boolean }[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).map((d) => ({ name: d.name, dir: d.isDirectory(), file: d.isFile() }));
  } catch {
    return [];
  }
}

async function iterDirs(dir: string): Promise<string[]> {
  return (await dirents(dir))
    .filter((d) => d.dir && iterFolderNumber(d.name) !== null)
    .map((d) => d.name)
    .sort();
}

/** An iteration folder's files: regular files only (a symlink or a folder inside it is not one of its files). */
export async function filesOf(dir: string): Promise<FileEntry[]> {
  const out: FileEntry[] = [];
  for (const d of await dirents(dir)) {
    if (!d.file) continue;
    const st = await lstat(join(dir, d.name));
    out.push({ name: d.name, size: st.size });
  }
  return out.sort((a, b) => byCodePoint(a.name, b.name));
}
