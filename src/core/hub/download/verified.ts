/** The record of files verified and put in place, so that a later run skips them without hashing. */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DownloadItem } from './types';
import { contentId } from './digest';

interface Record {
  oid: string;
  size: number;
  mtimeMs: number;
}

export class VerifiedStore {
  /** one write at a time: workers finish together */
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly records: { [target: string]: Record },
  ) {}

  static async load(stateDir: string): Promise<VerifiedStore> {
    const path = join(stateDir, 'verified.json');
    let records: { [target: string]: Record } = {};
    try {
      records = JSON.parse(await readFile(path, 'utf8')) as typeof records;
    } catch {
      records = {};
    }
    return new VerifiedStore(path, records);
  }

  /** The file on disk is the one verified earlier (same content id, size and mtime). */
  matches(it: DownloadItem, size: number, mtimeMs: number): boolean {
    const rec = this.records[it.target];
    return rec !== undefined && rec.oid === contentId(it) && rec.size === size && rec.mtimeMs === mtimeMs;
  }

  record(it: DownloadItem, size: number, mtimeMs: number): void {
    this.records[it.target] = { oid: contentId(it), size, mtimeMs };
  }

  save(): Promise<void> {
    this.saving = this.saving.then(async () => {
      await writeFile(this.path + '.tmp', JSON.stringify(this.records));
      await rename(this.path + '.tmp', this.path);
    });
    return this.saving;
  }
}
