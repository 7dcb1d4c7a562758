import * as vscode from 'vscode';
import { parseApiKey } from '../core/api-key';
import { checkDefinitionObject, parseDefinition } from '../core/request-definition';
import type { RequestDefinition } from '../core/request-builder';
import { plural } from '../core/text';

export const SECRET_PREFIX = 'convai.requestSecret.';
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export interface LoadedDefinition {
  definition: RequestDefinition;
  /** `API request "Order status"`, for titles and messages. */
  label: string;
  /** The history key: the file's URI, or a name for a definition passed as an object. */
  resource: string;
}

function labelOf(definition: RequestDefinition, fallback: string): string {
  return `API request "${definition.name?.trim() || fallback}"`;
}

/** A definition file's current text: the editor's, unsaved edits included, or the file's. */
async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

export async function loadFromUri(uri: vscode.Uri): Promise<LoadedDefinition> {
  const { definition, problems } = parseDefinition(await textOf(uri));
  const name = uri.path.split('/').pop() ?? uri.toString();
  if (!definition) {
    const errors = problems.filter((p) => p.severity === 'error');
    throw new Error(
      `${name} has ${plural(errors.length, 'problem')}: ${errors
        .slice(0, 3)
        .map((p) => p.message)
        .join('; ')}. Fix them (they are marked in the editor) and try again.`,
    );
  }
  return { definition, label: labelOf(definition, name), resource: uri.toString() };
}

export function loadFromObject(value: unknown): LoadedDefinition {
  const problems = checkDefinitionObject(value);
  if (problems.length > 0) throw new Error(`definition is not valid: ${problems.join('; ')}.`);
  const definition = value as RequestDefinition;
  return { definition, label: labelOf(definition, 'unnamed'), resource: `apirequest:${definition.name ?? 'unnamed'}` };
}

/** The API Key a definition names: a literal, an environment variable, or a secret in SecretStorage. */
export async function resolveApiKey(
  definition: RequestDefinition,
  secrets: vscode.SecretStorage,
): Promise<string | undefined> {
  const ref = parseApiKey(definition.api_key);
  switch (ref.kind) {
    case 'none':
      return undefined;
    case 'literal':
      return ref.value;
    case 'env': {
      const value = process.env[ref.name];
      if (value === undefined)
        throw new Error(`api_key names the environment variable ${ref.name}, which is not set for VS Code.`);
      return value;
    }
    case 'secret': {
      const value = await secrets.get(SECRET_PREFIX + ref.name);
      if (value === undefined)
        throw new Error(
          `api_key names the secret "${ref.name}", which is not stored yet: run "ConvAI: Store Request Secret".`,
        );
      return value;
    }
  }
}
