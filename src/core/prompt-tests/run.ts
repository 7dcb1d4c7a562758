/**
 * Runs a suite's cases against the service: at most a few requests at once,
 * each run checked by the assertion engine, a case's runs weighed by its pass
 * rate, and what a cancellation left unfinished reported as far as it went.
 * A run whose request failed is an error, not evidence about the prompt: it
 * is counted apart and kept out of the rate (contract: "Verdicts over
 * repeated runs"). Only a 429 that says when to come back is sent again, by
 * the client, within the run's concurrency slot; that wait is not the
 * prompt's time, so maxMs leaves it out.
 */
import { limiter, mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';
import { checkOutput } from './assertions';
import type { TestCase, Suite } from './suite';
import { messageOf } from '../text';
import type { Tally } from './statistics';
import { runConversation, type ConversationOutcome } from './conversation';
import { runSimulatedCall } from './simulation';
import { caseResult } from './verdict';
import type { CaseResult, CaseRun, ExecuteContext, Executor, SuiteResult } from './types';
import type { ServiceClient } from '../client';
import type { TrialRoute } from '../trials/trial-run';
import { executorFor, type ResolvedTarget } from './target';

// A shown call's document is made only after a run: it comes with the engine, which activation does not load.
export { callTranscriptText, labellableCall } from './call-transcript';
// A judge file's run too: nothing before a run needs it.
export { judgeAsker, prepareJudge, runJudgeFile } from './judge-run';

/** Runs in flight per request slot (core/limits.ts runsPerSlot). */
const RUNS_PER_SLOT = LIMITS.runsPerSlot.value;

export interface RunOptions {
  /** Requests at once (the setting convai.testConcurrency; default 4). */
  concurrency?: number;
  /** The bound on requests in flight, when runs side by side share one (a variant matrix's columns). */
  requests?: <T>(work: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
  /** Only these cases (by name); all when absent. */
  only?: ReadonlySet<string>;
  /** Each case's tally in an earlier run, by case name: a case that dropped significantly against it fails as regressed. */
  baseline?: ReadonlyMap<string, Tally>;
  onCaseStarted?: (testCase: TestCase) => void;
  onCaseFinished?: (testCase: TestCase, result: CaseResult) => void;
  /** Each run, as it ends (for the run history). */
  onRun?: (testCase: TestCase, run: CaseRun) => void;
  now?: () => number;
}
/** One run's answer and its failures: a single request, or a conversation's turns. */
async function answer(
  testCase: TestCase,
  executor: Executor,
  context: ExecuteContext,
  now: () => number,
): Promise<ConversationOutcome & Pick<CaseRun, 'transcript' | 'criteria'>> {
  if (testCase.simulate) return runSimulatedCall(testCase, executor, context, now);
  if (testCase.turns) return runConversation(testCase, testCase.turns, executor, context, now);
  const output = await executor.send(testCase, context);
  return { output, failures: checkOutput(testCase.expect, output) };
}

/** One suite's cases run and judged; the one engine behind the CLI's `test` and the Testing view. */
export async function runSuite(suite: Suite, executor: Executor, options: RunOptions = {}): Promise<SuiteResult> {
  const concurrency = options.concurrency ?? LIMITS.testConcurrency.value;
  // The concurrency bounds requests, not runs: a simulated call sends a dozen requests one after another, and calls
  // in flight side by side keep every slot busy while each waits for its own answers.
  const slot = options.requests ?? limiter(concurrency);
  const slotted: Executor = {
    prompts: executor.prompts,
    send: (testCase, context) =>
      slot(() => {
        // A request that waited for its slot past a cancellation is not sent.
        if (context.signal.aborted) return Promise.reject(new Error('cancelled before it was sent'));
        return executor.send(testCase, context);
      }),
  };
  const now = options.now ?? (() => performance.now());
  const signal = options.signal ?? new AbortController().signal;
  const cases = suite.cases.filter((c) => !options.only || options.only.has(c.name));
  const runs = new Map<TestCase, CaseRun[]>(cases.map((c) => [c, []]));
  const finished = new Map<TestCase, CaseResult>();
  const judged = (testCase: TestCase): CaseResult =>
    caseResult(testCase, runs.get(testCase) ?? [], options.baseline?.get(testCase.name));
  // Every run of every case is one task, so a case repeated ten times does not hold the others up.
  const tasks = cases.flatMap((testCase) => Array.from({ length: testCase.repeat }, () => testCase));
  await mapWithLimit(tasks, concurrency * RUNS_PER_SLOT, async (testCase) => {
    if (signal.aborted) return;
    const done = runs.get(testCase) as CaseRun[];
    if (done.length === 0 && !finished.has(testCase)) options.onCaseStarted?.(testCase);
    let waited = 0;
    const context: ExecuteContext = { signal, onWait: (ms) => (waited += ms) };
    const started = now();
    let run: CaseRun;
    try {
      const outcome = await answer(testCase, slotted, context, now);
      const durationMs = Math.max(0, now() - started - waited);
      const failures = [...outcome.failures];
      if (testCase.maxMs !== undefined && durationMs > testCase.maxMs) {
        failures.push({
          field: 'duration',
          assertion: 'maxMs',
          message: `duration: took ${Math.round(durationMs)} ms, more than maxMs ${testCase.maxMs}`,
        });
      }
      run = { ...outcome, passed: failures.length === 0 && outcome.error === undefined, durationMs, failures };
    } catch (error) {
      // A request the cancellation cut off ended nothing: the runs that did end are reported.
      if (signal.aborted) return;
      run = { passed: false, durationMs: Math.max(0, now() - started - waited), failures: [], error: messageOf(error) };
    }
    done.push(run);
    options.onRun?.(testCase, run);
    if (done.length === testCase.repeat) {
      const result = judged(testCase);
      finished.set(testCase, result);
      options.onCaseFinished?.(testCase, result);
    }
  });
  const results = cases.map((testCase) => {
    const result = finished.get(testCase);
    if (result) return result;
    const unfinished = judged(testCase);
    options.onCaseFinished?.(testCase, unfinished);
    return unfinished;
  });
  const compared = options.baseline ? results.filter((r) => !r.skipped && options.baseline?.has(r.name)).length : 0;
  return {
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed && !r.skipped).length,
    skipped: results.filter((r) => r.skipped).length,
    cases: results,
    ...(options.baseline ? { baseline: { compared, cases: results.filter((r) => !r.skipped).length } } : {}),
  };
}

/** A suite run against its prepared target: the one suite run behind the CLI's `test` and the Testing view. */
export function runSuiteAt(
  client: ServiceClient,
  suite: Suite,
  target: ResolvedTarget,
  options: RunOptions = {},
  route?: TrialRoute,
): Promise<SuiteResult> {
  return runSuite(suite, executorFor(client, target, route), options);
}
