/**
 * Writes a file whole or not at all: the bytes go to a temporary name beside it, which is
 * flushed and renamed into place once the writer is done; on an error or a cancel the
 * temporary file is removed and the chosen name is left as it was.
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { writableSink } from '../../core/export/sink';
import type { ExportSink } from '../../core/export/sink';

/** The temporary name `path` is written under (a dot file beside it). */
export function partialName(path: string): string {
  return join(dirname(path), `.${basename(path)}.rlrb-${randomBytes(4).toString('hex')}.partial`);
}

function finish(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

async function fsyncFile(path: string): Promise<void> {
  const fh = await open(path, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

export async function writeAtomically<T>(path: string, write: (sink: ExportSink) => Promise<T>): Promise<T> {
  const tmp = partialName(path);
  const stream = createWriteStream(tmp, { flags: 'wx' });
  try {
    const result = await write(writableSink(stream));
    await finish(stream);
    await fsyncFile(tmp);
    await rename(tmp, path);
    return result;
  } catch (e) {
    stream.destroy();
    await rm(tmp, { force: true });
    throw e;
  }
}
