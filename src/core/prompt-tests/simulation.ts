/**
 * One simulated call (contract: "Simulated callers"): the caller prompt's
 * lines sent to the assistant, routed as a conversation's turns are, until
 * maxTurns answers, a stopWhen answer or the caller's end; then every
 * criterion judged by its judge prompt or checked on the call. One call is one
 * run of its case, so the engine weighs calls as it weighs other runs.
 */
import { isJsonObject, type JsonObject } from '../json';
import { messageOf } from '../text';
import { checkOutput } from './assertions';
import { transcriptText } from './call-transcript';
import { judgeCriterion } from './judge';
import type {
  CaseFailure,
  CriterionOutcome,
  ExecuteContext,
  Executor,
  PromptDirectory,
  TranscriptLine,
  TurnRequest,
  TurnResult,
} from './types';
import { isJudged, type CheckedCriterion, type Criterion, type Simulation } from './simulated-case';
import { refersTo, type TestCase } from './suite';

/** How a call ended. */
export type CallEnd = 'maxTurns' | 'stopWhen' | 'caller';

/** What a call came to, before its duration is weighed. */
export interface CallOutcome {
  output?: JsonObject;
  failures: CaseFailure[];
  error?: string;
  turns: TurnResult[];
  transcript: TranscriptLine[];
  criteria: CriterionOutcome[];
}

/** The prompt a suite names, by id, from the tenant's prompts; prepareSuite has checked that there is one. */
function promptId(ref: string | number, prompts: PromptDirectory): number {
  for (const [id, name] of prompts.names) if (refersTo(ref, { id, name })) return id;
  throw new Error(`${JSON.stringify(ref)} names no prompt of the tenant`);
}

const ENDS = /^\[end\]/i;

/** The call itself: caller and assistant in turn, each assistant answer a turn of the run. */
async function converse(
  testCase: TestCase,
  simulation: Simulation,
  executor: Executor,
  context: ExecuteContext,
  prompts: PromptDirectory,
  now: () => number,
) {
  const transcript: TranscriptLine[] = [];
  const turns: TurnResult[] = [];
  const caller = promptId(simulation.caller, prompts);
  const ask = (turn: number, id: number, inputs: JsonObject): Promise<JsonObject> =>
    executor.send(testCase, { ...context, turn: { turn, promptId: id, inputs } });
  let line = simulation.opening;
  let assistant = prompts.first;
  let carried = testCase.prompt_params;
  for (let turn = 1; ; turn++) {
    transcript.push({ speaker: 'caller', text: line });
    const request: TurnRequest = {
      turn,
      promptId: assistant,
      inputs: { prompt_text: line, ...(carried ? { prompt_params: carried } : {}) },
    };
    const promptName = prompts.names.get(assistant) ?? `#${assistant}`;
    const started = now();
    const output = await ask(turn, assistant, request.inputs);
    const text = typeof output.response === 'string' ? output.response : JSON.stringify(output.response ?? null);
    turns.push({ ...request, promptName, durationMs: now() - started, passed: true, failures: [], output });
    transcript.push({ speaker: 'assistant', prompt: promptName, text });
    const stop = simulation.stopWhen;
    if (
      stop &&
      (stop.prompt === undefined || refersTo(stop.prompt, { id: assistant, name: promptName })) &&
      checkOutput(stop.expect, output).length === 0
    )
      return { transcript, turns, end: 'stopWhen' as CallEnd };
    if (typeof output.next_prompt_id === 'number') assistant = output.next_prompt_id;
    carried = isJsonObject(output.next_prompt_params) ? output.next_prompt_params : undefined;
    if (turn >= simulation.maxTurns) return { transcript, turns, end: 'maxTurns' as CallEnd };
    const params = { ...simulation.params, persona: simulation.persona, transcript: transcriptText(transcript) };
    const said = (await ask(turn, caller, { prompt_text: text, prompt_params: params })).response;
    line = typeof said === 'string' ? said.trim() : '';
    if (line === '' || ENDS.test(line)) {
      if (line !== '') transcript.push({ speaker: 'caller', text: line });
      return { transcript, turns, end: 'caller' as CallEnd };
    }
  }
}

/** A criterion checked on the call: a prompt that answered, outputs every answer satisfies, an end within so many answers. */
function checked(
  criterion: CheckedCriterion,
  turns: readonly TurnResult[],
  end: CallEnd,
  prompts: PromptDirectory,
): CriterionOutcome {
  const { prompt, maxTurns, outputs } = criterion.expect;
  const reasons: string[] = [];
  if (
    prompt !== undefined &&
    !turns.some((t) => refersTo(prompt, { id: t.promptId, name: prompts.names.get(t.promptId) }))
  ) {
    reasons.push(
      `no answer came from ${JSON.stringify(prompt)}; the call went through ${[...new Set(turns.map((t) => JSON.stringify(t.promptName)))].join(', ')}`,
    );
  }
  if (maxTurns !== undefined && (end === 'maxTurns' || turns.length > maxTurns)) {
    reasons.push(
      end === 'maxTurns'
        ? `the call did not end within ${turns.length} answers (maxTurns of simulate)`
        : `the call ended after ${turns.length} answers, more than ${maxTurns}`,
    );
  }
  for (const turn of turns) {
    for (const failure of checkOutput(outputs, turn.output ?? {}))
      reasons.push(`answer ${turn.turn} (${JSON.stringify(turn.promptName)}): ${failure.message}`);
  }
  return { name: criterion.name, passed: reasons.length === 0, reason: reasons.join('; ') };
}

/**
 * A simulated call and its criteria. A failed request, or a judge answer that is no verdict, makes the call an error:
 * it is no evidence about the assistant, and never a pass.
 */
export async function runSimulatedCall(
  testCase: TestCase,
  executor: Executor,
  context: ExecuteContext,
  now: () => number,
): Promise<CallOutcome> {
  const prompts = executor.prompts;
  const { simulate, criteria = [], judgeRepeat = 1 } = testCase;
  if (!prompts || !simulate)
    return {
      failures: [],
      error: "a simulated call needs the tenant's prompts: run the suite with runSuiteAt from a prepared target",
      turns: [],
      transcript: [],
      criteria: [],
    };
  let call: Awaited<ReturnType<typeof converse>>;
  try {
    call = await converse(testCase, simulate, executor, context, prompts, now);
  } catch (error) {
    if (context.signal.aborted) throw error;
    return { failures: [], error: `the call: ${messageOf(error)}`, turns: [], transcript: [], criteria: [] };
  }
  const text = transcriptText(call.transcript);
  const outcomes: CriterionOutcome[] = [];
  for (const criterion of criteria as Criterion[]) {
    if (!isJudged(criterion)) {
      outcomes.push(checked(criterion, call.turns, call.end, prompts));
      continue;
    }
    const judge = promptId(criterion.judge, prompts);
    const judgeName = JSON.stringify(prompts.names.get(judge) ?? `#${judge}`);
    try {
      const judgement = await judgeCriterion(
        (inputs) => executor.send(testCase, { ...context, turn: { turn: call.turns.length, promptId: judge, inputs } }),
        { rubric: criterion.rubric, criterion: criterion.name, transcript: text },
        judgeRepeat,
        judgeName,
      );
      outcomes.push({
        name: criterion.name,
        passed: judgement.verdict === 'pass',
        reason: judgement.reasoning,
        judgement,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      // Undecided, not failed; the other criteria are still judged (contract: "Simulated callers").
      outcomes.push({ name: criterion.name, passed: false, reason: '', error: messageOf(error) });
    }
  }
  const failures: CaseFailure[] = outcomes
    .filter((o) => !o.passed && o.error === undefined)
    .map((o) => ({
      field: 'criterion',
      assertion: 'criterion',
      criterion: o.name,
      message: `criterion ${JSON.stringify(o.name)}: ${o.judgement ? `judged fail: ${o.reason}` : o.reason}`,
    }));
  // A criterion that failed decides the call; one left undecided keeps a call that would otherwise pass from passing.
  const undecided = failures.length > 0 ? [] : outcomes.filter((o) => o.error !== undefined);
  const error =
    undecided.length > 0
      ? undecided.map((o) => `criterion ${JSON.stringify(o.name)}: ${o.error ?? ''}`).join('; ')
      : undefined;
  return {
    output: call.turns.at(-1)?.output,
    failures,
    ...(error !== undefined ? { error } : {}),
    turns: call.turns,
    transcript: call.transcript,
    criteria: outcomes,
  };
}
