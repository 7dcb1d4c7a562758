import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findTestFiles } from './find-tests';
import { repoRoot } from './paths';
import { brokenOutcome, readOutcome, SuiteOutcome } from './summary';

const mochaCli = path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js');
const reporter = path.join(__dirname, 'results-reporter.js');

/**
 * Runs `test/<name>/**\/*.test.ts` (compiled) in a mocha child process; it prints spec output as it goes.
 * `timeoutMs` is each test's and hook's limit; `env` is added to the tests' environment.
 */
export function runMochaSuite(name: string, timeoutMs = 20_000, env: Record<string, string> = {}): SuiteOutcome {
  const files = findTestFiles(name);
  if (files.length === 0) {
    console.log(`${name}: 0 tests`);
    return { name, passed: 0, failed: 0, pending: 0, durationMs: 0 };
  }
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), `convai-${name}-`));
  const resultsFile = path.join(tempDir, 'results.json');
  const started = Date.now();
  try {
    const mocha = spawnSync(
      process.execPath,
      [
        mochaCli,
        '--reporter',
        reporter,
        '--reporter-option',
        `output=${resultsFile}`,
        '--timeout',
        String(timeoutMs),
        ...files,
      ],
      { stdio: 'inherit', cwd: repoRoot, env: { ...process.env, ...env } },
    );
    const durationMs = Date.now() - started;
    if (mocha.error) return brokenOutcome(name, `mocha could not start: ${mocha.error.message}`, durationMs);
    const { outcome } = readOutcome(name, resultsFile, durationMs);
    // Mocha exits with the failure count; any other non-zero exit means it broke outside a test.
    if (!outcome.problem && outcome.failed === 0 && mocha.status !== 0) {
      return brokenOutcome(
        name,
        `mocha exited with ${mocha.signal ?? `code ${mocha.status}`} though no test failed`,
        durationMs,
      );
    }
    return outcome;
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true });
  }
}
