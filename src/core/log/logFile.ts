/**
 * How a log file is opened for reading, every time its bytes are read: non-blocking, so that a
 * FIFO put in its place cannot hang the reader; only a regular file is read (a FIFO, a device
 * such as /dev/zero or a socket is refused naming it); and, inside a read scope (the MCP server's
 * tool calls), only when the file actually opened lies under one of the scope's roots. The check
 * is made on the opened descriptor, so a log replaced by a link between two reads is caught at
 * the second read.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { constants } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** What a read scope allows: files whose real path is under one of these real paths. */
export interface ReadScope {
  roots: readonly string[];
}

const scope = new AsyncLocalStorage<ReadScope>();

/** Runs `f` with every log it opens confined to `roots` (real paths). */
export function withReadRoots<T>(roots: readonly string[], f: () => T): T {
  return scope.run({ roots }, f);
}

/** The roots of the current read scope, or undefined outside one. */
export function readRoots(): readonly string[] | undefined {
  return scope.getStore()?.roots;
}

/** A file that may not be read: not a regular file, or outside the read scope's roots. */
export class LogAccessError extends Error {}

/** Whether the real path `p` is `root` or inside it. */
export function isUnder(p: string, root: string): boolean {
  const r = relative(root, p);
  return r === '' || (!isAbsolute(r) && r.split(sep)[0] !== '..');
}

/** What a non-regular file is, in words. */
export function fileKind(st: {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
}): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** The real path of the file open as `fh`: its /proc entry on Linux, else the path's real path when it is the same file. */
async function realPathOf(fh: FileHandle, path: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${fh.fd}`);
  } catch {
    const real = await realpath(path);
    const [a, b] = await Promise.all([fh.stat(), stat(real)]);
    if (a.dev !== b.dev || a.ino !== b.ino) throw new LogAccessError(`${path} changed while it was opened`);
    return real;
  }
}

/** Opens `path` to read a log: a regular file, inside the read scope's roots when there is a scope. */
export async function openLog(path: string): Promise<FileHandle> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new LogAccessError(`${path} is ${fileKind(st)}, not a log file: refused`);
    const roots = readRoots();
    if (roots !== undefined) {
      const real = await realPathOf(fh, path);
      if (!roots.some((r) => isUnder(real, r))) throw new LogAccessError(`${path} is a link to a file outside the roots: refused`);
    }
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}
