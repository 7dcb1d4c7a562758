import * as vscode from 'vscode';
import type { Log } from './log';

/** Every command id the extension contributes, in one place. */
export const COMMANDS = {
  showLog: 'convai.showLog',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

const SHOW_LOG = 'Show Log';

/**
 * Registers a command behind one wrapper: failures are logged with their
 * stack and shown with a "Show Log" action, then rethrown so programmatic
 * callers of `executeCommand` see the rejection.
 */
export function registerCommand(
  log: Log,
  id: CommandId,
  handler: (...args: unknown[]) => unknown,
): vscode.Disposable {
  const logger = log.for('commands');
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.error(error instanceof Error ? error : message);
      void vscode.window.showErrorMessage(message, SHOW_LOG).then((choice) => {
        if (choice === SHOW_LOG) log.show();
      });
      throw error;
    }
  });
}
