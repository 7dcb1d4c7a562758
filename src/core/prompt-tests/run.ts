/**
 * Runs a suite's cases against the service: at most a few requests at once,
 * each run checked by the assertion engine, a case's runs weighed by its pass
 * rate, and what a cancellation left unrun marked skipped. A failed request
 * fails its run with the reason; only a 429 that says when to come back is
 * sent again, by the client, within the run's concurrency slot.
 */
import type { JsonObject } from '../json';
import { mapWithLimit } from '../concurrency';
import { checkOutput, type Failure } from './assertions';
import type { Suite, TestCase } from './suite';
import { messageOf } from '../text';
import { intervalText, wilsonInterval } from './statistics';
import { runConversation, type ConversationOutcome, type PromptDirectory, type TurnRequest, type TurnResult } from './conversation';

export interface CaseRun {
  passed: boolean;
  durationMs: number;
  /** What the service answered; absent when the request failed. */
  output?: JsonObject;
  failures: Failure[];
  /** The request's failure (an HTTP status, a time-out), when there was no answer. */
  error?: string;
  /** A conversation's turns as far as the run went: the first failing turn ends it. */
  turns?: TurnResult[];
}

/** `pass`: every run passed; `flaky`: some failed, but the rate meets minPassRate; `fail`: it does not. */
export type Verdict = 'pass' | 'flaky' | 'fail';

export interface CaseResult {
  name: string;
  passed: boolean;
  /** Not run: the run was cancelled before this case started. */
  skipped: boolean;
  /** Why it failed, one line each; empty when it passed. */
  messages: string[];
  runs: CaseRun[];
  passes: number;
  /** passes / runs; 0 when nothing ran. */
  passRate: number;
  /** The 95% Wilson score interval of the pass rate. */
  interval: [number, number];
  verdict: Verdict;
  /** Set by a comparison with a baseline: the pass count dropped significantly, so the case fails. */
  regressed?: boolean;
  /** A conversation's turns in its first failing run, else its last: what reports show of it. */
  turns?: TurnResult[];
}

export interface SuiteResult {
  passed: number;
  failed: number;
  skipped: number;
  cases: CaseResult[];
}

/**
 * Sends one request of a run: a case's inputs to the suite's resource, or a conversation's turn to the prompt it
 * was routed to; rejects when the request fails. `prompts` is what conversations route and name their turns by.
 */
export interface Execute {
  (testCase: TestCase, signal: AbortSignal, turn?: TurnRequest): Promise<JsonObject>;
  readonly prompts?: PromptDirectory;
}

export interface RunOptions {
  /** Requests at once (the setting convai.testConcurrency; default 4). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Only these cases (by name); all when absent. */
  only?: ReadonlySet<string>;
  onCaseStarted?: (testCase: TestCase) => void;
  onCaseFinished?: (testCase: TestCase, result: CaseResult) => void;
  /** Each run, as it ends (for the run history). */
  onRun?: (testCase: TestCase, run: CaseRun) => void;
  now?: () => number;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** A case's verdict from its runs. */
export function caseResult(testCase: TestCase, runs: CaseRun[]): CaseResult {
  const passes = runs.filter((r) => r.passed).length;
  const passRate = runs.length === 0 ? 0 : passes / runs.length;
  const passed = runs.length === testCase.repeat && passRate >= testCase.minPassRate;
  const verdict: Verdict = !passed ? 'fail' : passes === runs.length ? 'pass' : 'flaky';
  const messages: string[] = [];
  if (!passed) {
    const reasons = runs.flatMap((run) => (run.error !== undefined ? [run.error] : run.failures.map((f) => f.message)));
    messages.push(...new Set(reasons));
    if (testCase.repeat > 1) messages.push(`passed ${passes} of ${testCase.repeat} runs (${percent(passRate)}); it needs ${percent(testCase.minPassRate)}`);
  }
  const shown = runs.find((r) => !r.passed) ?? runs.at(-1);
  return {
    name: testCase.name, passed, skipped: false, messages, runs, passes, passRate, interval: wilsonInterval({ passes, runs: runs.length }), verdict,
    ...(shown?.turns ? { turns: shown.turns } : {}),
  };
}

/** "flaky: 14/20 passed, 95% interval 48–86%": a verdict with how sure it is. */
export function verdictLine(result: Pick<CaseResult, 'verdict' | 'passes' | 'runs' | 'interval'>): string {
  return `${result.verdict}: ${tallyLine(result)}`;
}

/** "14/20 passed, 95% interval 48–86%". */
export function tallyLine(result: Pick<CaseResult, 'passes' | 'runs' | 'interval'>): string {
  return `${result.passes}/${result.runs.length} passed, 95% interval ${intervalText(result.interval)}`;
}

/** One run's answer and its failures: a single request, or a conversation's turns. */
async function answer(testCase: TestCase, execute: Execute, signal: AbortSignal, now: () => number): Promise<ConversationOutcome> {
  if (testCase.turns) return runConversation(testCase, testCase.turns, execute, signal, now);
  const output = await execute(testCase, signal);
  return { output, failures: checkOutput(testCase.expect, output) };
}

function skipped(testCase: TestCase): CaseResult {
  return { name: testCase.name, passed: false, skipped: true, messages: ['not run: the run was cancelled'], runs: [], passes: 0, passRate: 0, interval: [0, 1], verdict: 'fail' };
}

export async function runSuite(suite: Suite, execute: Execute, options: RunOptions = {}): Promise<SuiteResult> {
  const now = options.now ?? (() => performance.now());
  const signal = options.signal ?? new AbortController().signal;
  const cases = suite.cases.filter((c) => !options.only || options.only.has(c.name));
  const runs = new Map<TestCase, CaseRun[]>(cases.map((c) => [c, []]));
  const finished = new Map<TestCase, CaseResult>();
  // Every run of every case is one task, so a case repeated ten times does not hold the others up.
  const tasks = cases.flatMap((testCase) => Array.from({ length: testCase.repeat }, () => testCase));
  await mapWithLimit(tasks, options.concurrency ?? 4, async (testCase) => {
    if (signal.aborted) return;
    const done = runs.get(testCase) as CaseRun[];
    if (done.length === 0) options.onCaseStarted?.(testCase);
    const started = now();
    let run: CaseRun;
    try {
      const outcome = await answer(testCase, execute, signal, now);
      const durationMs = now() - started;
      const failures = [...outcome.failures];
      if (testCase.maxMs !== undefined && durationMs > testCase.maxMs) {
        failures.push({ field: 'duration', assertion: 'maxMs', message: `duration: took ${Math.round(durationMs)} ms, more than maxMs ${testCase.maxMs}` });
      }
      run = { ...outcome, passed: failures.length === 0 && outcome.error === undefined, durationMs, failures };
    } catch (error) {
      // A cancelled request leaves the case unfinished: it is reported skipped, not failed.
      if (signal.aborted) return;
      run = { passed: false, durationMs: now() - started, failures: [], error: messageOf(error) };
    }
    done.push(run);
    options.onRun?.(testCase, run);
    if (done.length === testCase.repeat) {
      const result = caseResult(testCase, done);
      finished.set(testCase, result);
      options.onCaseFinished?.(testCase, result);
    }
  });
  const results = cases.map((testCase) => finished.get(testCase) ?? skipped(testCase));
  for (const result of results) if (result.skipped) options.onCaseFinished?.(cases.find((c) => c.name === result.name) as TestCase, result);
  return {
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed && !r.skipped).length,
    skipped: results.filter((r) => r.skipped).length,
    cases: results,
  };
}
