import { sameBaseUrl } from '../core/base-url';
import type { Manifest } from '../core/tenant/manifest';
import type { Connections } from '../connections/registry';

/** The connection a folder was pulled through: by name, else one with the same base URL. */
export function connectionOf(connections: Connections, manifest: Manifest): string {
  const byName = connections.get(manifest.connection);
  if (byName) return byName.name;
  const byUrl = connections.list().find((c) => sameBaseUrl(c.baseUrl, manifest.baseUrl));
  if (byUrl) return byUrl.name;
  throw new Error(`The folder was pulled from ${manifest.baseUrl} through the connection "${manifest.connection}", which this VS Code does not have: add it with "ConvAI: Add Connection".`);
}
