/**
 * Conversations in the results panel: a Test Prompt run whose answer names a
 * next prompt can be continued there, each turn a run of its own (recorded
 * with the prompt that answered it) linked to the turn before. Pure, so the
 * panel and Save as Conversation Case read the turns one way.
 */
import { responseOf, type ConversationLink, type RunRecord } from './history';
import { isJsonObject, type Json, type JsonObject } from './json';

/** The prompt and parameters a run's answer hands the conversation on to; undefined when it names no next prompt. */
export function nextStep(run: RunRecord): { promptId: number; params: JsonObject } | undefined {
  const response = run.operation === 'test_prompt' && run.outcome.kind === 'ok' ? responseOf(run.outcome) : undefined;
  const next = response?.next_prompt_id;
  if (typeof next !== 'number') return undefined;
  const params = response?.next_prompt_params;
  return { promptId: next, params: isJsonObject(params) ? params : {} };
}

/** The link a run continuing `run` records. */
export function linkAfter(run: RunRecord): ConversationLink {
  return { turn: (run.conversation?.turn ?? 1) + 1, previous: { resource: run.resource, runId: run.id } };
}

/**
 * The turns that led to `last`, oldest first, `last` included. The history
 * keeps a bounded number of runs: where an earlier turn has dropped out, the
 * conversation starts at the oldest turn still kept.
 */
export function conversationTurns(
  last: RunRecord,
  find: (resource: string, runId: string) => RunRecord | undefined,
): RunRecord[] {
  const turns = [last];
  // Bounded by the last turn's number, so records that (edited by hand) link in a circle still end.
  for (let run = last; run.conversation && turns.length < (last.conversation?.turn ?? 1); ) {
    const previous = find(run.conversation.previous.resource, run.conversation.previous.runId);
    if (!previous) break;
    turns.unshift(previous);
    run = previous;
  }
  return turns;
}

const sameJson = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A suite case of the turns (contract "Conversations"): the first turn's
 * prompt_params as the case's, each later turn's own only where it differs
 * from what the answer before carried, and the prompt that answered each turn
 * (`answeredBy(run)`, its name) as that turn's expectation.
 */
export function conversationCase(
  turns: readonly RunRecord[],
  answeredBy: (run: RunRecord) => string,
  takenNames: ReadonlySet<string>,
): JsonObject {
  const [first] = turns;
  if (!first) throw new Error('A conversation case needs at least one turn.');
  const firstParams = first.inputs.prompt_params;
  const caseTurns = turns.map((run, index): JsonObject => {
    const carried = index === 0 ? undefined : nextStep(turns[index - 1] as RunRecord)?.params;
    const sent = run.inputs.prompt_params;
    const own =
      index > 0 && isJsonObject(sent)
        ? Object.fromEntries(Object.entries(sent).filter(([key, value]) => !sameJson(value, carried?.[key])))
        : {};
    return {
      prompt_text: typeof run.inputs.prompt_text === 'string' ? run.inputs.prompt_text : '',
      ...(Object.keys(own).length > 0 ? { prompt_params: own } : {}),
      expect: { prompt: answeredBy(run) },
    };
  });
  const base = `conversation: ${String(first.inputs.prompt_text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 40)}`;
  let name = base;
  for (let n = 2; takenNames.has(name); n++) name = `${base} (${n})`;
  return { name, ...(isJsonObject(firstParams) ? { prompt_params: firstParams } : {}), turns: caseTurns };
}

/** The id of the prompt a run's resource (`convai://…/ai_prompts/<id>.json`) names. */
export function promptIdOf(resource: string): number | undefined {
  const id = /\/ai_prompts\/(\d+)\.json$/.exec(resource)?.[1];
  return id === undefined ? undefined : Number(id);
}
