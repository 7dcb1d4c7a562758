import * as vscode from 'vscode';
import { openTitled } from '../documents/open-titled';
import { kindById } from '../core/resources';
import { resourceTitle } from '../core/labels';
import { COMMANDS, registerCommand } from '../commands';
import { toResourceUriString } from '../core/uri';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { goToResource } from './go-to-resource';
import { isNode, TenantNode } from './nodes';
import type { ResourceTreeProvider } from './provider';

function tenantFolderUri(node: TenantNode): vscode.Uri {
  return vscode.Uri.parse(
    toResourceUriString({ type: 'tenantFolder', connection: node.connectionName, tenantId: node.tenantId }),
  );
}

export function registerTreeCommands(
  log: Log,
  tree: ResourceTreeProvider,
  connections: Connections,
  listings: ListingCache,
): vscode.Disposable[] {
  return [
    registerCommand(log, COMMANDS.refresh, (arg) => tree.refresh(isNode(arg) ? arg : undefined)),
    registerCommand(log, COMMANDS.goToResource, (arg) => goToResource(connections, listings, arg)),
    registerCommand(log, COMMANDS.openTenant, async (arg) => {
      if (!(arg instanceof TenantNode)) throw new Error('Choose a tenant in the ConvAI view to open its document.');
      const uri = vscode.Uri.parse(
        toResourceUriString({ type: 'tenant', connection: arg.connectionName, tenantId: arg.tenantId }),
      );
      await openTitled(uri, kindById('tenant').label, resourceTitle('tenant', arg.summary));
    }),
    registerCommand(log, COMMANDS.openTenantInExplorer, (arg) => {
      if (!(arg instanceof TenantNode))
        throw new Error('Choose a tenant in the ConvAI view to open it in the Explorer.');
      const uri = tenantFolderUri(arg);
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.some((f) => f.uri.toString() === uri.toString())) return;
      const name = `${String(arg.summary.name ?? `Tenant ${arg.tenantId}`)} (${arg.connectionName})`;
      if (!vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri, name })) {
        throw new Error(`VS Code did not add ${uri.toString()} as a workspace folder.`);
      }
    }),
  ];
}
