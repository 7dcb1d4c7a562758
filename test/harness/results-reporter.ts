// A Mocha reporter: spec output on the console, plus a JSON results file for the harness.
// Used as `mocha --reporter out/test/harness/results-reporter.js --reporter-option output=<file>`
// and programmatically inside VS Code, where the console is not the harness's and only the file gets out.
import Mocha from 'mocha';
import { Results, TestRecord, writeResultsFile } from './results-file';

const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

function outputOption(options: Mocha.MochaOptions | undefined): string | undefined {
  const reporterOptions: unknown = options?.reporterOptions;
  if (typeof reporterOptions === 'object' && reporterOptions !== null && 'output' in reporterOptions) {
    const { output } = reporterOptions;
    if (typeof output === 'string') return output;
  }
  return process.env.CONVAI_TEST_RESULTS;
}

function errorOf(error: unknown): NonNullable<TestRecord['error']> {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

class ResultsReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const output = outputOption(options);
    if (!output) throw new Error('results-reporter needs --reporter-option output=<file> or CONVAI_TEST_RESULTS');

    const tests: TestRecord[] = [];
    const record = (test: Mocha.Runnable, state: TestRecord['state'], error?: unknown): void => {
      tests.push({
        fullTitle: test.fullTitle(),
        state,
        durationMs: test.duration ?? 0,
        ...(state === 'failed' ? { error: errorOf(error) } : {}),
      });
    };
    runner.on(EVENT_TEST_PASS, (test) => record(test, 'passed'));
    // Also fires for failing hooks, which must count as failures too.
    runner.on(EVENT_TEST_FAIL, (test, error) => record(test, 'failed', error));
    runner.on(EVENT_TEST_PENDING, (test) => record(test, 'pending'));
    runner.once(EVENT_RUN_END, () => {
      const results: Results = {
        passes: tests.filter((test) => test.state === 'passed').length,
        failures: tests.filter((test) => test.state === 'failed').length,
        tests,
      };
      writeResultsFile(output, results);
    });
  }
}

export = ResultsReporter;
