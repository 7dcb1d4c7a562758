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
import type { JsonObject } from '../json';
import { limiter, mapWithLimit } from '../concurrency';
import { LIMITS } from '../limits';

/** Runs in flight per request slot (core/limits.ts runsPerSlot). */
const RUNS_PER_SLOT = LIMITS.runsPerSlot.value;
import { checkOutput, type Failure } from './assertions';
import type { TestCase, Suite } from './suite';
import { messageOf, plural } from '../text';
import { dropPValue, droppedSignificantly, intervalText, wilsonInterval, type Tally } from './statistics';
import { runConversation, type ConversationOutcome, type PromptDirectory, type TurnRequest, type TurnResult } from './conversation';
import { runSimulatedCall, type CriterionOutcome, type TranscriptLine } from './simulation';

/** A failed assertion of a run; in a conversation, the turn (1-based) it failed in; in a simulated call, the criterion. */
export interface CaseFailure extends Failure {
  turn?: number;
  criterion?: string;
}

export interface CaseRun {
  passed: boolean;
  /** How long the service took, waits before a retry left out. */
  durationMs: number;
  /** What the service answered; absent when the request failed. */
  output?: JsonObject;
  failures: CaseFailure[];
  /** The request's failure (an HTTP status, a time-out), when there was no answer: the run is an error. */
  error?: string;
  /** A conversation's turns as far as the run went: the first failing turn ends it. A simulated call's assistant answers. */
  turns?: TurnResult[];
  /** A simulated call: the call as said, and each criterion's outcome. */
  transcript?: TranscriptLine[];
  criteria?: CriterionOutcome[];
}

/**
 * `pass`: every run passed; `flaky`: some failed, but the rate meets minPassRate; `fail`: it does not, or a baseline
 * saw it drop. A case or criterion that a run did not decide is neither: `error` when a run that ended errored (no
 * answer, or a judge's answer without a verdict), `skipped` when it did not finish (cancelled, or not reached).
 */
export type Verdict = 'pass' | 'flaky' | 'fail' | 'error' | 'skipped';

/** Why a baseline failed a case whose rate alone would pass it. */
export interface Regression {
  before: Tally;
  p: number;
}

export interface CaseResult {
  name: string;
  passed: boolean;
  /** Did not finish: cancelled before its last run ended. `runs` and `errors` say how far it went. */
  skipped: boolean;
  verdict: Verdict;
  /** Why the verdict is `error` or `skipped`: how many runs errored and why, or how far a cancelled case went. */
  reason?: string;
  /** Runs that were answered: the evidence. */
  runs: number;
  passes: number;
  /** Runs whose request failed: no evidence either way. */
  errors: number;
  /** passes / runs; 0 when no run was answered. */
  passRate: number;
  /** The 95% Wilson score interval of the pass rate. */
  interval: [number, number];
  /** The pass count dropped significantly against a baseline, so the case fails. */
  regressed?: Regression;
  /** Every failed assertion, each once (the first run it happened in): a diff shows `expected` and `actual`. */
  failures: CaseFailure[];
  /** Why runs errored, each reason once. */
  errorReasons: string[];
  /** The case's time summed over its runs. */
  durationMs: number;
  /** A conversation's turns in its first failing run, else its last: what reports show of it. */
  turns?: TurnResult[];
  /** A simulated call's criteria, each weighed over the calls as the case is. */
  criteria?: CriterionTally[];
  /** A simulated call's first failing call, else its last. */
  transcript?: TranscriptLine[];
  /** The share of judged criteria whose judgeRepeat judgements all agreed. */
  judgeAgreement?: number;
  /** Every run as it ended, in that order (run history, reports of durations). */
  details: CaseRun[];
  /** How many runs the case asked for. */
  repeat: number;
  minPassRate: number;
}

/** A criterion of a simulated call over the calls that were answered. */
export interface CriterionTally {
  name: string;
  runs: number;
  passes: number;
  passRate: number;
  interval: [number, number];
  verdict: Verdict;
  /** Why the verdict is `error` or `skipped`: the calls that did not decide it and why. */
  reason?: string;
  /** Calls that ended without deciding it: the call or its judge errored. */
  errors: number;
  /** Why it failed, in up to three failed calls (a judge's reasoning). */
  reasons: string[];
}

export interface SuiteResult {
  passed: number;
  failed: number;
  /** Cases that did not finish (cancelled). */
  skipped: number;
  cases: CaseResult[];
  /** With a baseline: how many of the cases that ran had a tally there to be compared with. */
  baseline?: { compared: number; cases: number };
}

/** One request's context: a cancellation, the turn of a conversation it sends, and a report of waits before retries. */
export interface ExecuteContext {
  signal: AbortSignal;
  turn?: TurnRequest;
  onWait?: (ms: number) => void;
}

/**
 * Sends one request of a run: a case's inputs to the suite's resource, or a conversation's turn to the prompt it
 * was routed to; rejects when the request fails. `prompts` is what conversations route and name their turns by.
 */
export interface Execute {
  (testCase: TestCase, context: ExecuteContext): Promise<JsonObject>;
  readonly prompts?: PromptDirectory;
}

export interface RunOptions {
  /** Requests at once (the setting convai.testConcurrency; default 4). */
  concurrency?: number;
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

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** What a verdict is decided from: the decided runs, the errored ones, and whether every run ended. */
interface Evidence extends Tally {
  errors: number;
  finished: boolean;
  minPassRate: number;
  regressed?: boolean;
}

/** The one rule of a verdict, for cases and criteria alike: only decided runs pass or fail anything. */
function verdictOf({ passes, runs, errors, finished, minPassRate, regressed }: Evidence): Verdict {
  if (!finished || runs + errors === 0) return 'skipped';
  if (errors > 0) return 'error';
  if (regressed) return 'fail';
  return passes === runs ? 'pass' : passes / runs >= minPassRate ? 'flaky' : 'fail';
}

/** "not judged: the run was cancelled", "2 of 3 calls did not decide it: <why>". */
function criterionReason(verdict: Verdict, errors: number, ended: number, why: readonly string[]): string | undefined {
  if (verdict === 'error') return `${errors} of ${plural(ended, 'call')} did not decide it (so ${errors === 1 ? 'it is' : 'they are'} not counted): ${why.join('; ')}`;
  if (verdict === 'skipped') return ended === 0 ? 'not judged: the run was cancelled before a call ended' : `stopped: the run was cancelled after ${plural(ended, 'call')}`;
  return undefined;
}

/**
 * A simulated case's criteria, each weighed over the calls that decided it (a call that errored before its judges, or
 * whose judge gave no verdict, decided nothing of it), its shown call's transcript, and how often judges agreed.
 */
function criteriaOf(testCase: TestCase, details: readonly CaseRun[], shown: CaseRun | undefined): Pick<CaseResult, 'criteria' | 'transcript' | 'judgeAgreement'> {
  const finished = details.length === testCase.repeat;
  const criteria = (testCase.criteria ?? []).map(({ name }): CriterionTally => {
    const ended = details.map((run) => run.criteria?.find((c) => c.name === name) ?? { name, passed: false, reason: '', error: run.error ?? 'not judged' });
    const outcomes = ended.filter((o) => o.error === undefined);
    const passes = outcomes.filter((o) => o.passed).length;
    const tally = { passes, runs: outcomes.length };
    const errors = ended.length - outcomes.length;
    const verdict = verdictOf({ ...tally, errors, finished, minPassRate: testCase.minPassRate });
    const reason = criterionReason(verdict, errors, ended.length, [...new Set(ended.flatMap((o) => (o.error === undefined ? [] : [o.error])))]);
    return {
      name, ...tally, passRate: tally.runs === 0 ? 0 : passes / tally.runs, interval: wilsonInterval(tally), verdict, ...(reason ? { reason } : {}), errors,
      reasons: outcomes.filter((o) => !o.passed).slice(0, 3).map((o) => o.reason),
    };
  });
  const judged = details.flatMap((run) => run.criteria?.flatMap((c) => (c.judgement ? [c.judgement.unanimous] : [])) ?? []);
  return {
    criteria,
    ...(shown?.transcript ? { transcript: shown.transcript } : {}),
    ...(judged.length > 0 ? { judgeAgreement: judged.filter(Boolean).length / judged.length } : {}),
  };
}

/**
 * A case's verdict from the runs that ended, judged against its tally in a baseline when there is one. A case
 * passes only when all its runs ended, none errored, and the answered ones meet minPassRate without a regression.
 */
export function caseResult(testCase: TestCase, details: CaseRun[], before?: Tally): CaseResult {
  const answered = details.filter((r) => r.error === undefined);
  const passes = answered.filter((r) => r.passed).length;
  const runs = answered.length;
  const errors = details.length - runs;
  const passRate = runs === 0 ? 0 : passes / runs;
  const skipped = details.length < testCase.repeat;
  const now: Tally = { passes, runs };
  const regressed = before !== undefined && !skipped && droppedSignificantly(before, now) ? { before, p: dropPValue(before, now) } : undefined;
  const verdict = verdictOf({ ...now, errors, finished: !skipped, minPassRate: testCase.minPassRate, regressed: regressed !== undefined });
  const passed = verdict === 'pass' || verdict === 'flaky';
  const shown = details.find((r) => !r.passed) ?? details.at(-1);
  const errorReasons = [...new Set(details.flatMap((r) => (r.error === undefined ? [] : [r.error])))];
  const reason = verdict === 'error' ? errorsLine({ errors, runs, errorReasons }) : verdict === 'skipped' ? stopLine({ runs, errors, repeat: testCase.repeat }) : undefined;
  return {
    name: testCase.name, passed, skipped, verdict, ...(reason ? { reason } : {}), runs, passes, errors, passRate, interval: wilsonInterval(now),
    ...(regressed ? { regressed } : {}),
    ...(testCase.criteria ? criteriaOf(testCase, details, shown) : {}),
    failures: unique(answered.flatMap((r) => r.failures), (f) => f.message),
    errorReasons,
    durationMs: details.reduce((sum, r) => sum + r.durationMs, 0),
    ...(shown?.turns ? { turns: shown.turns } : {}),
    details, repeat: testCase.repeat, minPassRate: testCase.minPassRate,
  };
}

/** "flaky: 14/20 passed, 95% interval 48–86%": a verdict with how sure it is. */
export function verdictLine(result: Pick<CaseResult, 'verdict' | 'passes' | 'runs' | 'interval'>): string {
  // No decided run, no rate: "0/0 passed, 95% interval 0–100%" would read as a result.
  return result.runs > 0 ? `${result.verdict}: ${tallyLine(result)}` : result.verdict;
}

/** "14/20 passed, 95% interval 48–86%". */
export function tallyLine(result: Pick<CaseResult, 'passes' | 'runs' | 'interval'>): string {
  return `${result.passes}/${result.runs} passed, 95% interval ${intervalText(result.interval)}`;
}

function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

/** "regressed: 14/20 passed, against 20/20 in the baseline (p = 0.010)". */
export function regressionLine(result: Pick<CaseResult, 'passes' | 'runs'>, regression: Regression): string {
  return `regressed: ${result.passes}/${result.runs} passed, against ${regression.before.passes}/${regression.before.runs} in the baseline (${pText(regression.p)})`;
}

/**
 * "3 of 10 runs errored (so they are not counted): <why>": the why says what happened (a failed request, a judge's
 * answer without a verdict, quoted), as an errored run may have had an answer, only no usable one.
 */
export function errorsLine(result: Pick<CaseResult, 'errors' | 'runs' | 'errorReasons'>): string {
  const of = result.errors + result.runs;
  const counted = result.errors === 1 ? 'it is' : 'they are';
  return `${result.errors} of ${plural(of, 'run')} errored (so ${counted} not counted): ${result.errorReasons.join('; ')}`;
}

/** "not run: the run was cancelled", "stopped: the run was cancelled after 3 of 10 runs". */
function stopLine({ runs, errors, repeat }: Pick<CaseResult, 'runs' | 'errors' | 'repeat'>): string {
  const ended = runs + errors;
  return ended === 0 ? 'not run: the run was cancelled' : `stopped: the run was cancelled after ${ended} of ${plural(repeat, 'run')}`;
}

/** What a case that did not pass or finish says of its tally, apart from errors, a regression and failed assertions: a stop, or its rate. */
export function tallyMessages(result: CaseResult): string[] {
  const lines: string[] = [];
  if (result.skipped) lines.push(stopLine(result));
  // A rate of no decided run says nothing: the errors say why there is none.
  else if (result.repeat > 1 && result.runs > 0 && result.passRate < result.minPassRate) {
    lines.push(`passed ${result.passes} of ${plural(result.runs, 'answered run')} (${percent(result.passRate)}); it needs ${percent(result.minPassRate)}`);
  }
  return lines;
}

/**
 * Why a case did not pass, one line each: its errors, a regression (why a case whose rate would pass fails), its
 * failed assertions, then its tally; empty when it passed.
 */
export function caseMessages(result: CaseResult): string[] {
  if (result.passed) return [];
  return [
    ...(result.errors > 0 ? [errorsLine(result)] : []),
    ...(result.regressed ? [regressionLine(result, result.regressed)] : []),
    ...result.failures.map((f) => f.message),
    ...tallyMessages(result),
  ];
}

/** One run's answer and its failures: a single request, or a conversation's turns. */
async function answer(testCase: TestCase, execute: Execute, context: ExecuteContext, now: () => number): Promise<ConversationOutcome & Pick<CaseRun, 'transcript' | 'criteria'>> {
  if (testCase.simulate) return runSimulatedCall(testCase, execute, context, now);
  if (testCase.turns) return runConversation(testCase, testCase.turns, execute, context, now);
  const output = await execute(testCase, context);
  return { output, failures: checkOutput(testCase.expect, output) };
}

/** One suite's cases run and judged; the one engine behind the CLI's `test` and the Testing view. */
export async function runSuite(suite: Suite, execute: Execute, options: RunOptions = {}): Promise<SuiteResult> {
  const concurrency = options.concurrency ?? LIMITS.testConcurrency.value;
  // The concurrency bounds requests, not runs: a simulated call sends a dozen requests one after another, and calls
  // in flight side by side keep every slot busy while each waits for its own answers.
  const slot = limiter(concurrency);
  const slotted: Execute = Object.assign((testCase: TestCase, context: ExecuteContext) => slot(() => {
    // A request that waited for its slot past a cancellation is not sent.
    if (context.signal.aborted) return Promise.reject(new Error('cancelled before it was sent'));
    return execute(testCase, context);
  }), { prompts: execute.prompts });
  const now = options.now ?? (() => performance.now());
  const signal = options.signal ?? new AbortController().signal;
  const cases = suite.cases.filter((c) => !options.only || options.only.has(c.name));
  const runs = new Map<TestCase, CaseRun[]>(cases.map((c) => [c, []]));
  const finished = new Map<TestCase, CaseResult>();
  const judged = (testCase: TestCase): CaseResult => caseResult(testCase, runs.get(testCase) ?? [], options.baseline?.get(testCase.name));
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
        failures.push({ field: 'duration', assertion: 'maxMs', message: `duration: took ${Math.round(durationMs)} ms, more than maxMs ${testCase.maxMs}` });
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
