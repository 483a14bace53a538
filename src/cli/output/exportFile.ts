/**
 * An export written to a file: into `.NAME.rlrb-PID.partial` beside it, renamed into place when
 * complete; on any failure or a stop the partial file is removed. A folder that does not exist or
 * cannot be written is a usage error (one line naming `--out`, exit 2); a write that fails on the
 * way (a full disk) rejects with one line naming the file.
 */
import { open, rename, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ExportSink } from '../../core/export/sink';
import { errorCode, errorDetail } from '../../core/errorMessage';
import { UsageError } from '../args';

/** How the partial file is opened; a test gives one whose writes fail. */
export type OpenFile = (path: string, flags: string) => Promise<Pick<FileHandle, 'write' | 'close'>>;

const defaultOpen: OpenFile = (path, flags) => open(path, flags);

/** The temporary file an export to `out` writes first. */
export const partialPath = (out: string): string => join(dirname(out), `.${basename(out)}.rlrb-${process.pid}.partial`);

async function checkFolder(out: string): Promise<void> {
  const dir = dirname(out);
  const s = await stat(dir).catch((e: unknown) => {
    throw new UsageError(`--out ${out}: the folder ${dir} cannot be used (${errorDetail(e)})`);
  });
  if (!s.isDirectory()) throw new UsageError(`--out ${out}: ${dir} is not a folder`);
}

/** Every byte of `chunk` to `fh` (a write may take fewer). */
async function writeAll(fh: Pick<FileHandle, 'write'>, chunk: Buffer): Promise<void> {
  for (let done = 0; done < chunk.length;) {
    const { bytesWritten } = await fh.write(chunk, done, chunk.length - done);
    done += bytesWritten;
  }
}

/** Runs `produce` into a sink over the partial file of `out`, then renames it to `out`. */
export async function exportToFile<T>(
  out: string,
  produce: (sink: ExportSink) => Promise<T>,
  openFile: OpenFile = defaultOpen,
): Promise<T> {
  await checkFolder(out);
  const tmp = partialPath(out);
  let fh: Pick<FileHandle, 'write' | 'close'>;
  try {
    fh = await openFile(tmp, 'wx');
  } catch (e) {
    if (errorCode(e) === 'EEXIST') throw new UsageError(`--out ${out}: ${tmp} exists (another export?)`);
    throw new UsageError(`--out ${out}: cannot write in ${dirname(out)} (${errorDetail(e)})`);
  }
  let closed = false;
  try {
    const sink: ExportSink = {
      write: (chunk) =>
        writeAll(fh, chunk).catch((e: unknown) => {
          throw new Error(`cannot write ${out}: ${errorDetail(e)}`);
        }),
    };
    const result = await produce(sink);
    closed = true;
    await fh.close();
    await rename(tmp, out);
    return result;
  } catch (e) {
    if (!closed) await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
}
