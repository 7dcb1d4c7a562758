// The integration suite: the compiled test/integration tests run inside a real VS Code (code-server), driven by
// headless Chromium, against the local service. VS Code reports only through the results files: one, or two when
// `*.reload.test.ts` files make the tests reload the window halfway (see reload.ts).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CodeServer, developmentPayload, openWorkbench, startCodeServer, Workbench, workbenchUrl } from './code-server';
import { findTestFiles } from './find-tests';
import { RunningService } from '../service/server';
import { extensionTestEnv, startLocalService } from './local-service';
import { compiledTestsDir, repoRoot, testOutputDir } from './paths';
import { afterReloadResultsFile, isReloadTestFile, phaseFileVariable, readPhase, writePhase } from './reload-phase';
import { describeResults, failureResults, mergeResults, parseResults, Results } from './results-file';
import { brokenOutcome, outcomeFromResults, readOutcome, SuiteOutcome } from './summary';
import { waitForFile, waitInFolder } from './wait';

const testsTimeoutMs = 8 * 60_000;
// The tests resume about 3 s after the reload here; a minute leaves room for a slow machine.
const reloadTimeoutMs = 60_000;
const codeServerLog = path.join(testOutputDir, 'integration-code-server.log');
const browserConsoleLog = path.join(testOutputDir, 'integration-browser-console.log');

interface RunFiles {
  /** The folder VS Code opens. */
  workspace: string;
  /** The results of the tests before the reload, or of all tests when there is none. */
  results: string;
  /** Says where the run stands around the reload (reload-phase.ts). */
  phase: string;
}

/** The results of the tests after the reload; throws when they do not come. */
async function resultsAfterReload(phaseFile: string, deadline: number, signal: AbortSignal): Promise<Results> {
  const reloadStarted = Date.now();
  const back = await waitInFolder(
    path.dirname(phaseFile),
    () => readPhase(phaseFile) === 'after-reload',
    reloadTimeoutMs,
    signal,
  );
  if (!back) {
    const reason =
      readPhase(phaseFile) === 'reloading'
        ? 'the window did not come back after the reload'
        : 'the tests before the reload did not reload the window';
    throw new Error(`${reason}: no tests started after it within ${reloadTimeoutMs / 1000} s`);
  }
  console.log(`  ↻ reloaded the window: the tests resumed after ${((Date.now() - reloadStarted) / 1000).toFixed(1)} s`);
  const file = afterReloadResultsFile(phaseFile);
  if (!(await waitForFile(file, deadline - Date.now(), signal))) {
    throw new Error(`the tests after the reload did not finish within ${testsTimeoutMs / 60_000} minutes of the start`);
  }
  return parseResults(fs.readFileSync(file, 'utf8'));
}

/** Runs the tests; resolves with the results of those after the reload, if they reload. */
async function runInVsCode(codeServerBin: string, files: RunFiles, reloads: boolean): Promise<Results | undefined> {
  let service: RunningService | undefined;
  let largeService: RunningService | undefined;
  let server: CodeServer | undefined;
  let workbench: Workbench | undefined;
  const stopWaiting = new AbortController();
  try {
    writePhase(files.phase, 'before-reload');
    service = await startLocalService();
    largeService = await startLocalService({ largeTenant: true });
    server = await startCodeServer({
      bin: codeServerBin,
      workspace: files.workspace,
      env: { ...extensionTestEnv(service, files.results, largeService), [phaseFileVariable]: files.phase },
      logFile: codeServerLog,
      // The leak tests search the most talkative logs (code-server's --log sets one level for everything).
      logLevel: 'trace',
    });
    const testsEntry = path.join(compiledTestsDir, 'integration', 'index.js');
    workbench = await openWorkbench(
      workbenchUrl(server, developmentPayload(server, repoRoot, testsEntry)),
      browserConsoleLog,
    );
    const deadline = Date.now() + testsTimeoutMs;
    const codeServerDied = server.exited.then((how) => {
      throw new Error(`code-server exited (${how}) before the tests finished; see ${codeServerLog}`);
    });
    const finished = await Promise.race([
      waitForFile(files.results, testsTimeoutMs, stopWaiting.signal),
      codeServerDied,
    ]);
    if (!finished) throw new Error(`integration tests did not finish within ${testsTimeoutMs / 60_000} minutes`);
    if (!reloads) return undefined;
    // The tests before the reload have reported: what goes wrong after it joins their results as a failure, by its
    // message alone (the harness's stack says nothing about the tests).
    return await Promise.race([resultsAfterReload(files.phase, deadline, stopWaiting.signal), codeServerDied]).catch(
      (error: unknown) =>
        failureResults('the tests after the window reload', error instanceof Error ? error.message : error),
    );
  } finally {
    stopWaiting.abort();
    // Each stops what it started even when another failed to.
    await Promise.allSettled([workbench?.close(), server?.close(), service?.close(), largeService?.close()]);
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
  const testFiles = findTestFiles('integration');
  if (testFiles.length === 0) {
    console.log('integration: 0 tests');
    return { name: 'integration', passed: 0, failed: 0, pending: 0, durationMs: 0 };
  }
  if (!codeServerBin) {
    return brokenOutcome('integration', 'no code-server given (CONVAI_CODE_SERVER); run it through `npm test`', 0);
  }
  const started = Date.now();
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-integration-'));
  const files: RunFiles = {
    workspace: path.join(tempDir, 'workspace'),
    results: path.join(tempDir, 'results.json'),
    phase: path.join(tempDir, 'phase'),
  };
  fs.mkdirSync(files.workspace);
  fs.mkdirSync(testOutputDir, { recursive: true });
  // A failure before the browser opens must not show the last run's console.
  fs.rmSync(browserConsoleLog, { force: true });
  try {
    let outcome: SuiteOutcome;
    try {
      const afterReload = await runInVsCode(codeServerBin, files, testFiles.some(isReloadTestFile));
      const read = readOutcome('integration', files.results, Date.now() - started);
      const results = read.results && afterReload ? mergeResults(read.results, afterReload) : read.results;
      if (results) console.log(describeResults(results).join('\n'));
      outcome = results ? outcomeFromResults('integration', results, Date.now() - started) : read.outcome;
    } catch (error) {
      outcome = brokenOutcome(
        'integration',
        error instanceof Error ? error.message : String(error),
        Date.now() - started,
      );
    }
    if (outcome.problem) console.log(`  ✖ ${outcome.problem}`);
    if (outcome.failed > 0) printConsoleErrors();
    return outcome;
  } finally {
    fs.rmSync(tempDir, { recursive: true, force: true });
  }
}
