import { applyEdits, modify } from '../core/jsonc';
import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import { COMMANDS, registerCommand, type CommandShells } from '../commands';
import { agentElementNames } from '../core/document-views';
import { isJsonObject, type JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { parseDocument } from '../core/json-document';
import {
  isElementFileName,
  PROMPT_PARTS,
  toResourceUriString,
  type PartLocation,
  type PromptPart,
  type WholeLocation,
} from '../core/uri';
import type { ConvaiFileSystem } from '../documents/filesystem';
import { fileTarget, toUri } from '../shared/locations';
import type { Log } from '../log';

const PART_HOLDS: Readonly<Record<PromptPart, string>> = {
  system: 'system instructions (Markdown)',
  user_prompt: 'prompt text (Markdown)',
  assistant: 'assistant response template (Markdown)',
  function_defs: 'function definitions (JSON array)',
  settings: 'settings (JSON object)',
};

type PromptOrAgent = Extract<WholeLocation, { type: 'resource' }> & { segment: 'ai_prompts' | 'agents' };

/** The prompt or agent a command names: a URI (of it or of one of its parts), a tree node, or the active editor. */
function promptOrAgent(arg: unknown): PromptOrAgent | undefined {
  const location = fileTarget(arg, true)?.location;
  return location?.type === 'resource' && (location.segment === 'ai_prompts' || location.segment === 'agents')
    ? (location as PromptOrAgent)
    : undefined;
}

function partOf(resource: PromptOrAgent, choice: { part?: unknown; element?: unknown }): PartLocation {
  const { connection, tenantId, id } = resource;
  if (resource.segment === 'ai_prompts') {
    if (!PROMPT_PARTS.includes(choice.part as PromptPart))
      throw new Error(`part must be one of ${PROMPT_PARTS.join(', ')}.`);
    return { type: 'part', connection, tenantId, segment: 'ai_prompts', id, part: choice.part as PromptPart };
  }
  if (typeof choice.element !== 'string' || !isElementFileName(choice.element)) {
    throw new Error(
      'element must name one of the agent\'s prompt elements (configuration.prompt[].name), without "/".',
    );
  }
  return { type: 'agentPrompt', connection, tenantId, segment: 'agents', id, element: choice.element };
}

/** The part a user picks: a prompt's five, or an agent's elements (read from the service). */
async function pickPart(resource: PromptOrAgent, files: ConvaiFileSystem): Promise<PartLocation | undefined> {
  if (resource.segment === 'ai_prompts') {
    const picked = await vscode.window.showQuickPick(
      PROMPT_PARTS.map((part) => ({ label: part, description: PART_HOLDS[part], part })),
      { placeHolder: 'Open which part of the prompt?' },
    );
    return picked && partOf(resource, picked);
  }
  const uri = toUri(resource);
  const agent = files.serviceObject(uri) ?? (await files.fetch(uri, resource)).base;
  const names = agentElementNames(agent);
  if (names.length === 0)
    throw new Error('This agent has no prompt elements (configuration.prompt) to open; add one in its document first.');
  const picked = await vscode.window.showQuickPick(
    names.map((element) => ({ label: plainText(element), description: 'prompt text (Markdown)', element })),
    { placeHolder: 'Open the prompt text of which element?' },
  );
  return picked && partOf(resource, picked);
}

/** `convai.openPromptPart`: `{ uri, part… }` opened as named, or a part of the open resource picked (or the menu's). */
function openPartCommand(log: Log, files: ConvaiFileSystem): CommandShells<string> {
  return {
    programmatic: async (args) => {
      const resource = promptOrAgent(args.uri);
      if (!resource)
        throw new Error(
          'uri must name an AI prompt or an agent: convai://<connection>/tenants/<tenantId>/ai_prompts|agents/<id>.json.',
        );
      const part = partOf(resource, args);
      await vscode.window.showTextDocument(toUri(part), { preview: false });
      return toResourceUriString(part);
    },
    interactive: async (arg, choice) => {
      const resource = promptOrAgent(arg);
      if (!resource)
        throw new Error('Open an AI prompt or an agent (or choose one in the ConvAI view) to open one of its parts.');
      const part =
        typeof choice === 'object' && choice !== null ? partOf(resource, choice) : await pickPart(resource, files);
      if (!part) return undefined;
      // Beside the whole document, which stays where it is.
      await vscode.window.showTextDocument(toUri(part), { preview: false, viewColumn: vscode.ViewColumn.Beside });
      log.for('parts').debug(`Opened ${toResourceUriString(part)}.`);
      return toResourceUriString(part);
    },
  };
}

/** A function definition (section 2.9) made from one of the tenant's AI functions (section 2.3). */
function definitionOf(aiFunction: JsonObject): JsonObject {
  const parameters = aiFunction.parameters;
  return {
    type: 'function',
    name: aiFunction.name ?? '',
    description: typeof aiFunction.description === 'string' ? aiFunction.description : '',
    parameters: isJsonObject(parameters) ? parameters : { type: 'object', properties: {} },
  };
}

/** Appends one of the tenant's AI functions to a prompt's function_defs document, which the user then saves. */
async function addAiFunction(
  listings: ListingCache,
  target: unknown,
  chooser: FunctionChooser,
  show: boolean,
): Promise<JsonObject | undefined> {
  const resource = promptOrAgent(target);
  if (resource?.segment !== 'ai_prompts')
    throw new Error('Open an AI prompt or its function_defs to add an AI function to it.');
  const part: PartLocation = {
    type: 'part',
    connection: resource.connection,
    tenantId: resource.tenantId,
    segment: 'ai_prompts',
    id: resource.id,
    part: 'function_defs',
  };
  const document = await vscode.workspace.openTextDocument(toUri(part));
  const { value } = parseDocument(document.getText());
  if (!Array.isArray(value))
    throw new Error(
      'function_defs must be a valid JSON array before an AI function can be added: fix the problems marked in it first.',
    );
  const defined = new Set(value.map((d: unknown) => (isJsonObject(d) ? d.name : undefined)));
  const outcome = await listings.get({
    connection: resource.connection,
    tenantId: resource.tenantId,
    segment: 'ai_functions',
  });
  if (!outcome.ok) throw outcome.error;
  const functions = outcome.value.filter((f) => typeof f.name === 'string' && f.name !== '');
  if (functions.length === 0)
    throw new Error(
      `Tenant ${resource.tenantId} has no AI functions yet: create one under AI Functions in the ConvAI view.`,
    );
  const chosen = await chooser(functions, defined, resource.tenantId);
  if (!chosen) return undefined;
  const definition = definitionOf(chosen);
  const text = document.getText();
  const edits = modify(text, [value.length], definition, {
    formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' },
  });
  const edit = new vscode.WorkspaceEdit();
  edit.replace(
    document.uri,
    new vscode.Range(document.positionAt(0), document.positionAt(text.length)),
    applyEdits(text, edits),
  );
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('VS Code did not apply the edit to function_defs.');
  if (show) await vscode.window.showTextDocument(document, { preview: false });
  return definition;
}

/** Which of the tenant's AI functions to add, given those already defined; undefined adds none. */
type FunctionChooser = (
  functions: JsonObject[],
  defined: ReadonlySet<unknown>,
  tenantId: number,
) => Promise<JsonObject | undefined>;

/** A program's choice: the function named, refused when it is not there or already defined. */
const namedFunction =
  (name: unknown): FunctionChooser =>
  async (functions, defined, tenantId) => {
    const chosen = functions.find((f) => f.name === name);
    if (!chosen)
      throw new Error(
        `name must name one of tenant ${tenantId}'s AI functions: ${functions.map((f) => String(f.name)).join(', ')}.`,
      );
    if (defined.has(chosen.name))
      throw new Error(`function_defs already defines "${String(chosen.name)}"; function names must be unique.`);
    return chosen;
  };

/** A user's choice among the functions not yet defined. */
const pickFunction: FunctionChooser = async (functions, defined, tenantId) => {
  const addable = functions.filter((f) => !defined.has(f.name));
  if (addable.length === 0) {
    void vscode.window.showInformationMessage(`function_defs already holds every AI function of tenant ${tenantId}.`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    addable.map((f) => ({
      label: plainText(String(f.name)),
      description: plainText(typeof f.description === 'string' ? f.description : ''),
      fn: f,
    })),
    { placeHolder: "Add which AI function to the prompt's function definitions?", matchOnDescription: true },
  );
  return picked?.fn;
};

export function registerPartCommands(log: Log, files: ConvaiFileSystem, listings: ListingCache): vscode.Disposable[] {
  return [
    registerCommand(log, COMMANDS.openPromptPart, openPartCommand(log, files)),
    registerCommand(log, COMMANDS.addAiFunction, {
      programmatic: (args) => addAiFunction(listings, args.uri, namedFunction(args.name), false),
      interactive: (arg) => addAiFunction(listings, arg, pickFunction, true),
    }),
  ];
}
