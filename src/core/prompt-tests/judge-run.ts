/**
 * A judge file run against its judge prompt (contract: "Judge calibration"):
 * each label judged `repeat` times as a criterion is, the majority compared
 * with the label, and the file's figures. As in a suite run, a failed request
 * is an error, not evidence about the judge: it is kept out of the figures and
 * fails the file; an answer that is no verdict is evidence against it.
 */
import type { ServiceClient } from '../client';
import type { JsonObject } from '../json';
import { LIMITS } from '../limits';
import { mapWithLimit } from '../concurrency';
import { sendOperation } from '../operation';
import { messageOf, plural } from '../text';
import { calibrate, calibrationLine, meetsKappa, type Calibration, type LabelOutcome } from './calibration';
import { judgeCriterion, JudgeError, type Judgement } from './judge';
import type { JudgeFile, Label } from './judge-file';
import { caseResult } from './verdict';
import type { CaseRun, CaseResult, SuiteResult } from './types';
import type { TestCase } from './suite';
import { prepareSuite, type ResolvedTarget } from './target';

/** The judge prompt in the tenant, found as a suite's prompt is (by name, else id); throws TargetError. */
export function prepareJudge(
  client: ServiceClient,
  file: Pick<JudgeFile, 'judge'>,
  tenantId: number,
  where: string,
  signal?: AbortSignal,
): Promise<ResolvedTarget> {
  return prepareSuite(
    client,
    { resource: { segment: 'ai_prompts', ref: file.judge }, cases: [] },
    tenantId,
    where,
    signal,
  );
}

/** Asks the judge once; rejects when the request fails. */
export type AskJudge = (inputs: JsonObject, signal: AbortSignal) => Promise<JsonObject>;

export function judgeAsker(client: ServiceClient, judge: ResolvedTarget): AskJudge {
  return (inputs, signal) => sendOperation(client, judge, inputs, { signal });
}

export interface CalibrationOptions {
  concurrency?: number;
  signal?: AbortSignal;
  onLabelStarted?: (label: Label) => void;
  onLabelFinished?: (label: Label, result: CaseResult, judgement?: Judgement) => void;
  now?: () => number;
}

export interface CalibrationResult {
  /** Each label as a case that passed when the judge agreed with it; a label not judged is skipped. */
  result: SuiteResult;
  /** The figures of the labels judged or unreadable. */
  calibration: Calibration;
  minKappa: number;
  /** kappa met minKappa, and every label was judged without a failed request. */
  passed: boolean;
  /** Why the file did not pass; empty when it did. */
  messages: string[];
}

/** "the judge said "fail" (2 of 3), labelled "pass": <reasoning> (quote: "…")". */
function disagreement(label: Label, judgement: Judgement): string {
  const votes = judgement.votes.pass + judgement.votes.fail;
  const quote = judgement.quote !== undefined ? ` (quote: ${JSON.stringify(judgement.quote)})` : '';
  return `the judge said "${judgement.verdict}"${votes > 1 ? ` (${judgement.votes[judgement.verdict]} of ${votes})` : ''}, labelled "${label.expected}": ${judgement.reasoning}${quote}`;
}

/**
 * A label's judgement as a case's runs, so it is reported as a case is: each vote a run that passed when it agreed
 * with the label; an unreadable answer or a failed request one run of a case of one.
 */
function asCase(
  label: Label,
  repeat: number,
  ended: { judgement?: Judgement; unreadable?: string; error?: string; durationMs: number } | undefined,
): CaseResult {
  const testCase: TestCase = { name: label.name, expect: {}, repeat, minPassRate: 0.5, range: label.range };
  if (!ended) return caseResult(testCase, []);
  const { judgement, durationMs } = ended;
  if (!judgement) {
    const run: CaseRun =
      ended.error !== undefined
        ? { passed: false, durationMs, failures: [], error: ended.error }
        : {
            passed: false,
            durationMs,
            failures: [
              {
                field: 'verdict',
                assertion: 'equals',
                message: ended.unreadable ?? 'no verdict',
                expected: label.expected,
                actual: '(no verdict)',
              },
            ],
          };
    return caseResult({ ...testCase, repeat: 1 }, [run]);
  }
  const failure = {
    field: 'verdict',
    assertion: 'equals' as const,
    message: disagreement(label, judgement),
    expected: label.expected,
    actual: judgement.verdict,
  };
  const agreed = judgement.votes[label.expected];
  const runs = Array.from(
    { length: repeat },
    (_, index): CaseRun => ({
      passed: index < agreed,
      durationMs: durationMs / repeat,
      failures: index < agreed ? [] : [failure],
    }),
  );
  return caseResult(testCase, runs);
}

/** Why kappa could not be computed: one verdict alone among labels and verdicts, and whether the file has labels of the other. */
function noKappa(calibration: Calibration, unweighed: readonly Label[]): string {
  const only = calibration.tpr === null ? 'fail' : 'pass';
  const other = only === 'pass' ? 'fail' : 'pass';
  const missed = unweighed.filter((label) => label.expected === other).length;
  // The file has labels of the other verdict: they were not judged, so adding more would change nothing.
  if (missed > 0)
    return `kappa cannot be computed: the file's ${plural(missed, `"${other}" label`)} ${missed === 1 ? 'was' : 'were'} not judged (a failed request or a cancelled run), so every label weighed and every verdict is "${only}"; run the file again once the judge answers`;
  return `kappa cannot be computed: every label and every verdict is "${only}", which chance alone agrees with; add labels the judge should give the other verdict`;
}

/** Why a file with these figures and results does not pass; empty when it does. `unweighed`: the labels not judged. */
function fileMessages(
  calibration: Calibration,
  minKappa: number,
  result: SuiteResult,
  unweighed: readonly Label[],
): string[] {
  const errors = result.cases.filter((c) => c.errors > 0).length;
  const messages: string[] = [];
  if (errors > 0)
    messages.push(
      `${errors} of ${result.cases.length} labels could not be judged (the request failed), so the figures leave them out and the file does not pass`,
    );
  if (result.skipped > 0)
    messages.push(`${result.skipped} of ${result.cases.length} labels were not judged: the run was cancelled`);
  if (calibration.kappa === null && calibration.labels > 0) messages.push(noKappa(calibration, unweighed));
  else if (calibration.kappa !== null && !meetsKappa(calibration, minKappa))
    messages.push(
      `kappa ${calibration.kappa.toFixed(2)} is below minKappa ${minKappa.toFixed(2)}: ${calibrationLine(calibration, minKappa)}`,
    );
  return messages;
}

/** The file's labels judged by `ask`, at most `concurrency` labels at once; a cancelled run stops sending. */
export async function runJudgeFile(
  file: JudgeFile,
  judgeName: string,
  ask: AskJudge,
  options: CalibrationOptions = {},
): Promise<CalibrationResult> {
  const now = options.now ?? (() => performance.now());
  const signal = options.signal ?? new AbortController().signal;
  const outcomes = new Map<Label, LabelOutcome>();
  const cases = await mapWithLimit(file.labels, options.concurrency ?? LIMITS.testConcurrency.value, async (label) => {
    if (signal.aborted) return finish(label, undefined);
    options.onLabelStarted?.(label);
    const started = now();
    const request = { rubric: label.rubric, criterion: label.name, transcript: label.transcript };
    try {
      const judgement = await judgeCriterion((inputs) => ask(inputs, signal), request, file.repeat, judgeName);
      outcomes.set(label, { expected: label.expected, judged: judgement.verdict, unanimous: judgement.unanimous });
      return finish(label, { judgement, durationMs: now() - started }, judgement);
    } catch (error) {
      // A request the cancellation cut off judged nothing.
      if (signal.aborted) return finish(label, undefined);
      const durationMs = now() - started;
      if (!(error instanceof JudgeError)) return finish(label, { error: messageOf(error), durationMs });
      outcomes.set(label, { expected: label.expected, judged: 'unreadable', unanimous: false });
      return finish(label, { unreadable: error.message, durationMs });
    }
  });
  function finish(label: Label, ended: Parameters<typeof asCase>[2], judgement?: Judgement): CaseResult {
    const result = asCase(label, file.repeat, ended);
    options.onLabelFinished?.(label, result, judgement);
    return result;
  }
  const result: SuiteResult = {
    passed: cases.filter((c) => c.passed).length,
    failed: cases.filter((c) => !c.passed && !c.skipped).length,
    skipped: cases.filter((c) => c.skipped).length,
    cases,
  };
  const calibration = calibrate(file.labels.flatMap((label) => outcomes.get(label) ?? []));
  const messages = fileMessages(
    calibration,
    file.minKappa,
    result,
    file.labels.filter((label) => !outcomes.has(label)),
  );
  return { result, calibration, minKappa: file.minKappa, passed: messages.length === 0, messages };
}
