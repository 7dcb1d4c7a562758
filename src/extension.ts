import * as vscode from 'vscode';
import { plain } from './core/plain-text';
import { COMMANDS, registerCommand } from './commands';
import * as connections from './connections/register';
import * as documents from './documents/register';
import * as flowMap from './flow-map/register';
import * as listings from './listings/register';
import * as operations from './operations/register';
import * as parts from './parts/register';
import * as promptTests from './prompt-tests/register';
import * as references from './references/register';
import * as tenantFolders from './tenant-folders/register';
import * as requests from './requests/register';
import { Log } from './log';
import * as tree from './tree/register';
import * as trials from './trials/register';
import * as variantLab from './variant-lab/register';
import { messageOf } from './core/text';

/** What the extension gives other extensions (and its tests): the one change event, fired once per write. */
export interface ConvaiApi {
  readonly onDidChange: documents.Documents['changes']['onDidChange'];
}

/**
 * Composes the features. Each one's register(context, services) takes what the
 * features before it provide and adds what it provides to them; its
 * disposables go on the context.
 */
export function activate(context: vscode.ExtensionContext): ConvaiApi {
  const log = new Log();
  context.subscriptions.push(
    log,
    registerCommand(log, COMMANDS.showLog, () => log.show()),
  );
  const version = (context.extension.packageJSON as { version?: string }).version ?? 'unknown';
  log.for('main').info(`ConvAI Config ${version} activated in VS Code ${vscode.version} (${vscode.env.appHost}).`);
  try {
    const base = { log };
    const withConnections = { ...base, ...connections.register(context, base) };
    const withListings = { ...withConnections, ...listings.register(context, withConnections) };
    const withDocuments = { ...withListings, ...documents.register(context, withListings) };
    const services = { ...withDocuments, ...operations.register(context, withDocuments) };
    tree.register(context, services);
    references.register(context, services);
    parts.register(context, services);
    tenantFolders.register(context, services);
    const withSuiteRuns = { ...services, ...promptTests.register(context, services) };
    trials.register(context, services);
    requests.register(context, services);
    flowMap.register(context, withSuiteRuns);
    variantLab.register(context, withSuiteRuns);
    return { onDidChange: services.changes.onDidChange };
  } catch (error) {
    // VS Code does not tell the user that activation failed, so say it here.
    log.for('main').error(error instanceof Error ? error : messageOf(error));
    void vscode.window.showErrorMessage(plain`ConvAI Config failed to start: ${messageOf(error)}`);
    throw error;
  }
}

export function deactivate(): void {
  // Disposables registered on the context are released by VS Code.
}
