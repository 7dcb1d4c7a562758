import * as vscode from 'vscode';
import { pickConnection } from '../connections/pickers';
import { COMMANDS, registerCommand } from '../commands';
import { resourceLabel } from '../core/labels';
import { kindOfSegment, TENANT_SEGMENTS } from '../core/resources';
import { toResourceUriString } from '../core/uri';
import { tenantsListing, type ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { TenantNode, type TreeNode } from './nodes';
import type { ResourceTreeProvider } from './provider';

interface ResourcePick extends vscode.QuickPickItem {
  uri: vscode.Uri;
}

function isNode(arg: unknown): arg is TreeNode {
  return typeof arg === 'object' && arg !== null && 'key' in arg && 'connectionName' in arg;
}


/** Every resource of one tenant, or of all tenants of a connection, searchable by name, kind and id. */
async function goToResource(connections: Connections, listings: ListingCache, arg: unknown): Promise<void> {
  const connection = isNode(arg) ? arg.connectionName : await pickConnection(connections, { placeHolder: 'Connection to search' });
  if (!connection) return;
  const picks = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Loading the resources of ${connection}…`, cancellable: true },
    async (_progress, token) => {
      // The tenants are the shared listing (the tree's and the pickers'); each tenant's kinds are loaded
      // fresh from the service (the cache may predate resources created elsewhere), and the tree sees them too.
      const tenants = arg instanceof TenantNode ? [arg.summary] : await listings.items(tenantsListing(connection));
      const items: ResourcePick[] = [];
      for (const tenant of tenants) {
        if (token.isCancellationRequested || typeof tenant.id !== 'number') continue;
        const tenantId = tenant.id;
        const lists = await Promise.all(TENANT_SEGMENTS.map(async (segment) => [segment, await listings.reload({ connection, tenantId, segment })] as const));
        for (const [segment, outcome] of lists) {
          if (!outcome.ok) throw outcome.error;
          const summaries = outcome.value;
          const kind = kindOfSegment(segment);
          for (const summary of summaries) {
            const id = summary.id;
            if (typeof id !== 'number') continue;
            items.push({
              label: resourceLabel(kind.id, summary).label,
              description: `${kind.label} #${id}`,
              detail: tenants.length > 1 ? `${String(tenant.name ?? `Tenant ${tenantId}`)} (#${tenantId})` : undefined,
              uri: vscode.Uri.parse(toResourceUriString({ type: 'resource', connection, tenantId, segment, id })),
            });
          }
        }
      }
      return token.isCancellationRequested ? undefined : items;
    },
  );
  if (!picks) return;
  const choice = await vscode.window.showQuickPick(picks, {
    placeHolder: 'Go to a resource by name, kind or id',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (choice) await vscode.commands.executeCommand('vscode.open', choice.uri);
}

function tenantFolderUri(node: TenantNode): vscode.Uri {
  return vscode.Uri.parse(toResourceUriString({ type: 'tenantFolder', connection: node.connectionName, tenantId: node.tenantId }));
}

export function registerTreeCommands(log: Log, tree: ResourceTreeProvider, connections: Connections, listings: ListingCache): vscode.Disposable[] {
  return [
    registerCommand(log, COMMANDS.refresh, (arg) => tree.refresh(isNode(arg) ? arg : undefined)),
    registerCommand(log, COMMANDS.goToResource, (arg) => goToResource(connections, listings, arg)),
    registerCommand(log, COMMANDS.openTenant, async (arg) => {
      if (!(arg instanceof TenantNode)) throw new Error('Choose a tenant in the ConvAI view to open its document.');
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(toResourceUriString({ type: 'tenant', connection: arg.connectionName, tenantId: arg.tenantId })));
    }),
    registerCommand(log, COMMANDS.openTenantInExplorer, (arg) => {
      if (!(arg instanceof TenantNode)) throw new Error('Choose a tenant in the ConvAI view to open it in the Explorer.');
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
