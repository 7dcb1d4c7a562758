/**
 * One run of a conversation case (contract: "Conversations"): each turn sent to
 * the prompt the previous answer routed to, with the parameters it carried
 * forward, checked as it comes back; the first failing turn ends the run.
 */
import { isJsonObject, type JsonObject } from '../json';
import { messageOf } from '../text';
import { checkOutput } from './assertions';
import type { CaseFailure, CaseRun, ExecuteContext, Executor, TurnRequest, TurnResult } from './types';
import { refersTo, type TestCase, type Turn } from './suite';

/** What a conversation's run came to, before its duration is weighed. */
export type ConversationOutcome = Pick<CaseRun, 'output' | 'failures' | 'error' | 'turns'>;

function promptText(id: number, names: ReadonlyMap<number, string>): string {
  return `${JSON.stringify(names.get(id) ?? `#${id}`)} (${id})`;
}

function expectedPrompt(ref: string | number, names: ReadonlyMap<number, string>): string {
  return typeof ref === 'number' ? promptText(ref, names) : JSON.stringify(ref);
}

/** A turn's failures, each message naming the turn and who answered it. */
function turnFailures(
  turn: Turn,
  number: number,
  promptId: number,
  names: ReadonlyMap<number, string>,
  output: JsonObject,
): CaseFailure[] {
  const who = promptText(promptId, names);
  const failures: CaseFailure[] = [];
  if (turn.prompt !== undefined && !refersTo(turn.prompt, { id: promptId, name: names.get(promptId) })) {
    const expected = expectedPrompt(turn.prompt, names);
    failures.push({
      field: 'prompt',
      assertion: 'prompt',
      message: `turn ${number}: answered by ${who}, expected ${expected}`,
      expected,
      actual: who,
      turn: number,
    });
  }
  for (const failure of checkOutput(turn.expect, output))
    failures.push({ ...failure, message: `turn ${number}: answered by ${who}; ${failure.message}`, turn: number });
  return failures;
}

/** Sends a conversation's turns in order; rejects only when the run was cancelled. */
export async function runConversation(
  testCase: TestCase,
  turns: readonly Turn[],
  executor: Executor,
  context: ExecuteContext,
  now: () => number,
): Promise<ConversationOutcome> {
  const prompts = executor.prompts;
  if (!prompts)
    return {
      failures: [],
      error:
        "a conversation needs the tenant's prompts to route its turns: run the suite with runSuiteAt from a prepared target",
    };
  const results: TurnResult[] = [];
  let promptId = prompts.first;
  let carried = testCase.prompt_params;
  let output: JsonObject | undefined;
  for (const [index, turn] of turns.entries()) {
    const number = index + 1;
    const params = { ...carried, ...turn.prompt_params };
    const request: TurnRequest = {
      turn: number,
      promptId,
      inputs: { prompt_text: turn.prompt_text, ...(Object.keys(params).length > 0 ? { prompt_params: params } : {}) },
    };
    const promptName = prompts.names.get(promptId) ?? `#${promptId}`;
    const started = now();
    // A turn's time is the service's, as a run's is: a wait before a retry is left out of both.
    let waited = 0;
    const took = (): number => Math.max(0, now() - started - waited);
    try {
      output = await executor.send(testCase, {
        ...context,
        turn: request,
        onWait: (ms) => {
          waited += ms;
          context.onWait?.(ms);
        },
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      const message = `turn ${number}: sent to ${promptText(promptId, prompts.names)}: ${messageOf(error)}`;
      results.push({ ...request, promptName, durationMs: took(), passed: false, failures: [], error: message });
      return { failures: [], error: message, turns: results };
    }
    const failures = turnFailures(turn, number, promptId, prompts.names, output);
    results.push({ ...request, promptName, durationMs: took(), passed: failures.length === 0, failures, output });
    if (failures.length > 0) return { output, failures, turns: results };
    // A null next_prompt_id keeps the conversation on the prompt that answered.
    if (typeof output.next_prompt_id === 'number') promptId = output.next_prompt_id;
    carried = isJsonObject(output.next_prompt_params) ? output.next_prompt_params : undefined;
  }
  return { output, failures: [], turns: results };
}
