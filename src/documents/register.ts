import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import { SCHEME } from '../core/uri';
import { fileTarget } from '../shared/locations';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import { Changes } from './changes';
import type { Log } from '../log';
import { SaveDiagnostics } from './diagnostics';
import { draftIndicator } from './draft-indicator';
import { Drafts } from './drafts';
import { ConvaiFileSystem } from './filesystem';
import { readOnlyIndicator } from './read-only-indicator';
import { SaveHold } from './save-hold';
import { Saver } from './save';
import { ServiceVersions } from './service-version';
import { DocumentStore } from './store';

export interface Documents {
  readonly files: ConvaiFileSystem;
  readonly drafts: Drafts;
  /** The one change service every writer reports to, and every view of what changed listens to. */
  readonly changes: Changes;
  /** Taken by a prompt test run: no save writes the service while it runs. */
  readonly saveHold: SaveHold;
}

/** Shows one document's credentials in clear; they are masked everywhere by default. */
function registerReveal(log: Log, files: ConvaiFileSystem, drafts: Drafts): vscode.Disposable {
  const reveal = async (targeted: ReturnType<typeof fileTarget>): Promise<void> => {
    if (!targeted) throw new Error('uri must name an open ConvAI resource document whose credentials to reveal.');
    const { uri, location } = targeted;
    if (vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.isDirty)) {
      throw new Error('Save or revert the document first: revealing reloads it from the service.');
    }
    if (drafts.has(uri.toString())) {
      throw new Error(
        'Save or discard the document\'s draft first ("ConvAI: Upload or Discard This Draft…"): revealing reloads it from the service.',
      );
    }
    files.reveal(uri, location);
    // A change event alone does not make VS Code re-read an open document here; reverting a clean one does.
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document) {
      await vscode.window.showTextDocument(document, { preview: false });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  };
  return registerCommand(log, COMMANDS.revealCredentials, {
    programmatic: (args) => reveal(fileTarget(args.uri, false)),
    interactive: (arg) => reveal(fileTarget(arg, true)),
  });
}

/** Resources as `convai:` documents: the file system, the one safe-save engine, drafts of auto-save, the change service. */
export function register(
  context: vscode.ExtensionContext,
  { log, connections, listings }: { log: Log; connections: Connections; listings: ListingCache },
): Documents {
  const store = new DocumentStore();
  // Global, not per workspace: a convai: URI names the same document whichever folder is open.
  const drafts = new Drafts(context.globalState);
  const diagnostics = new SaveDiagnostics();
  const serviceVersions = new ServiceVersions();
  const changes: Changes = new Changes(listings, () => files, drafts, log);
  const saveHold = new SaveHold();
  const saver: Saver = new Saver(
    () => files,
    connections,
    store,
    diagnostics,
    serviceVersions,
    log,
    drafts,
    changes,
    saveHold,
  );
  const files = new ConvaiFileSystem(
    connections,
    listings,
    store,
    log,
    (uri, location, content) => saver.write(uri, location, content),
    drafts,
    (change) => changes.report(change),
  );
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(SCHEME, files, { isCaseSensitive: true }),
    changes,
    saver,
    diagnostics,
    serviceVersions,
    ...readOnlyIndicator(connections),
    registerReveal(log, files, drafts),
    drafts,
    ...draftIndicator(log, drafts, files),
  );
  return { files, drafts, changes, saveHold };
}
