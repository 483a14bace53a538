/**
 * What a `run=` (or `compare=`) link may open on this machine: a folder (the run locator
 * then looks for its logs), or a `.jsonl` file whose first record parses as a JSON object.
 * Anything else (`/etc/passwd`, a binary) is refused in one line before it is read as a run.
 */
import { open, stat } from 'node:fs/promises';
import { errorDetail } from '../errorMessage';
import { parseTolerant } from '../log/tolerantJson';
import { shown } from './values';

/** bytes read to find the first record (a longer first line is judged by its first byte) */
const HEAD_BYTES = 64 * 1024;

/** Why a link's local path is not a run to open, or undefined when it may be opened. */
export async function linkedRunProblem(path: string): Promise<string | undefined> {
  const st = await stat(path).catch((e: unknown) => errorDetail(e));
  if (typeof st === 'string') return `no RL run at ${shown(path)} (${st})`;
  if (st.isDirectory()) return undefined;
  const refuse = (why: string): string => `${shown(path)} is not a run: a link opens a run folder or a .jsonl run log, and this ${why}`;
  if (!st.isFile()) return refuse('is neither a folder nor a file');
  if (!path.toLowerCase().endsWith('.jsonl')) return refuse('is not a .jsonl file');
  const head = await readHead(path).catch((e: unknown) => errorDetail(e));
  if (typeof head === 'string') return `cannot read ${shown(path)} (${head})`;
  const why = recordProblem(head, head.length < HEAD_BYTES);
  return why === undefined ? undefined : refuse(why);
}

async function readHead(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Why the first non-blank line of `head` is not a JSON object record, else undefined (`whole`: the file ends within `head`). */
function recordProblem(head: Buffer, whole: boolean): string | undefined {
  const lines = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .split('\n');
  const at = lines.findIndex((l) => l.trim() !== '');
  if (at < 0) return 'file has no record';
  const first = lines[at]!.trim();
  if (!first.startsWith('{')) return 'file does not start with a JSON object';
  // a first line cut by the read is judged by its first byte
  if (at === lines.length - 1 && !whole) return undefined;
  try {
    const o = parseTolerant(first);
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? undefined : "file's first line is not a JSON object";
  } catch {
    return "file's first line is not JSON";
  }
}
