import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { repoRoot } from './paths';
import { SuiteOutcome } from './summary';

const eslintCli = path.join(repoRoot, 'node_modules', 'eslint', 'bin', 'eslint.js');

/** ESLint over the whole repository, counted as a single test. */
export function runLintSuite(): SuiteOutcome {
  const started = Date.now();
  const eslint = spawnSync(process.execPath, [eslintCli, '.'], { cwd: repoRoot, encoding: 'utf8' });
  const durationMs = Date.now() - started;
  const passed = eslint.status === 0;
  console.log(`  ${passed ? '✔' : '✖'} eslint . (${durationMs} ms)`);
  if (!passed) {
    console.log(eslint.error ? `eslint could not start: ${eslint.error.message}` : `${eslint.stdout}${eslint.stderr}`);
  }
  return { name: 'lint', passed: passed ? 1 : 0, failed: passed ? 0 : 1, pending: 0, durationMs };
}
