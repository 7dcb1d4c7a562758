/**
 * What every subcommand of the command-line tool is: a name, its usage line,
 * its options for node:util parseArgs, and a run function given the parsed
 * arguments. main.ts dispatches on a table of these, so a new subcommand is
 * one more entry there.
 */
import path from 'node:path';
import type { ParseArgsConfig } from 'node:util';

/** How a person runs the tool: `convai` when installed from its package (npm's bin of that name), else the bundle. */
export const PROGRAM = path.basename(process.argv[1] ?? '') === 'convai' ? 'convai' : 'node dist/cli.js';

/**
 * 0 success; 1 the work failed (conflict, refused push, failed request, field not taken, failed prompt test); 2 the
 * tool was called wrongly or a suite cannot run; 130 stopped by Ctrl+C, as shells report a process SIGINT ended.
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A call the tool cannot act on (unknown flag, missing argument, not a pulled folder): exit 2. */
export class UsageError extends Error {
  /** `details`: lines written under the message, one each (the problems it names). */
  constructor(
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * Where a command writes. Each `out` or `err` is one line for a person: the writer shows any line break, control or
 * bidirectional character in it escaped, so no name or answer can start a line, move the cursor, recolour or reorder
 * a terminal or a CI log. A `document` is written whole, its own line breaks and tabs kept.
 */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** A document on stdout: JSON, a Markdown comment, a chart. */
  document(text: string): void;
}

/** Where a command runs: injected, so the core's pure parts stay free of process globals. */
export interface CliContext extends Output {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Calls `stop` on the first Ctrl+C instead of ending the process, until the returned function is called; for a
   * command that can stop cleanly. Absent where there is no terminal to interrupt.
   */
  onInterrupt?: (stop: () => void) => () => void;
  /** Counts of long work, shown while it runs; absent unless stderr is a terminal, so logs and pipes get none. */
  progress?: Progress;
}

/** A line of progress that replaces the one before; cleared before the command's own lines. */
export interface Progress {
  show(line: string): void;
  clear(): void;
}

export type Options = NonNullable<ParseArgsConfig['options']>;

/** A parsed option: a flag, a value, or (for a `multiple` option) a list of them. */
export type ArgValue = string | boolean | Array<string | boolean> | undefined;

export interface ParsedArgs {
  values: Record<string, ArgValue>;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for the tool's help. */
  summary: string;
  /** The arguments after the command's name, e.g. `[--json] <folder>`. */
  usage: string;
  /** Lines explaining the options, for `<command> --help`. */
  details: string[];
  options: Options;
  run(args: ParsedArgs, context: CliContext): Promise<ExitCode>;
}
