/**
 * A command's arguments as node:util parseArgs reads them, with two rules of
 * this tool on top, the same for every command: a negative number is a
 * flag's value, for the flag's own check to judge, and a single-valued flag
 * given twice with different values is a usage error, not last-wins.
 */
import { parseArgs } from 'node:util';
import { messageOf } from '../core/text';
import { PROGRAM, UsageError, type ArgValue, type Command, type Options, type ParsedArgs } from './command';

/** node:util's messages end with advice on `--`; the first sentence and the usage line say more here. */
function parseProblem(error: unknown, command: Command): UsageError {
  const first = messageOf(error).split(/\.\s/)[0]?.replace(/\.$/, '') ?? '';
  return new UsageError(`${command.name}: ${first}; usage: ${PROGRAM} ${command.name} ${command.usage}`);
}

function takesValue(arg: string, options: Options): boolean {
  if (arg.startsWith('--')) return options[arg.slice(2)]?.type === 'string';
  return (
    /^-[^-]$/.test(arg) &&
    Object.values(options).some((option) => option.short === arg.slice(1) && option.type === 'string')
  );
}

/**
 * `--tenant -1` as `--tenant=-1` (`-t -1` as `-t-1`). parseArgs refuses a value that starts with a dash as ambiguous (a forgotten value
 * before the next flag?), but no flag of this tool is a digit, so `-` and a digit can only be a number; the flag's own
 * check then says what it takes, the same as for `--tenant=-1`.
 */
function negativeValuesJoined(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const next = args[i + 1];
    if (arg === '--') return [...joined, ...args.slice(i)];
    if (next !== undefined && /^-\d/.test(next) && takesValue(arg, options)) {
      joined.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** A flag given twice keeps neither silently: a script that adds `--shard 2/4` to a line holding `--shard 1/4` runs the wrong part. */
function refuseRepeats(
  tokens: NonNullable<ReturnType<typeof parseArgs>['tokens']>,
  options: Options,
  command: Command,
): void {
  const seen = new Map<string, string | boolean>();
  for (const token of tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple) continue;
    const value = token.value ?? true;
    const first = seen.get(token.name);
    if (first === undefined) seen.set(token.name, value);
    else if (first !== value)
      throw new UsageError(
        `${command.name}: --${token.name} is given twice, as "${String(first)}" and "${String(value)}"; give it once.`,
      );
  }
}

export function parseArguments(args: readonly string[], command: Command): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: negativeValuesJoined(args, command.options),
      options: command.options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    throw parseProblem(error, command);
  }
  refuseRepeats(parsed.tokens ?? [], command.options, command);
  return { values: parsed.values, positionals: parsed.positionals };
}

/** `--format`, checked before anything is read or sent: one of the command's formats, the first when not given. */
export function formatOption<F extends string>(
  value: ArgValue,
  formats: readonly [F, ...F[]],
  command: string,
  alternative = '',
): F {
  if (value === undefined) return formats[0];
  const format = formats.find((f) => f === value);
  if (!format)
    throw new UsageError(
      `--format "${String(value)}" is not a format of ${command}: give one of ${formats.join(', ')}${alternative}.`,
    );
  return format;
}
