/**
 * Argument parsing for `rlrb`: each command declares its flags, `util.parseArgs` reads
 * them strictly (an unknown flag is a usage error naming it), and typed getters check
 * the values. Usage errors exit 2 with one line on stderr.
 */
import { parseArgs as nodeParseArgs } from 'node:util';

export class UsageError extends Error {}

/** A command's flags: name (without `--`) to whether it takes a value. */
export type FlagSpec = Readonly<Record<string, 'string' | 'boolean'>>;

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** Flags every command accepts. */
const COMMON: FlagSpec = { help: 'boolean' };

/** The name of the command: the first argument that is not a flag. */
export function commandName(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/**
 * Parses `argv` against `spec`. `--name value` where the value starts with one dash
 * (a negative number) is taken as the value, as before; `-h` is `--help`.
 */
export function parseArgs(argv: readonly string[], spec: FlagSpec, command = 'rlrb'): ParsedArgs {
  const all: FlagSpec = { ...COMMON, ...spec };
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, type] of Object.entries(all)) options[name] = { type, ...(name === 'help' ? { short: 'h' } : {}) };
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (a.startsWith('--') && !a.includes('=') && all[a.slice(2)] === 'string' && next !== undefined && !next.startsWith('--')) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError(parseErrorText(e as Error & { code?: string }, command, all));
  }
  const flags = new Map<string, string | true>();
  for (const [k, v] of Object.entries(parsed.values)) {
    if (v === true) flags.set(k, true);
    else if (typeof v === 'string') flags.set(k, v);
  }
  return { positional: parsed.positionals, flags };
}

function parseErrorText(e: Error & { code?: string }, command: string, spec: FlagSpec): string {
  const known = Object.keys(spec)
    .map((k) => `--${k}`)
    .join(', ');
  const flag = /'(-{1,2}[^' <]+)/.exec(e.message)?.[1] ?? '';
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag} for ${command} (its flags: ${known})`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return spec[flag.replace(/^-+/, '')] === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument (${e.message})`;
  return e.message.split('\n')[0]!;
}

export function numberFlag(a: ParsedArgs, name: string, opts: { int?: boolean; min?: number; max?: number } = {}): number | undefined {
  const v = a.flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (
    v === true ||
    v.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.int && !Number.isSafeInteger(n)) ||
    (opts.min !== undefined && n < opts.min) ||
    (opts.max !== undefined && n > opts.max)
  ) {
    const bounds = [opts.min !== undefined ? ` >= ${opts.min}` : '', opts.max !== undefined ? ` <= ${opts.max}` : '']
      .filter(Boolean)
      .join(' and');
    throw new UsageError(`--${name} must be ${opts.int ? 'a whole number' : 'a number'}${bounds}, not "${String(v)}"`);
  }
  return n;
}

export function stringFlag(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}
