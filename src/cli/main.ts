/**
 * The command-line tool's dispatch: picks the subcommand from the table,
 * parses its arguments, runs it, and turns any error into an exit code and
 * one message on stderr.
 */
import { DEFAULT_TIMEOUT_MS } from '../core/client';
import { inertLine, inertLines } from '../core/plain-text';
import { parseArguments } from './arguments';
import { EXIT, PROGRAM, UsageError, type CliContext, type Command, type ExitCode } from './command';
import { COMMANDS, type CommandEntry } from './commands';
import { failure, redactor } from './failure';
import { CA_VARIABLE, TIMEOUT_SECONDS, TIMEOUT_VARIABLE, TOKEN_VARIABLE } from './service';
import { VERSION } from './version';

const HELP_FLAGS = ['--help', '-h'];
const VERSION_FLAGS = ['--version', '-V'];

function toolHelp(entries: readonly CommandEntry[]): string[] {
  const commands = entries.map((entry) => entry.load());
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `Usage: ${PROGRAM} <command> [options] <arguments>`,
    '',
    'Tenant folders (configuration as code) and prompt test suites from a terminal or CI.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `The token is read from the environment variable ${TOKEN_VARIABLE}, never from an argument.`,
    `${TIMEOUT_VARIABLE}: the deadline of one request, in seconds from ${TIMEOUT_SECONDS.min} to ${TIMEOUT_SECONDS.max} (default ${DEFAULT_TIMEOUT_MS / 1000}).`,
    `${CA_VARIABLE}: a PEM file of CA certificates to trust as well, for a service with a private or company CA.`,
    'Requests go straight to the service: no proxy is used, whatever HTTPS_PROXY, HTTP_PROXY or NO_PROXY say.',
    'Exit codes: 0 success; 1 a conflict, a refused push, a failed request, a field the service did not take or a failed prompt test; 2 a usage error or a suite that cannot run; 130 stopped by Ctrl+C.',
    `Run "${PROGRAM} <command> --help" or "${PROGRAM} help <command>" for a command's options, "${PROGRAM} --version" for the version.`,
  ];
}

function commandHelp(command: Command): string[] {
  return [
    `Usage: ${PROGRAM} ${command.name} ${command.usage}`,
    '',
    `${command.summary[0]?.toUpperCase() ?? ''}${command.summary.slice(1)}.`,
    '',
    ...command.details.map((d) => `  ${d}`),
  ];
}

function commandNamed(name: string, commands: readonly CommandEntry[]): Command {
  const entry = commands.find((c) => c.name === name);
  if (!entry)
    throw new UsageError(
      `"${name}" is not a command; use one of ${commands.map((c) => c.name).join(', ')} (${PROGRAM} --help).`,
    );
  return entry.load();
}

/** `help`, `--help`: the tool's help; `help <command>`: the command's, as `<command> --help` prints it. */
function help(topics: readonly string[], commands: readonly CommandEntry[]): string[] {
  const [topic, ...extra] = topics;
  if (topic === undefined) return toolHelp(commands);
  if (extra.length > 0)
    throw new UsageError(
      `help takes one command, but got also ${extra.map((e) => `"${e}"`).join(', ')}: ${PROGRAM} help <command>.`,
    );
  return commandHelp(commandNamed(topic, commands));
}

async function dispatch(
  argv: readonly string[],
  context: CliContext,
  commands: readonly CommandEntry[],
): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    for (const line of toolHelp(commands)) context.err(line);
    return EXIT.usage;
  }
  if (VERSION_FLAGS.includes(name)) {
    context.out(VERSION);
    return EXIT.ok;
  }
  if (HELP_FLAGS.includes(name) || name === 'help') {
    for (const line of help(rest, commands)) context.out(line);
    return EXIT.ok;
  }
  const command = commandNamed(name, commands);
  // Help wins over every other argument, so `push --help` can never push.
  if (rest.some((arg) => HELP_FLAGS.includes(arg))) {
    for (const line of commandHelp(command)) context.out(line);
    return EXIT.ok;
  }
  return command.run(parseArguments(rest, command), context);
}

/**
 * Runs the tool; never throws, and writes nothing that holds the token, and no character from a name, a file, the
 * service or an AI that a terminal would act on: every command writes through here (the token is hidden in the text
 * as received, then what acts is escaped). A document's escapes are JSON's own `\uXXXX`, so `--json` reads back as
 * the same data.
 */
export async function main(
  argv: readonly string[],
  context: CliContext,
  commands: readonly CommandEntry[] = COMMANDS,
): Promise<ExitCode> {
  const redact = redactor(context.env[TOKEN_VARIABLE]?.trim());
  const line = (text: string): string => inertLine(redact(text));
  const safe: CliContext = {
    ...context,
    out: (text) => context.out(line(text)),
    err: (text) => context.err(line(text)),
    document: (text) => context.document(inertLines(redact(text))),
    ...(context.progress
      ? {
          progress: {
            show: (text: string) => context.progress?.show(line(text)),
            clear: () => context.progress?.clear(),
          },
        }
      : {}),
  };
  try {
    return await dispatch(argv, safe, commands);
  } catch (error) {
    const { code, message } = failure(error);
    safe.err(message);
    if (error instanceof UsageError) for (const detail of error.details) safe.err(detail);
    return code;
  }
}
