import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { Runner } from '../operations/runner';
import { registerRequestCommands } from './commands';
import { registerDefinitionEditing } from './editor';

export function register(context: vscode.ExtensionContext, log: Log, runner: Runner): vscode.Disposable[] {
  return [...registerDefinitionEditing(), ...registerRequestCommands(log, context.secrets, runner)];
}
