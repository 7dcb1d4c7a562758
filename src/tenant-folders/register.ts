import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import { registerTenantFolderCommands } from './commands';
import { FolderEvents } from './folder-events';
import { registerSourceControl } from './scm/register';

/**
 * A tenant as a folder of files (contract: "Tenant folders"): pull it, plan a
 * push, push it, and see its changes in the Source Control view. The pull,
 * plan and push are the core's; this is their glue.
 */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    changes,
    listings,
  }: { log: Log; connections: Connections; changes: Changes; listings: ListingCache },
): void {
  const events = new FolderEvents();
  context.subscriptions.push(
    ...registerTenantFolderCommands(log, connections, changes, listings, events),
    ...registerSourceControl(log, connections, listings, changes, events),
    events,
  );
}
