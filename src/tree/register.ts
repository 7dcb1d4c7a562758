import * as vscode from 'vscode';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Log } from '../log';
import { walkthroughStepDone } from '../shared/walkthrough';
import { registerTreeCommands } from './commands';
import { registerCreateCommand } from './create-resource';
import { registerDeleteCommand } from './delete-resource';
import { ResourceTreeProvider } from './provider';

/** The ConvAI view: connections, tenants, kinds and resources; New…, Delete and Go to Resource. */
export function register(
  context: vscode.ExtensionContext, { log, connections, files, listings }: { log: Log; connections: Connections; files: ConvaiFileSystem; listings: ListingCache },
): void {
  const tree = new ResourceTreeProvider(connections, listings);
  const view = vscode.window.createTreeView('convai.resources', { treeDataProvider: tree, showCollapseAll: true });
  // Also when the view was shown before the walkthrough's completion events were listened to (its onView).
  const shown = (): void => {
    if (view.visible) walkthroughStepDone('browseTree');
  };
  shown();
  context.subscriptions.push(
    tree,
    view,
    view.onDidChangeVisibility(shown),
    ...registerTreeCommands(log, tree, connections, listings),
    registerCreateCommand(log, connections, files, listings),
    registerDeleteCommand(log, connections, files),
  );
}
