/**
 * `rlrb`: the command line over src/core. Every command is one entry of `COMMANDS` (its usage
 * line, its flags, its handler), parsed by the one parser of src/cli/args. Exit 0 on success,
 * 1 on failure, 2 on bad usage.
 */
import { optionsHelp } from './open/indexOptions';
import { errorMessage } from '../core/errorMessage';
import { UsageError, commandName, parseArgs } from './args';
import type { Command } from './command';
import { CACHE } from './commands/cache';
import { CHECK } from './commands/check';
import { COMPARE } from './commands/compare';
import { DEMO } from './commands/demo';
import { EVALS } from './commands/evals';
import { EXPORT } from './commands/export';
import { DOWNLOAD, HUB } from './commands/hub';
import { REPORT } from './commands/report';
import { RUNS } from './commands/runs';
import { SHOW } from './commands/show';
import { TAGS } from './commands/tags';
import { MCP } from './commands/mcp';
import { WATCH } from './commands/watch';
import { safeLine, writeErr } from './output/safeText';

/** Every command; a new command is one file exporting a `Command` and one line here. */
const COMMANDS: Readonly<Record<string, Command>> = {
  demo: DEMO,
  report: REPORT,
  show: SHOW,
  compare: COMPARE,
  runs: RUNS,
  export: EXPORT,
  tags: TAGS,
  evals: EVALS,
  hub: HUB,
  download: DOWNLOAD,
  check: CHECK,
  cache: CACHE,
  mcp: MCP,
  watch: WATCH,
};

/** The version in package.json, put in by the build (esbuild `define`); `dev` when run from source. */
declare const RLRB_VERSION: string | undefined;
const VERSION = typeof RLRB_VERSION === 'string' ? RLRB_VERSION : 'dev';

function help(): string {
  const lines = Object.values(COMMANDS).flatMap((c) => [`  rlrb ${c.usage}`, ...(c.about ? [`      ${c.about}`] : [])]);
  return [
    'rlrb: RL Run Browser on the command line',
    '',
    ...lines,
    '  rlrb --version',
    '',
    "A run is a folder, a .jsonl log, or hub:owner/name[@revision] (the Hub repo's logs read in place, not downloaded).",
    'Exit codes: 0 success (warnings included), 1 failure, 2 bad usage or an unreadable file.',
    '',
    ...optionsHelp(),
    '',
  ].join('\n');
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const cmd = commandName(argv);
  if (cmd === undefined || cmd === 'help') {
    const a = parseArgs(argv, { version: 'boolean' });
    if (a.flags.has('version')) {
      process.stdout.write(`rlrb ${VERSION}\n`);
      return 0;
    }
    process.stdout.write(help());
    return cmd === 'help' || a.flags.has('help') ? 0 : 2;
  }
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (!command) throw new UsageError(`unknown command "${cmd}" (try rlrb --help)`);
  const a = parseArgs(argv, command.flags, `rlrb ${cmd}`);
  if (a.flags.has('help')) {
    const options = Object.hasOwn(command.flags, 'horizon') ? `\n${optionsHelp().join('\n')}\n` : '';
    process.stdout.write(`usage: rlrb ${command.usage}\n${command.about ? `  ${command.about}\n` : ''}${options}`);
    return 0;
  }
  return await command.run(a);
}

export async function main(argv: readonly string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    writeErr(`rlrb: ${safeLine(errorMessage(e))}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}
