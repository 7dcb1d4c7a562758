// @ts-check
// `npm run test:electron`: the integration tests in desktop VS Code, for machines that can download it
// (@vscode/test-electron fetches it from Microsoft). `npm test` runs the same tests in code-server instead.
// On a machine without a display, run it under xvfb-run.
import { runTests } from '@vscode/test-electron';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ensureNodeModules, repoRoot, run } from './ensure.mjs';

ensureNodeModules();
run(process.execPath, [path.join(repoRoot, 'scripts', 'build.mjs')]);

// The harness's compiled modules, so that results are read and reported exactly as `npm test` does.
const require = createRequire(import.meta.url);
/** @type {typeof import('../test/harness/local-service.js')} */
const localService = require('../out/test/harness/local-service.js');
/** @type {typeof import('../test/harness/summary.js')} */
const summary = require('../out/test/harness/summary.js');
/** @type {typeof import('../test/harness/results-file.js')} */
const resultsFile = require('../out/test/harness/results-file.js');

const tempDir = mkdtempSync(path.join(os.tmpdir(), 'convai-electron-'));
const resultsPath = path.join(tempDir, 'results.json');
const workspace = path.join(tempDir, 'workspace');
mkdirSync(workspace);

const started = Date.now();
const service = await localService.startLocalService();
try {
  await runTests({
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
    extensionTestsEnv: localService.extensionTestEnv(service, resultsPath),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (error) {
  // VS Code could not start or exited abnormally; a missing results file below makes that a failure.
  console.error(error instanceof Error ? error.message : error);
} finally {
  await service.close();
}

const { outcome, results } = summary.readOutcome('integration (electron)', resultsPath, Date.now() - started);
rmSync(tempDir, { recursive: true, force: true });
if (results) console.log(resultsFile.describeResults(results).join('\n'));
if (outcome.problem) console.log(`  ✖ ${outcome.problem}`);
console.log(summary.summaryLines([outcome]).join('\n'));
process.exit(summary.exitCode([outcome]));
