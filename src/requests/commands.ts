import * as vscode from 'vscode';
import { withSuffix } from '../core/file-names';
import { COMMANDS, registerCommand } from '../commands';
import type { JsonObject } from '../core/json';
import { MASK, maskSecret } from '../core/api-key';
import type { RunRecord } from '../core/history';
import { buildRequest, type BuiltRequest } from '../core/request-builder';
import { DEFINITION_SUFFIX, parameterNames } from '../core/request-definition';
import { networkSettings, requestTimeoutMs } from '../shared/settings';
import type { Log } from '../log';
import type { Runs } from '../shared/runs';
import { ReadOnlyDocuments } from '../shared/read-only-documents';
import {
  loadFromObject,
  loadFromUri,
  resolveApiKey,
  SECRET_NAME,
  SECRET_PREFIX,
  type LoadedDefinition,
} from './definitions';
import { askJsonObject } from './json-input';
import { send } from './sender';
import { definitionTemplate } from './template';
import { messageOf } from '../core/text';

const PREVIEW_SCHEME = 'convai-preview';

/** The built request with the API Key masked, as a preview shows it. */
function preview(built: BuiltRequest, apiKey: string | undefined): JsonObject {
  return maskSecret(
    {
      method: built.method,
      url: built.url,
      headers: built.headers,
      ...(built.body === undefined ? {} : { body: built.body }),
    } as JsonObject,
    apiKey,
  );
}

function argumentsOf(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error("arguments must be an object of the function's arguments.");
  return value as Record<string, unknown>;
}

/** The definition a UI call names, or one picked from the workspace. */
async function pickDefinition(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === 'convai-apirequest') return active.uri;
  const files = await vscode.workspace.findFiles('**/*.apirequest.json', '**/node_modules/**', 200);
  if (files.length === 0) {
    throw new Error(
      'There is no *.apirequest.json file in the workspace: create one with "ConvAI: New API Request Definition".',
    );
  }
  const picked = await vscode.window.showQuickPick(
    files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    { placeHolder: 'API request definition' },
  );
  return picked?.uri;
}

async function askArguments(loaded: LoadedDefinition): Promise<Record<string, unknown> | undefined> {
  const initial = Object.fromEntries(parameterNames(loaded.definition).map((name) => [name, '']));
  const answer = await askJsonObject(loaded.label, 'arguments (what the AI would pass)', initial as JsonObject);
  return answer === null ? undefined : (answer ?? {});
}

/** Read-only JSON documents showing previews beside the definition. */
class Previews implements vscode.Disposable {
  private readonly documents = new ReadOnlyDocuments(PREVIEW_SCHEME);
  private count = 0;

  async show(loaded: LoadedDefinition, shown: JsonObject): Promise<void> {
    const uri = vscode.Uri.from({
      scheme: PREVIEW_SCHEME,
      path: `/${loaded.definition.name ?? 'request'} preview.json`,
      query: String(++this.count),
    });
    this.documents.set(uri, `${JSON.stringify(shown, null, 2)}\n`);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'json');
    await vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
  }

  dispose(): void {
    this.documents.dispose();
  }
}

export function registerRequestCommands(log: Log, secrets: vscode.SecretStorage, runner: Runs): vscode.Disposable[] {
  const previews = new Previews();

  type Request = { loaded: LoadedDefinition; args: Record<string, unknown> };
  /** A program names the definition (its object or its file's URI) and gives the arguments. */
  const given = async (args: Record<string, unknown>): Promise<Request> => {
    const definition = args.definition;
    const loaded =
      definition !== undefined ? loadFromObject(definition) : await loadFromUri(vscode.Uri.parse(String(args.uri)));
    return { loaded, args: argumentsOf(args.arguments) };
  };
  /** A user picks the definition (or runs it from its editor) and is asked for its arguments. */
  const asked = async (arg: unknown): Promise<Request | undefined> => {
    const uri = await pickDefinition(arg);
    if (!uri) return undefined;
    const loaded = await loadFromUri(uri);
    const args = await askArguments(loaded);
    return args === undefined ? undefined : { loaded, args };
  };
  /** The request as its preview shows it, the API Key masked, and why the key cannot be resolved yet, if so. */
  const previewOf = async (request: Request): Promise<{ shown: JsonObject; problem?: string }> => {
    // A preview masks the key anyway, so one that cannot be resolved yet need not stop it.
    const key = await resolveApiKey(request.loaded.definition, secrets).then(
      (apiKey) => ({ apiKey, problem: undefined }),
      (error: unknown) => ({ apiKey: MASK, problem: messageOf(error) }),
    );
    return {
      shown: preview(buildRequest(request.loaded.definition, request.args, key.apiKey), key.apiKey),
      problem: key.problem,
    };
  };

  const sendRecorded = async (
    loaded: LoadedDefinition,
    args: Record<string, unknown>,
    interactive: boolean,
  ): Promise<JsonObject | undefined> => {
    if (!vscode.workspace.isTrusted) {
      throw new Error(
        'Sending a request definition needs a trusted workspace: its file decides where the request and the API Key go. Trust the workspace first (Manage Workspace Trust).',
      );
    }
    const apiKey = await resolveApiKey(loaded.definition, secrets);
    const built = buildRequest(loaded.definition, args, apiKey);
    const { response } = await runner.runJob({
      operation: 'send_request',
      resource: loaded.resource,
      label: loaded.label,
      inputs: { arguments: args as JsonObject },
      interactive,
      execute: async (signal) => {
        try {
          const answer = await send(built, {
            timeoutMs: requestTimeoutMs(),
            signal,
            network: networkSettings(new URL(built.url).origin),
          });
          const shown = maskSecret({ ...answer, request: preview(built, apiKey) } as JsonObject, apiKey);
          const ok = answer.status >= 200 && answer.status < 300;
          return {
            outcome: { kind: ok ? 'ok' : 'failed-status', response: shown },
            response: answer as unknown as JsonObject,
          };
        } catch (error) {
          if (signal.aborted) return { outcome: { kind: 'cancelled' }, error };
          return { outcome: { kind: 'error', message: maskSecret(messageOf(error), apiKey) }, error };
        }
      },
    });
    return response;
  };

  return [
    previews,
    runner.setRerunner('send_request', async (run: RunRecord) => {
      const loaded = await loadFromUri(vscode.Uri.parse(run.resource));
      await sendRecorded(loaded, argumentsOf(run.inputs.arguments), true);
    }),

    registerCommand(log, COMMANDS.previewRequest, {
      programmatic: async (args) => (await previewOf(await given(args))).shown,
      interactive: async (arg) => {
        const request = await asked(arg);
        if (!request) return undefined;
        const { shown, problem } = await previewOf(request);
        const sayBefore = request.loaded.definition.say_before;
        await previews.show(request.loaded, {
          ...(sayBefore ? { say_before: sayBefore } : {}),
          ...shown,
          ...(problem ? { note: `Sending needs the API Key: ${problem}` } : {}),
        });
        return shown;
      },
    }),

    registerCommand(log, COMMANDS.sendRequest, {
      programmatic: async (args) => {
        const request = await given(args);
        return sendRecorded(request.loaded, request.args, false);
      },
      interactive: async (arg) => {
        const request = await asked(arg);
        return request && sendRecorded(request.loaded, request.args, true);
      },
    }),

    registerCommand(log, COMMANDS.newRequestDefinition, async () => {
      const name = await vscode.window.showInputBox({
        title: 'New API Request Definition',
        prompt: `File name (${DEFINITION_SUFFIX} is added)`,
        value: 'order-status',
        validateInput: (value) => (/^[\w.-]+$/.test(value) ? undefined : 'Letters, digits, ".", "_" and "-" only.'),
      });
      if (!name) return undefined;
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (!folder) {
        const document = await vscode.workspace.openTextDocument({
          language: 'convai-apirequest',
          content: definitionTemplate(),
        });
        await vscode.window.showTextDocument(document);
        return document.uri;
      }
      const uri = vscode.Uri.joinPath(folder.uri, withSuffix(name, DEFINITION_SUFFIX));
      const exists = await vscode.workspace.fs.stat(uri).then(
        () => true,
        () => false,
      );
      if (exists) throw new Error(`${vscode.workspace.asRelativePath(uri)} exists already; choose another name.`);
      await vscode.workspace.fs.writeFile(uri, Buffer.from(definitionTemplate(), 'utf8'));
      await vscode.window.showTextDocument(uri);
      return uri;
    }),

    registerCommand(log, COMMANDS.storeRequestSecret, {
      programmatic: async (args) => storeSecret(secrets, secretName(args.name), args.value),
      interactive: async () => {
        const name = await vscode.window.showInputBox({
          title: 'Store Request Secret',
          prompt: 'Name, used in a definition as "api_key": "${secret:NAME}"',
          validateInput: (value) =>
            SECRET_NAME.test(value) ? undefined : 'Start with a letter or "_"; then letters, digits, ".", "_", "-".',
        });
        if (!name) return undefined;
        const value = await vscode.window.showInputBox({
          title: `Secret "${secretName(name)}"`,
          password: true,
          ignoreFocusOut: true,
          prompt: "Kept in VS Code's secret storage, never in files or settings.",
        });
        if (value === undefined || value === '') return undefined;
        await storeSecret(secrets, name, value);
        void vscode.window.showInformationMessage(
          `Secret "${name}" stored. Use it as "api_key": "\${secret:${name}}".`,
        );
        return undefined;
      },
    }),
  ];
}

function secretName(name: unknown): string {
  if (typeof name !== 'string' || !SECRET_NAME.test(name))
    throw new Error(
      `name must start with a letter or "_" and hold only letters, digits, ".", "_" and "-" (got ${JSON.stringify(name)}).`,
    );
  return name;
}

/** Stores a request secret in VS Code's secret storage, never anywhere else. */
async function storeSecret(secrets: vscode.SecretStorage, name: string, value: unknown): Promise<undefined> {
  if (typeof value !== 'string' || value === '')
    throw new Error(`value must be the secret "${name}" as a non-empty string.`);
  try {
    await secrets.store(SECRET_PREFIX + name, value);
  } catch (error) {
    throw new Error(
      `The secret "${name}" could not be stored in the system keychain (${messageOf(error)}); it is never kept in plain text instead.`,
    );
  }
  return undefined;
}
