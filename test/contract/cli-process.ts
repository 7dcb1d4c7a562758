// The command-line tool as a child process, for the CLI contract tests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';

/** The bundled CLI: CONVAI_CLI when set (a build elsewhere), else the repository's dist/cli.js. */
export const CLI = process.env.CONVAI_CLI ?? path.resolve(__dirname, '../../../dist/cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A started CLI: the process, to signal it, and its outcome. */
export interface StartedCli {
  child: ChildProcessWithoutNullStreams;
  done: Promise<Run>;
}

/**
 * Starts the CLI (`program`: another build of it, such as an installed package's bin) with the environment of this process less CONVAI_TOKEN and CONVAI_URL, plus `env` (an undefined
 * value leaves a variable out). Asynchronous on purpose: the service answers from this process, so a synchronous
 * spawn would deadlock.
 */
export function startCli(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  program = CLI,
): StartedCli {
  const childEnv = { ...process.env };
  delete childEnv.CONVAI_TOKEN;
  delete childEnv.CONVAI_URL;
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value;
  const child = spawn(process.execPath, [program, ...args], { cwd, env: childEnv });
  const done = new Promise<Run>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/** Runs the CLI to its end; see startCli. */
export function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  program = CLI,
): Promise<Run> {
  return startCli(args, cwd, env, program).done;
}

/**
 * Runs the CLI until the service has received its first test_prompt (`tested`, asked before the start so that request
 * cannot be missed), then sends it `signal` and waits for its end: a run stopped while it is under way.
 */
export async function signalledWhileTesting(
  tested: () => Promise<void>,
  signal: NodeJS.Signals,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<Run> {
  const arrived = tested();
  const started = startCli(args, cwd, env);
  await arrived;
  started.child.kill(signal);
  return started.done;
}
