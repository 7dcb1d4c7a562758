import { sameBaseUrl } from '../core/base-url';
import type { Manifest } from '../core/tenant/manifest';
import type { Connections } from '../connections/registry';
import type { ServiceClient } from '../core/client';
import { messageOf } from '../core/text';

/** The connection a folder was pulled through: by name, else one with the same base URL. */
export function connectionOf(connections: Connections, manifest: Manifest): string {
  const byName = connections.get(manifest.connection);
  if (byName) return byName.name;
  const byUrl = connections.list().find((c) => sameBaseUrl(c.baseUrl, manifest.baseUrl));
  if (byUrl) return byUrl.name;
  throw new Error(
    `The folder was pulled from ${manifest.baseUrl} through the connection "${manifest.connection}", which this VS Code does not have: add it with "ConvAI: Add Connection".`,
  );
}

/** A folder's connection (connectionOf) with its client. */
export interface Connected {
  name: string;
  client: ServiceClient;
}

/** A folder's connection, or why it has none, said as a change list says it. */
export type FolderConnection = Connected | { problem: string };

export function folderConnection(connections: Connections, manifest: Manifest): FolderConnection {
  try {
    const name = connectionOf(connections, manifest);
    return { name, client: connections.client(name) };
  } catch (error) {
    return { problem: `${messageOf(error)} Until then this list shows the folder's changes only.` };
  }
}
