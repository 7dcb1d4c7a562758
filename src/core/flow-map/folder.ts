/**
 * A pulled folder's flow map, from its files alone (nothing is sent), and
 * the resources its plan would change, read offline too.
 */
import type { FolderIO } from '../tenant/folder-io';
import { problemText } from '../tenant/folder-problems';
import { scanFolder, type LocalResource } from '../tenant/folder-scan';
import type { Manifest, PulledResource } from '../tenant/manifest';
import { localPlan } from '../tenant/plan';
import { withReadOnly } from '../tenant/read-only';
import { buildFlowMap } from './build';
import { nodeId, type FlowMap, type MapResource } from './model';
import type { PromptUses } from './prompt-roles';

export interface FolderMap {
  map: FlowMap;
  /** The node ids of resources the folder's plan would create or update; empty unless asked for. */
  changed: Set<string>;
  /** Each node's JSON file in the folder, which opening the node shows. */
  files: Map<string, string>;
  /**
   * The folder's problems (`file: message`), a file that cannot be read among them: its resource is not on the map,
   * and a reference to it is not dangling.
   */
  unread: string[];
}

/** The name a resource goes by: its file's, else the one it was pulled with, else its file's own name. */
function nameOf(resource: LocalResource, pulled: ReadonlyMap<string, PulledResource>): string {
  const { name } = resource.values;
  if (typeof name === 'string') return name;
  return pulled.get(resource.file)?.name ?? resource.file.slice(resource.file.indexOf('/') + 1).replace(/\.json$/, '');
}

export async function folderFlowMap(
  io: FolderIO,
  manifest: Manifest,
  options: { changes?: boolean; uses?: PromptUses } = {},
): Promise<FolderMap> {
  // References live in the JSON files; the prompts' Markdown texts matter only to the plan that --changes asks for.
  const pulled = new Map(manifest.resources.map((entry) => [entry.file, entry]));
  const scan = await scanFolder(io, { texts: options.changes === true, pulled });
  // The read-only references go back where the service holds them, so the map reads one shape from either.
  const resources: MapResource[] = scan.local.map((r) => ({
    segment: r.segment,
    ...(r.id === undefined ? {} : { id: r.id }),
    file: r.file,
    name: nameOf(r, pulled),
    values: withReadOnly(r.values),
  }));
  // A pulled resource whose file cannot be read is still the tenant's: references to it (by id or by file) are not dangling.
  const unread = new Set(
    [...scan.unreadable].flatMap((file) => {
      const entry = pulled.get(file);
      return entry ? [file, nodeId(entry)] : [file];
    }),
  );
  const map = buildFlowMap(resources, unread, options.uses);
  const changed = new Set<string>();
  if (options.changes === true) {
    // The plan of the files just read: a deleted resource has no node left to mark.
    for (const change of (await localPlan(io, scan)).changes) if (change.resource) changed.add(nodeId(change.resource));
  }
  const files = new Map<string, string>();
  // As the map draws the first of two files claiming one id, opening its node shows that file.
  for (const r of scan.local) if (!files.has(nodeId(r))) files.set(nodeId(r), r.file);
  return { map, changed, files, unread: scan.problems.map(problemText) };
}
