// The command-line tool as a child process, for the CLI contract tests.
import { spawn } from 'node:child_process';
import * as path from 'node:path';

/** The bundled CLI: CONVAI_CLI when set (a build elsewhere), else the repository's dist/cli.js. */
export const CLI = process.env.CONVAI_CLI ?? path.resolve(__dirname, '../../../dist/cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI (`program`: another build of it, such as an installed package's bin) with the environment of this process less CONVAI_TOKEN and CONVAI_URL, plus `env` (an undefined
 * value leaves a variable out). Asynchronous on purpose: the service answers from this process, so a synchronous
 * spawn would deadlock.
 */
export function runCli(args: string[], cwd: string, env: Record<string, string | undefined>, program = CLI): Promise<Run> {
  const childEnv = { ...process.env };
  delete childEnv.CONVAI_TOKEN;
  delete childEnv.CONVAI_URL;
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [program, ...args], { cwd, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
