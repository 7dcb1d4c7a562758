/**
 * The prompt-test engine's shared words: what a run sends through and is told, and what runs, cases, criteria and
 * suites come to. Apart from the engine's modules (run, conversation, simulation), which all speak them, so that
 * none of those imports another for a type.
 */
import type { JsonObject } from '../json';
import type { Failure } from './assertions';
import type { Judgement } from './judge';
import type { Tally, Latency } from './statistics';
import type { TestCase } from './suite';

/** The suite's prompt and the names of the tenant's prompts, from the one listing that resolved the suite's target. */
export interface PromptDirectory {
  first: number;
  names: ReadonlyMap<number, string>;
}

/** One turn's request: its inputs, sent to the prompt with this id. */
export interface TurnRequest {
  /** 1-based. */
  turn: number;
  promptId: number;
  inputs: JsonObject;
}

/** One turn of a conversation's run, as it was sent and answered. */
export interface TurnResult extends TurnRequest {
  promptName: string;
  durationMs: number;
  passed: boolean;
  /** Each message names the turn and the prompt that answered it. */
  failures: CaseFailure[];
  output?: JsonObject;
  error?: string;
}

/** A line of a simulated call, as said. */
export interface TranscriptLine {
  speaker: 'caller' | 'assistant';
  /** The prompt that answered, by name (assistant lines). */
  prompt?: string;
  text: string;
}

/** A criterion's outcome in one call. */
export interface CriterionOutcome {
  name: string;
  passed: boolean;
  /** Why it failed (a judge's reasoning, what a check found); empty when it passed, unless a judge said why. */
  reason: string;
  /** A judged criterion's majority. */
  judgement?: Judgement;
  /** Why it was not decided: its judge's request failed, or the judge answered without a verdict (quoted). */
  error?: string;
}

/** One request's context: a cancellation, the turn of a conversation it sends, and a report of waits before retries. */
export interface ExecuteContext {
  signal: AbortSignal;
  turn?: TurnRequest;
  onWait?: (ms: number) => void;
}

/**
 * What a run sends its requests through: `send` sends one request, a case's inputs to the suite's resource or a
 * conversation's turn to the prompt it was routed to, and rejects when the request fails; `prompts` is what
 * conversations and simulated calls route and name their turns by, absent where the target is not a prompt.
 */
export interface Executor {
  send(testCase: TestCase, context: ExecuteContext): Promise<JsonObject>;
  readonly prompts?: PromptDirectory;
}

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
  /** The answered runs' durations, median and 95th percentile, in milliseconds; none when no run was answered. */
  latency?: Latency;
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
