/**
 * Argument parsing for every `rlrb` command: each command declares its flags (a `FlagSpec`),
 * `util.parseArgs` reads them strictly (an unknown flag is a usage error naming it, a flag given
 * twice is refused unless it is `multiple`), and typed getters check the values. Usage errors
 * exit 2 with one line on stderr.
 */
import { parseArgs as nodeParseArgs } from 'node:util';
import { errorCode, errorMessage } from '../core/errorMessage';

/** Bad usage or an unreadable input: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** A flag that takes a value, a flag that takes none, or a value flag that may be given more than once (`--flag a --flag b`). */
export type FlagKind = 'string' | 'boolean' | { type: 'string'; multiple: true };

/** A command's flags: name (without `--`) to its kind. */
export type FlagSpec = Readonly<Record<string, FlagKind>>;

export interface ParsedArgs {
  positional: string[];
  /** each flag given once: its value (`true` for a boolean); a `multiple` flag: its last value */
  flags: Map<string, string | true>;
  /** every value of each `multiple` flag, in order */
  lists: Map<string, string[]>;
}

/** Flags every command accepts. */
const COMMON: FlagSpec = { help: 'boolean' };

const typeOf = (k: FlagKind | undefined): 'string' | 'boolean' | undefined => (typeof k === 'object' ? k.type : k);

/** The name of the command: the first argument that is not a flag. */
export function commandName(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/**
 * `--name value` becomes `--name=value` for a flag that takes a value unless the value starts
 * with `--`, so that a value with one leading dash (`--beta -0.4`, `--group -1`) reaches the
 * value check.
 */
function joinValues(argv: readonly string[], spec: FlagSpec): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const takesValue = a.startsWith('--') && !a.includes('=') && typeOf(spec[a.slice(2)]) === 'string';
    if (takesValue && next !== undefined && !next.startsWith('--')) {
      args.push(`${a}=${next}`);
      i++;
    } else args.push(a);
  }
  return args;
}

/** Parses `argv` against `spec`; `-h` is `--help`. */
export function parseArgs(argv: readonly string[], spec: FlagSpec, command = 'rlrb'): ParsedArgs {
  const all: FlagSpec = { ...COMMON, ...spec };
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, kind] of Object.entries(all))
    options[name] = { type: typeOf(kind)!, multiple: true, ...(name === 'help' ? { short: 'h' } : {}) };
  let parsed: ReturnType<typeof nodeParseArgs>;
  try {
    parsed = nodeParseArgs({ args: joinValues(argv, all), options, strict: true, allowPositionals: true });
  } catch (e) {
    throw new UsageError(parseErrorText(e, command, all));
  }
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  for (const [k, v] of Object.entries(parsed.values)) {
    const values = (Array.isArray(v) ? v : [v]) as (string | boolean)[];
    const multiple = typeof all[k] === 'object';
    if (values.length > 1 && !multiple) throw new UsageError(`--${k} is given twice`);
    const last = values[values.length - 1];
    if (last === true) flags.set(k, true);
    else if (typeof last === 'string') flags.set(k, last);
    if (multiple)
      lists.set(
        k,
        values.filter((x): x is string => typeof x === 'string'),
      );
  }
  return { positional: parsed.positionals, flags, lists };
}

function parseErrorText(e: unknown, command: string, spec: FlagSpec): string {
  const message = errorMessage(e);
  const known = Object.keys(spec)
    .map((k) => `--${k}`)
    .join(', ');
  const flag = /'(-{1,2}[^' <]+)/.exec(message)?.[1] ?? '';
  const code = errorCode(e);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown flag ${flag} for ${command} (its flags: ${known})`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return typeOf(spec[flag.replace(/^-+/, '')]) === 'boolean' ? `${flag} takes no value` : `${flag} needs a value`;
  return message.split('\n')[0]!;
}

/** Decimal digits with an optional sign: no `0x10`, `1e3`, `1_000` or spaces. */
const WHOLE = /^[+-]?\d+$/;
/** A decimal number, with an optional exponent: no hex, binary, octal, `Infinity` or spaces. */
const REAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The one number parser of every flag: `int` takes decimal digits only (`0x10` and `1e3` are
 * refused), else a decimal number; outside `min`/`max` is refused in one line naming the flag.
 */
export function parseNumber(name: string, v: string, opts: { int?: boolean; min?: number; max?: number } = {}): number {
  const n = Number(v);
  const shape = opts.int ? WHOLE.test(v) && Number.isSafeInteger(n) : REAL.test(v) && Number.isFinite(n);
  if (!shape || (opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) {
    const bounds = [opts.min !== undefined ? ` >= ${opts.min}` : '', opts.max !== undefined ? ` <= ${opts.max}` : '']
      .filter(Boolean)
      .join(' and');
    throw new UsageError(`--${name} must be ${opts.int ? 'a whole number' : 'a number'}${bounds}, not "${v}"`);
  }
  return n;
}

/** A number flag checked by `parseNumber`; undefined when absent. */
export function numberFlag(a: ParsedArgs, name: string, opts: { int?: boolean; min?: number; max?: number } = {}): number | undefined {
  const v = a.flags.get(name);
  if (v === undefined) return undefined;
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return parseNumber(name, v, opts);
}

export function stringFlag(a: ParsedArgs, name: string): string | undefined {
  const v = a.flags.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

/** Every value of a `multiple` flag (none: an empty list). */
export function listFlag(a: ParsedArgs, name: string): string[] {
  return a.lists.get(name) ?? [];
}

/** One of `allowed`, or a usage error naming the flag and what it takes. */
export function oneOf<T extends string>(a: ParsedArgs, name: string, allowed: readonly T[]): T | undefined {
  const v = stringFlag(a, name);
  return v === undefined ? undefined : choice(name, v, allowed);
}

export function choice<T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name} takes ${allowed.join('|')}, not "${v}"`);
  return v as T;
}
