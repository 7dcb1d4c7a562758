import * as vscode from 'vscode';
import { ServiceError } from '../core/errors';
import type { Log } from '../log';
import { messageOf } from '../core/text';
import { plainText } from '../core/plain-text';

const SHOW_LOG = 'Show Log';
const SET_TOKEN = 'Set Token';

/**
 * Shows a failure without blocking the caller; a 401 offers to set the connection's token. The message quotes the
 * service's texts and names, shown as text: a notification would make a Markdown link of them a command.
 */
export function showFailure(log: Log, error: unknown): void {
  const unauthorized = error instanceof ServiceError && error.status === 401 && error.connection;
  const actions = unauthorized ? [SET_TOKEN, SHOW_LOG] : [SHOW_LOG];
  void vscode.window.showErrorMessage(plainText(messageOf(error)), ...actions).then((choice) => {
    if (choice === SHOW_LOG) log.show();
    if (choice === SET_TOKEN && error instanceof ServiceError) {
      void vscode.commands.executeCommand('convai.setToken', new ConnectionRef(error.connection ?? ''));
    }
  });
}

/**
 * Names a connection to a command invoked from the UI (a class instance, so
 * the command treats it as interactive and asks for what is missing).
 */
export class ConnectionRef {
  constructor(readonly name: string) {}
}
