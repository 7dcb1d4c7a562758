import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './paths';
import { SuiteOutcome } from './summary';

/** A check of the whole repository, counted as a single test: a command and the arguments it runs with. */
interface Check {
  title: string;
  cli: string;
  args: readonly string[];
}

const checks: readonly Check[] = [
  { title: 'eslint .', cli: path.join(repoRoot, 'node_modules', 'eslint', 'bin', 'eslint.js'), args: ['.'] },
  {
    title: 'prettier --check (120 columns, .prettierrc.json)',
    cli: path.join(repoRoot, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
    // The code: Markdown, JSON and fixtures keep the layout their readers see.
    args: ['--check', '--log-level', 'warn', '**/*.{ts,js,mjs}'],
  },
];

/** ESLint and Prettier over the whole repository, each counted as a test. */
export function runLintSuite(): SuiteOutcome {
  const started = Date.now();
  let passed = 0;
  for (const check of checks) {
    const checkStarted = Date.now();
    const run = spawnSync(process.execPath, [check.cli, ...check.args], { cwd: repoRoot, encoding: 'utf8' });
    const ok = run.status === 0;
    console.log(`  ${ok ? '✔' : '✖'} ${check.title} (${Date.now() - checkStarted} ms)`);
    if (ok) passed++;
    else console.log(run.error ? `${check.title} could not start: ${run.error.message}` : `${run.stdout}${run.stderr}`);
  }
  return { name: 'lint', passed, failed: checks.length - passed, pending: 0, durationMs: Date.now() - started };
}
