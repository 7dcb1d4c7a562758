// The integration suite: the compiled test/integration tests run inside a real VS Code (code-server), driven by
// headless Chromium, against the local service. VS Code reports only through the results file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeServer, developmentPayload, openWorkbench, startCodeServer, Workbench, workbenchUrl } from './code-server';
import { findTestFiles } from './find-tests';
import { RunningService } from '../service/server';
import { extensionTestEnv, startLocalService } from './local-service';
import { compiledTestsDir, repoRoot, testOutputDir } from './paths';
import { describeResults } from './results-file';
import { brokenOutcome, readOutcome, SuiteOutcome } from './summary';
import { waitForFile } from './wait';

const testsTimeoutMs = 8 * 60_000;
const codeServerLog = path.join(testOutputDir, 'integration-code-server.log');
const browserConsoleLog = path.join(testOutputDir, 'integration-browser-console.log');

async function runInVsCode(codeServerBin: string, resultsFile: string, workspace: string): Promise<void> {
  let service: RunningService | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const stopWaiting = new AbortController();
  try {
    service = await startLocalService();
    server = await startCodeServer({
      bin: codeServerBin,
      workspace,
      env: extensionTestEnv(service, resultsFile),
      logFile: codeServerLog,
    });
    const testsEntry = path.join(compiledTestsDir, 'integration', 'index.js');
    workbench = await openWorkbench(workbenchUrl(server, developmentPayload(server, repoRoot, testsEntry)), browserConsoleLog);
    const codeServerDied = server.exited.then((how) => {
      throw new Error(`code-server exited (${how}) before the tests finished; see ${codeServerLog}`);
    });
    const finished = await Promise.race([waitForFile(resultsFile, testsTimeoutMs, stopWaiting.signal), codeServerDied]);
    if (!finished) throw new Error(`integration tests did not finish within ${testsTimeoutMs / 60_000} minutes`);
  } finally {
    stopWaiting.abort();
    // Each stops what it started even when another failed to.
    await Promise.allSettled([workbench?.close(), server?.close(), service?.close()]);
  }
}

// Only on failure: a healthy workbench logs harmless errors too (the marketplace is unreachable here).
function printConsoleErrors(): void {
  const text = fs.existsSync(browserConsoleLog) ? fs.readFileSync(browserConsoleLog, 'utf8').trimEnd() : '';
  if (!text) return;
  console.log(`\n  Browser console errors (from ${path.relative(repoRoot, browserConsoleLog)}):`);
  console.log(text.replace(/^/gm, '    '));
}

/** Runs the integration suite; one code-server and one browser for all of its tests. */
export async function runIntegrationSuite(codeServerBin: string | undefined): Promise<SuiteOutcome> {
  if (findTestFiles('integration').length === 0) {
    console.log('integration: 0 tests');
    return { name: 'integration', passed: 0, failed: 0, pending: 0, durationMs: 0 };
  }
  if (!codeServerBin) {
    return brokenOutcome('integration', 'no code-server given (CONVAI_CODE_SERVER); run it through `npm test`', 0);
  }
  const started = Date.now();
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-integration-'));
  const resultsFile = path.join(tempDir, 'results.json');
  const workspace = path.join(tempDir, 'workspace');
  fs.mkdirSync(workspace);
  fs.mkdirSync(testOutputDir, { recursive: true });
  // A failure before the browser opens must not show the last run's console.
  fs.rmSync(browserConsoleLog, { force: true });
  try {
    let outcome: SuiteOutcome;
    try {
      await runInVsCode(codeServerBin, resultsFile, workspace);
      const read = readOutcome('integration', resultsFile, Date.now() - started);
      if (read.results) console.log(describeResults(read.results).join('\n'));
      outcome = read.outcome;
    } catch (error) {
      outcome = brokenOutcome('integration', error instanceof Error ? error.message : String(error), Date.now() - started);
    }
    if (outcome.problem) console.log(`  ✖ ${outcome.problem}`);
    if (outcome.failed > 0) printConsoleErrors();
    return outcome;
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true });
  }
}
