// The extensionTestsPath entry: VS Code's extension host calls run() once the extension under development is loaded.
// A rejected run() only reaches the browser console, so results (failures included) leave through the results file
// and run() resolves either way.
import Mocha from 'mocha';
import { findTestFiles } from '../harness/find-tests';
import { failureResults, writeResultsFile } from '../harness/results-file';
import ResultsReporter from '../harness/results-reporter';

export async function run(): Promise<void> {
  const resultsFile = process.env.CONVAI_TEST_RESULTS;
  if (!resultsFile) throw new Error('CONVAI_TEST_RESULTS is not set: the harness passes it through the environment');
  try {
    const mocha = new Mocha({
      ui: 'bdd',
      timeout: 20_000,
      color: false,
      reporter: ResultsReporter,
      reporterOptions: { output: resultsFile },
    });
    for (const file of findTestFiles('integration')) mocha.addFile(file);
    // Loaded before run(), so that a test file that throws while loading is reported as the setup failure.
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => mocha.run(() => resolve()));
  } catch (error) {
    writeResultsFile(resultsFile, failureResults('integration test setup', error));
  }
}
