import * as vscode from 'vscode';
import { SCHEME } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import { SaveDiagnostics } from './diagnostics';
import { ConvaiFileSystem } from './filesystem';
import { readOnlyIndicator } from './read-only-indicator';
import { Saver } from './save';
import { ServiceVersions } from './service-version';
import { DocumentStore } from './store';

export interface Documents {
  readonly files: ConvaiFileSystem;
  readonly disposables: vscode.Disposable[];
}

export function register(log: Log, connections: Connections): Documents {
  const store = new DocumentStore();
  const diagnostics = new SaveDiagnostics();
  const serviceVersions = new ServiceVersions();
  const saver: Saver = new Saver(() => files, connections, store, diagnostics, serviceVersions, log);
  const files = new ConvaiFileSystem(connections, store, log, (uri, location, content) => saver.write(uri, location, content));
  return {
    files,
    disposables: [
      vscode.workspace.registerFileSystemProvider(SCHEME, files, { isCaseSensitive: true }),
      saver,
      diagnostics,
      serviceVersions,
      ...readOnlyIndicator(connections),
    ],
  };
}
