import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { failureResults, Results, writeResultsFile } from '../harness/results-file';
import { exitCode, outcomeFromResults, readOutcome, summaryLines, SuiteOutcome } from '../harness/summary';

const passing: Results = {
  passes: 2,
  failures: 0,
  tests: [
    { fullTitle: 'a works', state: 'passed', durationMs: 3 },
    { fullTitle: 'b works', state: 'passed', durationMs: 1 },
  ],
};

describe('harness results and summary', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-results-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('counts a missing results file as one failure and a non-zero exit', () => {
    const { outcome, results } = readOutcome('integration', path.join(dir, 'absent.json'), 5);
    assert.equal(results, undefined);
    assert.equal(outcome.failed, 1);
    assert.match(outcome.problem ?? '', /no results file/);
    assert.equal(exitCode([outcome]), 1);
  });

  it('counts an unreadable results file as one failure', () => {
    const file = path.join(dir, 'results.json');
    fs.writeFileSync(file, '{"passes": 1}');
    const { outcome } = readOutcome('unit', file, 5);
    assert.equal(outcome.failed, 1);
    assert.match(outcome.problem ?? '', /not a results file/);
  });

  it('reads a written results file back, and passes when nothing failed', () => {
    const file = path.join(dir, 'nested', 'results.json');
    writeResultsFile(file, passing);
    const { outcome, results } = readOutcome('unit', file, 5);
    assert.deepEqual(results, passing);
    assert.deepEqual(outcome, { name: 'unit', passed: 2, failed: 0, pending: 0, durationMs: 5 });
    assert.equal(exitCode([outcome]), 0);
  });

  it('exits non-zero when a results file holds a failure', () => {
    const file = path.join(dir, 'results.json');
    writeResultsFile(file, failureResults('integration test setup', new Error('boom')));
    const { outcome, results } = readOutcome('integration', file, 5);
    assert.equal(results?.tests[0]?.error?.message, 'boom');
    assert.equal(outcome.failed, 1);
    assert.equal(outcome.problem, undefined);
    assert.equal(exitCode([outcomeFromResults('unit', passing, 1), outcome]), 1);
  });

  it('names each failed test with its error in the summary, where the tail of a long log shows it', () => {
    const file = path.join(dir, 'results.json');
    writeResultsFile(file, failureResults('integration test setup', new Error('boom\nat somewhere')));
    const { outcome } = readOutcome('integration', file, 5);
    const summary = summaryLines([outcome]).join('\n');
    assert.match(summary, /✖ integration test setup: boom$/m);
    assert.doesNotMatch(summary, /somewhere/);
  });

  it('ends the summary with the totals over all suites', () => {
    const outcomes: SuiteOutcome[] = [
      outcomeFromResults('unit', passing, 1),
      { name: 'lint', passed: 1, failed: 0, pending: 0, durationMs: 1 },
      { name: 'integration', passed: 4, failed: 2, pending: 1, durationMs: 1 },
    ];
    assert.equal(summaryLines(outcomes).at(-1), '7 passed, 2 failed');
    assert.equal(summaryLines([]).at(-1), '0 passed, 0 failed');
  });
});
