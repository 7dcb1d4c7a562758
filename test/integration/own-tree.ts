// The extension's own tree provider over a connection registry and a listing cache of the caller's: VS Code gives
// no reading of another extension's tree, so tests and the bench build one, as src/extension.ts does, and ask it for
// nodes as VS Code would. Its token lives in a secret storage held in memory.
import * as vscode from 'vscode';
import { Connections } from '../../src/connections/registry';
import type { ChangeReport } from '../../src/documents/changes';
import * as listingsFeature from '../../src/listings/register';
import { Log } from '../../src/log';
import { ResourceTreeProvider } from '../../src/tree/provider';

class MemorySecrets implements vscode.SecretStorage {
  private readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;
  get(key: string): Thenable<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Thenable<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Thenable<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
  keys(): Thenable<string[]> {
    return Promise.resolve([...this.values.keys()]);
  }
}

export interface OwnTree extends vscode.Disposable {
  provider: ResourceTreeProvider;
}

/** A tree with an empty listing cache, of the connections in the user settings, `connection`'s token set. */
export async function ownTree(connection: string, token: string): Promise<OwnTree> {
  const subscriptions: vscode.Disposable[] = [];
  const log = new Log();
  const connections = new Connections(new MemorySecrets(), log);
  await connections.setToken(connection, token);
  const { listings, trialCopies } = listingsFeature.register({ subscriptions } as unknown as vscode.ExtensionContext, {
    connections,
  });
  // Nothing writes through this tree: it reports no change, and hears of none.
  const quiet = new vscode.EventEmitter<ChangeReport>();
  const provider = new ResourceTreeProvider(
    connections,
    listings,
    {
      onDidChange: quiet.event,
      report: (change) => Promise.resolve({ change, reloaded: [], kept: [] }),
    },
    trialCopies,
  );
  subscriptions.push(log, connections, provider, quiet);
  return { provider, dispose: () => subscriptions.forEach((each) => each.dispose()) };
}
