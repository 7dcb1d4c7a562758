import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import { conversationTurns, linkAfter, nextStep } from '../core/run-conversations';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { draftOf } from '../core/run-inputs';
import { parseResourcePath, toResourceUriString } from '../core/uri';
import { describeNamed } from '../listings/names';
import type { Log } from '../log';
import type { HistoryStore } from '../shared/history-store';
import { optionalObject, requiredString } from './commands';
import type { ResourceLocation, Runner } from './runner';

/**
 * Continue Conversation: the next turn of a Test Prompt run whose answer names a next prompt, sent to that prompt
 * with the parameters the answer carried, through the runner, so the turn is recorded linked to the one before.
 */
/** The turn after the recorded run `arg` names: the prompt its answer names, and the link to the run. */
function nextTurn(history: HistoryStore, arg: unknown) {
  const run = history.named(arg);
  const step = run && nextStep(run);
  if (!run || !step)
    throw new Error(
      'resource and runId must name a recorded test_prompt run whose answer names a next prompt (next_prompt_id not null).',
    );
  const here = vscode.Uri.parse(run.resource);
  const location = parseResourcePath(here.authority, here.path);
  if (location?.type !== 'resource') throw new Error(`${run.resource} is no prompt.`);
  const next: ResourceLocation = { ...location, segment: 'ai_prompts', id: step.promptId };
  return { run, step, next, uri: vscode.Uri.parse(toResourceUriString(next)), conversation: linkAfter(run) };
}

export function registerConversationCommands(
  log: Log,
  runner: Runner,
  history: HistoryStore,
  listings: ListingCache,
): vscode.Disposable[] {
  return [
    registerCommand<unknown>(log, COMMANDS.continueConversation, {
      programmatic: async (args) => {
        const { step, uri, next, conversation } = nextTurn(history, args);
        // The carried parameters, with the caller's own over them, as a suite's later turn is sent.
        const params = { ...step.params, ...optionalObject(args.promptParams, 'promptParams') };
        const inputs: JsonObject = {
          prompt_text: requiredString(args.promptText, 'promptText'),
          prompt_params: params,
        };
        const { record, response } = await runner.run({
          operation: 'test_prompt',
          uri,
          location: next,
          inputs,
          interactive: false,
          conversation,
        });
        return { resource: record.resource, runId: record.id, response };
      },
      interactive: async (arg) => {
        const { run, step, uri, next, conversation } = nextTurn(history, arg);
        const label = await describeNamed(listings, next);
        const turns = conversationTurns(run, (resource, runId) => history.find(resource, runId));
        const inputs = await runner.askInputs(
          { resource: uri.toString(), label },
          'test_prompt',
          draftOf('test_prompt', { prompt_text: '', prompt_params: step.params }),
          turns,
        );
        if (!inputs) return undefined;
        return (
          await runner.run({ operation: 'test_prompt', uri, location: next, inputs, interactive: true, conversation })
        ).response;
      },
    }),
  ];
}
