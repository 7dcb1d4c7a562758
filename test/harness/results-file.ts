import { writeFileAtomically } from './atomic-file';

/** One test (or failed hook) as the results reporter records it. */
export interface TestRecord {
  fullTitle: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: { message: string; stack?: string };
}

/** What a test run leaves behind for the harness: the only channel out of VS Code's extension host. */
export interface Results {
  passes: number;
  failures: number;
  tests: TestRecord[];
}

/** Writes atomically, so a harness watching for the file never reads half of it. */
export function writeResultsFile(file: string, results: Results): void {
  writeFileAtomically(file, JSON.stringify(results, null, 2));
}

/** A results file holding one failure: how a run that broke before its tests still reports. */
export function failureResults(title: string, error: unknown): Results {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? error.stack : undefined;
  return {
    passes: 0,
    failures: 1,
    tests: [{ fullTitle: title, state: 'failed', durationMs: 0, error: { message, stack } }],
  };
}

/** One run's results out of several (the tests before and after a window reload). */
export function mergeResults(...parts: Results[]): Results {
  return {
    passes: parts.reduce((sum, part) => sum + part.passes, 0),
    failures: parts.reduce((sum, part) => sum + part.failures, 0),
    tests: parts.flatMap((part) => part.tests),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isTestRecord(value: unknown): value is TestRecord {
  return (
    isRecord(value) &&
    typeof value.fullTitle === 'string' &&
    (value.state === 'passed' || value.state === 'failed' || value.state === 'pending') &&
    typeof value.durationMs === 'number' &&
    (value.error === undefined || (isRecord(value.error) && typeof value.error.message === 'string'))
  );
}

/** Parses a results file's text; throws when it is not one. */
export function parseResults(text: string): Results {
  const value: unknown = JSON.parse(text);
  if (
    !isRecord(value) ||
    typeof value.passes !== 'number' ||
    typeof value.failures !== 'number' ||
    !Array.isArray(value.tests) ||
    !value.tests.every(isTestRecord)
  ) {
    throw new Error(
      'not a results file: expected { passes, failures, tests: [{ fullTitle, state, durationMs, error? }] }',
    );
  }
  return { passes: value.passes, failures: value.failures, tests: value.tests };
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

function errorText(test: TestRecord): string {
  if (!test.error) return 'failed without an error';
  const { message, stack } = test.error;
  // A stack normally opens with the message; some thrown objects have neither that nor a stack.
  if (!stack) return message;
  return stack.includes(message) ? stack : `${message}\n${stack}`;
}

/** Spec-like lines for results that were not printed while running (the extension host's console is out of sight). */
export function describeResults(results: Results): string[] {
  const lines = results.tests.map((test) => {
    const mark = test.state === 'passed' ? '✔' : test.state === 'failed' ? '✖' : '-';
    return `  ${mark} ${test.fullTitle} (${test.durationMs} ms)`;
  });
  const failed = results.tests.filter((test) => test.state === 'failed');
  failed.forEach((test, index) => {
    lines.push('', `  ${index + 1}) ${test.fullTitle}`);
    lines.push(indent(errorText(test), '     '));
  });
  return lines;
}
