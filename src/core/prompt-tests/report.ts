/** A suite's results as the contract returns them and as CI systems read them (JUnit XML). */
import type { SuiteResult } from './run';

/** `convai.runPromptTests`'s answer: `{ passed, failed, cases: [{ name, passed, messages }] }`. */
export function publicResult(result: SuiteResult): { passed: number; failed: number; cases: Array<{ name: string; passed: boolean; messages: string[] }> } {
  return { passed: result.passed, failed: result.failed + result.skipped, cases: result.cases.map(({ name, passed, messages }) => ({ name, passed, messages })) };
}

const XML: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML: escaped, and without the control characters XML 1.0 cannot hold. */
function xml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[&<>"']/g, (c) => XML[c] ?? c);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** One `<testsuite>` per suite file, one `<testcase>` per case, failures with their messages. */
export function junitXml(suites: ReadonlyArray<{ name: string; result: SuiteResult }>): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = (pick: (r: SuiteResult) => number): number => suites.reduce((sum, s) => sum + pick(s.result), 0);
  lines.push(`<testsuites tests="${total((r) => r.cases.length)}" failures="${total((r) => r.failed)}" skipped="${total((r) => r.skipped)}">`);
  for (const { name, result } of suites) {
    const time = result.cases.reduce((sum, c) => sum + c.runs.reduce((s, r) => s + r.durationMs, 0), 0);
    lines.push(`  <testsuite name="${xml(name)}" tests="${result.cases.length}" failures="${result.failed}" skipped="${result.skipped}" time="${seconds(time)}">`);
    for (const testCase of result.cases) {
      const caseTime = testCase.runs.reduce((s, r) => s + r.durationMs, 0);
      const open = `    <testcase classname="${xml(name)}" name="${xml(testCase.name)}" time="${seconds(caseTime)}"`;
      if (testCase.passed) lines.push(`${open}/>`);
      else if (testCase.skipped) lines.push(`${open}><skipped message="${xml(testCase.messages.join('; '))}"/></testcase>`);
      else lines.push(`${open}><failure message="${xml(testCase.messages[0] ?? 'failed')}">${xml(testCase.messages.join('\n'))}</failure></testcase>`);
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}
