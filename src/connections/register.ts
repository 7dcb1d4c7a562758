import type * as vscode from 'vscode';
import type { Log } from '../log';
import { registerConnectionCommands } from './commands';
import { Connections } from './registry';

/** The connections to services, with their tokens and commands; every other feature reaches a service through them. */
export function register(context: vscode.ExtensionContext, { log }: { log: Log }): { connections: Connections } {
  const connections = new Connections(context.secrets, log);
  log.for('main').info(`Connections: ${connections.list().map((c) => `${c.name}${c.readOnly ? ' (read-only)' : ''}`).join(', ') || 'none'}.`);
  context.subscriptions.push(connections, ...registerConnectionCommands(log, connections));
  return { connections };
}
