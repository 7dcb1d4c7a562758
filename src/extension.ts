import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from './commands';
import { Log } from './log';
import * as tree from './tree/register';

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(log);
  const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
  log.for('main').info(`ConvAI Config ${version} activated in VS Code ${vscode.version} (${vscode.env.appHost}).`);
  try {
    context.subscriptions.push(
      registerCommand(log, COMMANDS.showLog, () => log.show()),
      ...tree.register(),
    );
  } catch (error) {
    // VS Code does not tell the user that activation failed, so say it here.
    log.for('main').error(error instanceof Error ? error : String(error));
    void vscode.window.showErrorMessage(`ConvAI Config failed to start: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
