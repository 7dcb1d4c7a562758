import type * as vscode from 'vscode';
import type { Connections } from '../../connections/registry';
import type { ListingCache } from '../../core/listing-cache';
import type { FolderEvents } from '../folder-events';
import type { Changes } from '../../documents/changes';
import type { Log } from '../../log';
import { ChangeDecorations } from './change-states';
import { registerScmCommands } from './commands';
import { Comparisons } from './comparisons';
import type { ScmDeps } from './deps';
import { PulledFolders } from './pulled-folders';
import { ReadOnlyFiles } from './read-only-files';

/**
 * The Source Control view's ConvAI lists: one per pulled folder of the
 * workspace, one per open comparison of two tenants, and their commands
 * (Refresh, Compare Tenant With…, Promote, Close Comparison).
 */
export function registerSourceControl(
  log: Log,
  connections: Connections,
  listings: ListingCache,
  changes: Changes,
  events: FolderEvents,
): vscode.Disposable[] {
  const files = new ReadOnlyFiles();
  const decorations = new ChangeDecorations();
  const deps: ScmDeps = { connections, listings, changes, files, decorations, log: log.for('source-control') };
  const folders = new PulledFolders(deps, events);
  const comparisons = new Comparisons(deps);
  // Lists go before what they use.
  return [...registerScmCommands(log, deps, folders, comparisons), comparisons, folders, decorations, files];
}
