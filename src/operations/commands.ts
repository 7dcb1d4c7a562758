import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import { COMMANDS, registerCommand } from '../commands';
import type { JsonObject } from '../core/json';
import { promptPlaceholders } from '../core/prompt-text';
import { kindOfSegment } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { draftOf, promptDraft } from '../core/run-inputs';
import type { Drafts } from '../documents/drafts';
import { fileTarget } from '../shared/locations';
import { hasUnsavedEdits, saveUnsavedEdits } from '../documents/unsaved';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import { describeNamed } from '../listings/names';
import type { Log } from '../log';
import type { HistoryStore } from '../shared/history-store';
import type { ResourceLocation, Runner } from './runner';

/** The prompt or integration a command names; a script must name it, a user may mean the active editor. */
function resourceOf(
  arg: unknown,
  segments: readonly TenantSegment[],
  fromUser: boolean,
): { uri: vscode.Uri; location: ResourceLocation } {
  const targeted = fileTarget(arg, fromUser);
  const location = targeted?.location;
  const uri = targeted?.uri;
  if (!uri || location?.type !== 'resource' || !segments.includes(location.segment)) {
    const what = segments.map((s) => kindOfSegment(s).label).join(' or ');
    throw new Error(
      `uri must name an ${what}: open one (or choose it in the ConvAI view), or pass convai://<connection>/tenants/<tenantId>/${segments.join('|')}/<id>.json.`,
    );
  }
  return { uri, location };
}

export function optionalObject(value: unknown, field: string): JsonObject | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${field} must be an object.`);
  return value as JsonObject;
}

export function requiredString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new Error(`${field} must be a non-empty string.`);
  return value;
}

/** An action's unsaved edits and drafts do not run (the service runs what it holds): say so, and offer to save first. */
async function settleUnsaved(drafts: Drafts, uri: vscode.Uri, label: string, verb: 'Execute'): Promise<boolean> {
  const resource = uri.toString();
  if (!hasUnsavedEdits(drafts, resource)) return true;
  const choice = await vscode.window.showWarningMessage(
    plain`${label} has changes that are not saved to the service (unsaved, or kept as a draft by auto-save).`,
    { modal: true, detail: 'The service runs the saved version. Save first to run your changes.' },
    `Save and ${verb}`,
    `${verb} Saved Version`,
  );
  if (choice === `Save and ${verb}`) return saveUnsavedEdits(drafts, resource);
  return choice === `${verb} Saved Version`;
}

export function registerOperationCommands(
  log: Log,
  connections: Connections,
  runner: Runner,
  history: HistoryStore,
  listings: ListingCache,
  drafts: Drafts,
): vscode.Disposable[] {
  return [
    registerCommand(log, COMMANDS.testPrompt, {
      programmatic: async (args) => {
        const { uri, location } = resourceOf(args.uri, ['ai_prompts'], false);
        const inputs: JsonObject = { prompt_text: requiredString(args.promptText, 'promptText') };
        const params = optionalObject(args.promptParams, 'promptParams');
        if (params) inputs.prompt_params = params;
        return (await runner.run({ operation: 'test_prompt', uri, location, inputs, interactive: false })).response;
      },
      interactive: async (arg) => {
        const { uri, location } = resourceOf(arg, ['ai_prompts'], true);
        const label = await describeNamed(listings, location);
        // Unsaved edits run as a trial (or, by convai.tests.unsavedEdits, the saved version does): nothing is saved.
        const prompt = await connections
          .client(location.connection)
          .get(kindOfSegment('ai_prompts'), location.id, location.tenantId);
        const resource = uri.toString();
        const draft = promptDraft(
          promptPlaceholders(prompt),
          history.runs(resource)[0]?.inputs,
          history.recent('prompt_text')[0],
        );
        const inputs = await runner.askInputs({ resource, label }, 'test_prompt', draft);
        if (!inputs) return undefined;
        return (await runner.run({ operation: 'test_prompt', uri, location, inputs, interactive: true })).response;
      },
    }),

    registerCommand(log, COMMANDS.executeAction, {
      programmatic: async (args) => {
        const { uri, location } = resourceOf(args.uri, ['integrations'], false);
        const inputs: JsonObject = { action: requiredString(args.action, 'action') };
        const params = optionalObject(args.params, 'params');
        if (params) inputs.params = params;
        return (await runner.run({ operation: 'execute_action', uri, location, inputs, interactive: false })).response;
      },
      interactive: async (arg) => {
        const { uri, location } = resourceOf(arg, ['integrations'], true);
        const label = await describeNamed(listings, location);
        runner.refuseReadOnly('execute_action', location);
        if (!(await settleUnsaved(drafts, uri, label, 'Execute'))) return undefined;
        const resource = uri.toString();
        // The integration's last action and params, else the last action of all.
        const last = history.runs(resource)[0]?.inputs;
        const draft = last ? draftOf('execute_action', last) : { text: history.recent('action')[0] ?? '', json: '' };
        const inputs = await runner.askInputs({ resource, label }, 'execute_action', draft);
        if (!inputs) return undefined;
        return (await runner.run({ operation: 'execute_action', uri, location, inputs, interactive: true })).response;
      },
    }),

    registerCommand(log, COMMANDS.showRunHistory, {
      programmatic: async (args) =>
        history.runs(resourceOf(args.uri, ['ai_prompts', 'integrations'], false).uri.toString()),
      interactive: async (arg) => {
        const { uri, location } = resourceOf(arg, ['ai_prompts', 'integrations'], true);
        runner.show(uri.toString(), await describeNamed(listings, location));
        return undefined;
      },
    }),
  ];
}
