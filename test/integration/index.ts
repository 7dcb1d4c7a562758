// The extensionTestsPath entry: VS Code's extension host calls run() once the extension under development is loaded.
// A rejected run() only reaches the browser console, so results (failures included) leave through the results file
// and run() resolves either way.
// When `*.reload.test.ts` files exist, run() is called twice (see ../harness/reload.ts): first it runs every test
// file and reloads the window, then, in the reloaded window, the reload test files once more.
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { findTestFiles } from '../harness/find-tests';
import {
  afterReloadResultsFile,
  isReloadTestFile,
  phaseFileVariable,
  readPhase,
  writePhase,
} from '../harness/reload-phase';
import { failureResults, writeResultsFile } from '../harness/results-file';
import ResultsReporter from '../harness/results-reporter';

async function runMocha(files: string[], resultsFile: string): Promise<void> {
  try {
    const mocha = new Mocha({
      ui: 'bdd',
      timeout: 20_000,
      color: false,
      reporter: ResultsReporter,
      reporterOptions: { output: resultsFile },
    });
    for (const file of files) mocha.addFile(file);
    // Loaded before run(), so that a test file that throws while loading is reported as the setup failure.
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => mocha.run(() => resolve()));
  } catch (error) {
    writeResultsFile(resultsFile, failureResults('integration test setup', error));
  }
}

export async function run(): Promise<void> {
  const resultsFile = process.env.CONVAI_TEST_RESULTS;
  if (!resultsFile) throw new Error('CONVAI_TEST_RESULTS is not set: the harness passes it through the environment');
  // Unset in `npm run test:electron`, which cannot reload: the tests after a reload are pending there.
  const phaseFile = process.env[phaseFileVariable];
  const testFiles = findTestFiles('integration');
  const reloadTestFiles = testFiles.filter(isReloadTestFile);

  if (phaseFile !== undefined && readPhase(phaseFile) === 'reloading') {
    // Before loading the tests, which register their after-reload halves on this; it also tells the harness
    // that the window came back.
    writePhase(phaseFile, 'after-reload');
    await runMocha(reloadTestFiles, afterReloadResultsFile(phaseFile));
    return;
  }

  // The reload tests last, so that no other test's clean-up closes the editors they leave open for the reload.
  await runMocha([...testFiles.filter((f) => !isReloadTestFile(f)), ...reloadTestFiles], resultsFile);
  if (phaseFile === undefined || reloadTestFiles.length === 0) return;
  writePhase(phaseFile, 'reloading');
  // VS Code's own reload saves the workbench's state (open editors) before it reloads the page; a reload of the
  // page by the browser does not wait for that, and the editors are then sometimes not restored. The reload ends
  // this extension host; VS Code calls run() again in the reloaded window.
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
}
