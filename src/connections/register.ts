import type * as vscode from 'vscode';
import type { Log } from '../log';
import { walkthroughStepDone } from '../shared/walkthrough';
import { registerConnectionCommands } from './commands';
import { Connections } from './registry';

/** The connections to services, with their tokens and commands; every other feature reaches a service through them. */
export function register(context: vscode.ExtensionContext, { log }: { log: Log }): { connections: Connections } {
  const connections = new Connections(context.secrets, log);
  log.for('main').info(
    `Connections: ${
      connections
        .list()
        .map((c) => `${c.name}${c.readOnly ? ' (read-only)' : ''}`)
        .join(', ') || 'none'
    }.`,
  );
  // However it came: Add Connection, the settings, or a connection kept from before the walkthrough was shown.
  const connected = (): void => {
    if (connections.list().length > 0) walkthroughStepDone('addConnection');
  };
  connected();
  context.subscriptions.push(
    connections,
    connections.onDidChange(connected),
    ...registerConnectionCommands(log, connections),
  );
  return { connections };
}
