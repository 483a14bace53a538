/** Reads a served folder into the files of a repo: sizes, git blob ids, and the LFS and Xet hashes. */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { EmulatorFile } from './types';

/** Names the Hub's default .gitattributes stores with LFS. */
const LFS_NAMES = /\.(distcp|safetensors|pt|pth|bin|ckpt|gz|zip|tar|metadata)$|^\.metadata$/;
/** Files this large go to LFS whatever their name. */
const LFS_THRESHOLD = 10 * 1024 * 1024;

function gitBlobSha1(buf: Buffer): string {
  return createHash('sha1').update(`blob ${buf.length}\0`).update(buf).digest('hex');
}

function hashFile(abs: string, size: number): { sha1: string; sha256: string } {
  const s1 = createHash('sha1').update(`blob ${size}\0`);
  const s256 = createHash('sha256');
  if (size < 64 << 20) {
    const b = readFileSync(abs);
    return { sha1: s1.update(b).digest('hex'), sha256: s256.update(b).digest('hex') };
  }
  const h = openSync(abs, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  let pos = 0;
  for (;;) {
    const n = readSync(h, buf, 0, buf.length, pos);
    if (n === 0) break;
    s1.update(buf.subarray(0, n));
    s256.update(buf.subarray(0, n));
    pos += n;
  }
  closeSync(h);
  return { sha1: s1.digest('hex'), sha256: s256.digest('hex') };
}

/** One file as the repo holds it (an LFS file's git blob is its pointer file). */
function repoFile(root: string, abs: string, size: number, lfsPaths: RegExp | undefined): EmulatorFile {
  const path = relative(root, abs).split(sep).join('/');
  const name = path.slice(path.lastIndexOf('/') + 1);
  const { sha1, sha256 } = hashFile(abs, size);
  const lfs = LFS_NAMES.test(name) || size >= LFS_THRESHOLD || lfsPaths?.test(path) === true;
  const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
  return {
    path,
    abs,
    size,
    oid: lfs ? gitBlobSha1(Buffer.from(pointer)) : sha1,
    lfs: lfs ? sha256 : undefined,
    xetHash: lfs ? createHash('sha256').update(`xet:${sha256}`).digest('hex') : undefined,
  };
}

/** Every file under `root`, in sorted path order. */
export function scan(root: string, lfsPaths?: RegExp): EmulatorFile[] {
  const out: EmulatorFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs);
      else out.push(repoFile(root, abs, st.size, lfsPaths));
    }
  };
  walk(root);
  return out;
}
