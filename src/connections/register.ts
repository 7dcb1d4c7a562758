import type * as vscode from 'vscode';
import type { Log } from '../log';
import { registerConnectionCommands } from './commands';
import type { Connections } from './registry';

export function register(log: Log, connections: Connections): vscode.Disposable[] {
  return [connections, ...registerConnectionCommands(log, connections)];
}
