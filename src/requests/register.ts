import type * as vscode from 'vscode';
import type { Log } from '../log';
import type { Runs } from '../shared/runs';
import { registerRequestCommands } from './commands';
import { registerDefinitionEditing } from './editor';

/** Request definition files (contract: "Request definitions"): editing help, preview, and sending through the results panel. */
export function register(context: vscode.ExtensionContext, { log, runs }: { log: Log; runs: Runs }): void {
  context.subscriptions.push(...registerDefinitionEditing(), ...registerRequestCommands(log, context.secrets, runs));
}
