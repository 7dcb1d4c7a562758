import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { Runs } from '../shared/runs';
import { registerRequestCommands } from './commands';
import { registerDefinitionEditing } from './editor';

export function register(context: vscode.ExtensionContext, log: Log, runner: Runs): vscode.Disposable[] {
  return [...registerDefinitionEditing(), ...registerRequestCommands(log, context.secrets, runner)];
}
