import * as vscode from 'vscode';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import type { TrialCopyCounts } from '../listings/register';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import { walkthroughStepDone } from '../shared/walkthrough';
import { registerTreeCommands } from './commands';
import { registerCreateCommand } from './create-resource';
import { registerDeleteCommand } from './delete-resource';
import { ResourceTreeProvider } from './provider';

/** The ConvAI view: connections, tenants, kinds and resources; New…, Delete and Go to Resource. */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    files,
    listings,
    changes,
    trialCopies,
  }: {
    log: Log;
    connections: Connections;
    files: ConvaiFileSystem;
    listings: ListingCache;
    changes: Changes;
    trialCopies: TrialCopyCounts;
  },
): void {
  const tree = new ResourceTreeProvider(connections, listings, changes, trialCopies);
  const view = vscode.window.createTreeView('convai.resources', { treeDataProvider: tree, showCollapseAll: true });
  // Also when the view was shown before the walkthrough's completion events were listened to (its onView).
  const tickWhenVisible = (): void => {
    if (view.visible) walkthroughStepDone('browseTree');
  };
  tickWhenVisible();
  context.subscriptions.push(
    tree,
    view,
    view.onDidChangeVisibility(tickWhenVisible),
    ...registerTreeCommands(log, tree, connections, listings),
    registerCreateCommand(log, connections, changes, listings),
    registerDeleteCommand(log, connections, { files, listings, changes }),
  );
}
