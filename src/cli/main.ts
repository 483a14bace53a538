/**
 * `rlrb`: the command line over src/core. Every command is one entry of `COMMANDS` (its usage
 * line, its flags, its handler), parsed by the one parser of src/cli/args. Exit 0 on success,
 * 1 on failure, 2 on bad usage.
 */
import { optionsHelp } from './open/indexOptions';
import { errorMessage } from '../core/errorMessage';
import { UsageError, commandName, parseArgs } from './args';
import type { Command } from './command';
import { safeLine, writeErr } from './output/safeText';

/**
 * Every command, loaded when it runs: a command reads only the code it needs (a local report
 * never loads the Hub client, the MCP server or the Parquet writer), which is most of a short
 * command's time. A new command is one file exporting a `Command` and one line here.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  demo: async () => (await import('./commands/demo')).DEMO,
  report: async () => (await import('./commands/report')).REPORT,
  show: async () => (await import('./commands/show')).SHOW,
  compare: async () => (await import('./commands/compare')).COMPARE,
  runs: async () => (await import('./commands/runs')).RUNS,
  export: async () => (await import('./commands/export')).EXPORT,
  tags: async () => (await import('./commands/tags')).TAGS,
  evals: async () => (await import('./commands/evals')).EVALS,
  hub: async () => (await import('./commands/hub')).HUB,
  download: async () => (await import('./commands/hub')).DOWNLOAD,
  check: async () => (await import('./commands/check')).CHECK,
  cache: async () => (await import('./commands/cache')).CACHE,
  mcp: async () => (await import('./commands/mcp')).MCP,
  watch: async () => (await import('./commands/watch')).WATCH,
};

/** The version in package.json, put in by the build (esbuild `define`); `dev` when run from source. */
declare const RLRB_VERSION: string | undefined;
const VERSION = typeof RLRB_VERSION === 'string' ? RLRB_VERSION : 'dev';

async function help(): Promise<string> {
  const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
  const lines = commands.flatMap((c) => [`  rlrb ${c.usage}`, ...(c.about ? [`      ${c.about}`] : [])]);
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
    process.stdout.write(await help());
    return cmd === 'help' || a.flags.has('help') ? 0 : 2;
  }
  const load = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (!load) throw new UsageError(`unknown command "${cmd}" (try rlrb --help)`);
  const command = await load();
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
