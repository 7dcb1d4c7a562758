import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from './commands';
import * as connectionsFeature from './connections/register';
import { Connections } from './connections/registry';
import * as documents from './documents/register';
import * as listingsFeature from './listings/register';
import * as operations from './operations/register';
import * as parts from './parts/register';
import * as promptTests from './prompt-tests/register';
import * as references from './references/register';
import * as tenantFolders from './tenant-folders/register';
import * as requests from './requests/register';
import { Log } from './log';
import * as tree from './tree/register';
import { messageOf } from './core/text';

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  context.subscriptions.push(log);
  const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
  log.for('main').info(`ConvAI Config ${version} activated in VS Code ${vscode.version} (${vscode.env.appHost}).`);
  try {
    const connections = new Connections(context.secrets, log);
    log.for('main').info(`Connections: ${connections.list().map((c) => `${c.name}${c.readOnly ? ' (read-only)' : ''}`).join(', ') || 'none'}.`);
    const listings = listingsFeature.createListings(connections);
    const documentFeature = documents.register(context, log, connections, listings);
    const treeFeature = tree.register(log, connections, documentFeature.files, listings);
    const operationFeature = operations.register(context, log, connections, listings, documentFeature.drafts);
    context.subscriptions.push(
      registerCommand(log, COMMANDS.showLog, () => log.show()),
      ...connectionsFeature.register(log, connections),
      ...documentFeature.disposables,
      ...listingsFeature.register(connections, documentFeature.files, listings),
      ...references.register(listings),
      ...treeFeature.disposables,
      ...parts.register(log, documentFeature.files, listings),
      ...tenantFolders.register(log, connections, documentFeature.files, listings),
      ...promptTests.register(log, connections, operationFeature.history, documentFeature.drafts),
      ...operationFeature.disposables,
      ...requests.register(context, log, operationFeature.runner),
    );
  } catch (error) {
    // VS Code does not tell the user that activation failed, so say it here.
    log.for('main').error(error instanceof Error ? error : messageOf(error));
    void vscode.window.showErrorMessage(`ConvAI Config failed to start: ${messageOf(error)}`);
    throw error;
  }
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
