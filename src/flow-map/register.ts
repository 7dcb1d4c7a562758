import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { Log } from '../log';
import { FlowMapPanel } from './panel';
import { type MapServices, showFlowMap } from './show';

/**
 * The flow map (contract: "Flow map"): a tenant's resources and the
 * references between them, drawn in a panel whose script and layout library
 * load only when a map opens.
 */
export function register(
  context: vscode.ExtensionContext, services: MapServices & { log: Log },
): void {
  const panel = new FlowMapPanel(context.extensionUri, services.log);
  context.subscriptions.push(panel, registerCommand(services.log, COMMANDS.showFlowMap, (arg) => showFlowMap(panel, services, arg)));
}
