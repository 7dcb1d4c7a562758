import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { FlowMapPanel } from './panel';
import { showFlowMap } from './show';

/**
 * The flow map (contract: "Flow map"): a tenant's resources and the
 * references between them, drawn in a panel whose script and layout library
 * load only when a map opens.
 */
export function register(
  context: vscode.ExtensionContext, { log, connections, listings }: { log: Log; connections: Connections; listings: ListingCache },
): void {
  const panel = new FlowMapPanel(context.extensionUri, log);
  context.subscriptions.push(panel, registerCommand(log, COMMANDS.showFlowMap, (arg) => showFlowMap(panel, connections, listings, arg)));
}
