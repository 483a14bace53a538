/** `rlrb hub ls` and `rlrb download` (filled in by the Hub work). */
import type { ParsedArgs } from './cli';

export async function runHubCommand(_a: ParsedArgs): Promise<number> {
  process.stderr.write('rlrb: hub commands are not built yet\n');
  return 1;
}

export async function runDownloadCommand(_a: ParsedArgs): Promise<number> {
  process.stderr.write('rlrb: download is not built yet\n');
  return 1;
}
