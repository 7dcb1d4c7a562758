import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import { pickConnection } from './pickers';
import { COMMANDS, registerCommand } from '../commands';
import { parseBaseUrl } from '../core/base-url';
import type { Log } from '../log';
import { ConnectionRef } from '../ui/notify';
import { messageOf } from '../core/text';
import { VS_CODE_ADVICE } from '../shared/advice';
import type { Connections } from './registry';
import { validateConnection, validateName, type Connection } from '../shared/settings';
import { validateToken } from './tokens';

/** The connection a UI invocation names (a tree node or a notification action), if any. */
function namedConnection(arg: unknown): string | undefined {
  if (arg instanceof ConnectionRef) return arg.name;
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg) {
    const name = (arg as { connectionName: unknown }).connectionName;
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

function errorOf(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return messageOf(error);
  }
}

async function askToken(name: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: `Token for ${name}`,
    prompt: "The bearer token; it is kept in VS Code's secret storage, never in settings.",
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => errorOf(() => validateToken(value)),
  });
}

async function askConnection(connections: Connections): Promise<{ connection: Connection; token: string } | undefined> {
  const title = 'Add ConvAI Connection';
  const name = await vscode.window.showInputBox({
    title,
    prompt: 'A short name: 1 to 40 characters of a-z, 0-9 and "-".',
    placeHolder: 'production',
    ignoreFocusOut: true,
    validateInput: (value) =>
      errorOf(() => validateName(value)) ??
      (connections.get(value)
        ? { message: `"${value}" exists and will be replaced.`, severity: vscode.InputBoxValidationSeverity.Warning }
        : undefined),
  });
  if (name === undefined) return undefined;
  const baseUrl = await vscode.window.showInputBox({
    title,
    prompt: "The service's base URL; /api/v1 is appended.",
    placeHolder: 'https://config.example.com',
    ignoreFocusOut: true,
    validateInput: (value) => errorOf(() => parseBaseUrl(value, VS_CODE_ADVICE)),
  });
  if (baseUrl === undefined) return undefined;
  const token = await askToken(name);
  if (token === undefined) return undefined;
  const tenantText = await vscode.window.showInputBox({
    title,
    prompt: 'Tenant id to show when the token may not list tenants (optional).',
    ignoreFocusOut: true,
    validateInput: (value) => (value === '' || /^\d{1,15}$/.test(value) ? undefined : 'A whole number, or empty.'),
  });
  if (tenantText === undefined) return undefined;
  const mode = await vscode.window.showQuickPick(
    [
      { label: 'Read and write', readOnly: false },
      {
        label: 'Read-only',
        readOnly: true,
        detail: 'Refuse every create, update, delete and action on this connection.',
      },
    ],
    { title, placeHolder: 'May this connection change the service?' },
  );
  if (!mode) return undefined;
  const connection = validateConnection({
    name,
    baseUrl,
    tenantId: tenantText === '' ? undefined : Number(tenantText),
    readOnly: mode.readOnly,
  });
  return { connection, token: validateToken(token) };
}

export function registerConnectionCommands(log: Log, connections: Connections): vscode.Disposable[] {
  return [
    registerCommand(log, COMMANDS.addConnection, {
      programmatic: async (args) => connections.upsert(validateConnection(args), validateToken(args.token)),
      interactive: async () => {
        const answer = await askConnection(connections);
        if (!answer) return;
        await connections.upsert(answer.connection, answer.token);
        void vscode.window.showInformationMessage(plain`Connection "${answer.connection.name}" added.`);
      },
    }),

    registerCommand(log, COMMANDS.removeConnection, {
      programmatic: async (args) => connections.remove(validateName(args.name)),
      interactive: async (arg) => {
        const name =
          namedConnection(arg) ??
          (await pickConnection(connections, { placeHolder: 'Connection to remove', alwaysAsk: true }));
        if (!name) return;
        const confirmed = await vscode.window.showWarningMessage(
          plain`Remove the connection "${name}"? Its token is deleted from secret storage; the service is not changed.`,
          { modal: true },
          'Remove',
        );
        if (confirmed === 'Remove') await connections.remove(name);
      },
    }),

    registerCommand(log, COMMANDS.setToken, {
      programmatic: async (args) => connections.setToken(validateName(args.name), validateToken(args.token)),
      interactive: async (arg) => {
        const name =
          namedConnection(arg) ??
          (await pickConnection(connections, { placeHolder: 'Connection whose token to set', alwaysAsk: true }));
        if (!name) return;
        const token = await askToken(name);
        if (token === undefined) return;
        await connections.setToken(name, validateToken(token));
        void vscode.window.showInformationMessage(plain`Token of "${name}" saved.`);
      },
    }),
  ];
}
