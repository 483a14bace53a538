/** What one `rlrb` command is: a new command is one file exporting a `Command` and one line in `COMMANDS` (src/cli/main.ts). */
import type { FlagSpec, ParsedArgs } from './args';

export interface Command {
  /** one line, without `rlrb `: the command, its arguments and its flags, as `--help` and the usage errors print it */
  usage: string;
  /** a note `--help` prints under the usage line */
  about?: string;
  /** every flag it takes (`--help` is common to all) */
  flags: FlagSpec;
  /** the exit code: 0 success, 1 failure; a `UsageError` thrown is exit 2 */
  run(a: ParsedArgs): number | Promise<number>;
}
