/**
 * How a promotion matches one tenant's resources to another's: ids differ
 * between tenants, so resources are matched by kind and name, references are
 * carried over by the name of what they point at, and credentials are never
 * copied. What cannot be matched is a problem of the promotion.
 */
import { REFERENCE_FIELDS, kindLabel } from '../references';
import type { TenantSegment } from '../resource-kind';
import type { Manifest, PulledResource } from './manifest';
import { fileStem, slug } from './resource-paths';
import { foldedName } from './folder-paths';
import { KEPT_ON_SERVICE } from './folder-values';
import { isJsonObject, valueAt, type Json, type JsonObject, type JsonPath } from '../json';

/** A resource chosen for promotion, named as people know it in both tenants. */
export interface ResourceName {
  segment: TenantSegment;
  name: string;
}

export interface PromotedResource extends ResourceName {
  /** `update` when the target has a resource of that kind and name (the plan tells whether anything differs). */
  action: 'create' | 'update';
  /** The resource's JSON file in the source folder and in the target folder. */
  sourceFile: string;
  file: string;
  /** What stops this resource's promotion. */
  problems: string[];
}

export interface Promotion {
  resources: PromotedResource[];
  /** What stops the promotion, every resource's problems included; a push is refused while there are any. */
  problems: string[];
}

const nameKey = (segment: string, name: string): string => `${segment}\n${name}`;

export function tenantLabel(manifest: Manifest): string {
  return `tenant ${manifest.tenantId} on ${manifest.connection}`;
}

function resourceLabel(segment: TenantSegment, name: string): string {
  return `${kindLabel(segment)} "${name}"`;
}

function byName(entries: readonly PulledResource[]): Map<string, PulledResource[]> {
  const index = new Map<string, PulledResource[]>();
  for (const entry of entries) {
    const key = nameKey(entry.segment, entry.name);
    index.set(key, [...(index.get(key) ?? []), entry]);
  }
  return index;
}

/** Where a folder's values hold the marker of a credential kept on the service. */
function keptCredentialPaths(value: Json | undefined, path: JsonPath = []): JsonPath[] {
  if (value === KEPT_ON_SERVICE) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => keptCredentialPaths(item, [...path, i]));
  if (isJsonObject(value))
    return Object.entries(value).flatMap(([key, item]) => keptCredentialPaths(item, [...path, key]));
  return [];
}

/**
 * A file of its own for a resource the target does not have yet: `<segment>/<name's slug>.json` (told apart by its
 * source id where a reader would take it for something else, as a pull's), numbered when taken.
 */
function newFile(segment: TenantSegment, name: string, sourceId: number, taken: Set<string>): string {
  const slugged = slug(name);
  const stem = `${segment}/${slugged === '' ? segment.replace(/s$/, '') : fileStem(slugged, sourceId)}`;
  let base = stem;
  for (let n = 2; taken.has(foldedName(base)); n++) base = `${stem}-${n}`;
  taken.add(foldedName(base));
  return `${base}.json`;
}

export type Chosen = PromotedResource & { targetId?: number };

/** Which source resources to promote, and where each goes in the target; what cannot be matched is a problem. */
export function chooseResources(
  source: Manifest,
  target: Manifest,
  wanted: readonly ResourceName[] | undefined,
  taken: Set<string>,
  problems: string[],
): Chosen[] {
  const sourceByName = byName(source.resources);
  const targetByName = byName(target.resources);
  const names =
    wanted ?? source.resources.flatMap((e) => (e.segment === 'tenants' ? [] : [{ segment: e.segment, name: e.name }]));
  const seen = new Set<string>();
  const chosen: Chosen[] = [];
  for (const { segment, name } of names) {
    const key = nameKey(segment, name);
    if (seen.has(key)) continue;
    seen.add(key);
    if ((segment as string) === 'tenants') {
      problems.push(`A tenant itself is not promoted, only its resources; leave "${name}" out.`);
      continue;
    }
    const sources = sourceByName.get(key) ?? [];
    const targets = targetByName.get(key) ?? [];
    const [from] = sources;
    if (!from) {
      problems.push(`${tenantLabel(source)} has no ${resourceLabel(segment, name)}; name a resource it holds.`);
    } else if (sources.length > 1) {
      problems.push(
        `${resourceLabel(segment, name)}: ${tenantLabel(source)} has ${sources.length} of that name, and resources are matched by name; rename all but one there first.`,
      );
    } else if (targets.length > 1) {
      problems.push(
        `${resourceLabel(segment, name)}: ${tenantLabel(target)} has ${targets.length} of that name, so it is unclear which to update; rename all but one there first.`,
      );
    } else {
      const [match] = targets;
      chosen.push(
        match
          ? {
              segment,
              name,
              action: 'update',
              sourceFile: from.file,
              file: match.file,
              targetId: match.id,
              problems: [],
            }
          : {
              segment,
              name,
              action: 'create',
              sourceFile: from.file,
              file: newFile(segment, name, from.id, taken),
              problems: [],
            },
      );
    }
  }
  return chosen;
}

export interface ReferenceContext {
  source: Manifest;
  target: Manifest;
  sourceById: Map<string, PulledResource>;
  targetByName: Map<string, PulledResource[]>;
  chosenByName: Map<string, Chosen>;
}

/** Where each reference of the chosen resources may point: the source's resources by id, the target's by name. */
export function referenceContext(source: Manifest, target: Manifest, chosen: readonly Chosen[]): ReferenceContext {
  return {
    source,
    target,
    sourceById: new Map(source.resources.map((e) => [`${e.segment}/${e.id}`, e])),
    targetByName: byName(target.resources),
    chosenByName: new Map(chosen.map((c) => [nameKey(c.segment, c.name), c])),
  };
}

/**
 * The source's values with each reference pointing into the target: at the
 * id of the resource of the same name there, or at the file of one created
 * by the same promotion (the plan and push turn that into its new id).
 */
export function mappedReferences(
  resource: PromotedResource,
  values: JsonObject,
  context: ReferenceContext,
): JsonObject {
  const { problems } = resource;
  const out = { ...values };
  for (const { from, field, to } of REFERENCE_FIELDS) {
    const id = values[field];
    if (from !== resource.segment || typeof id !== 'number') continue;
    const what = resourceLabel(resource.segment, resource.name);
    const referenced = context.sourceById.get(`${to}/${id}`);
    if (!referenced) {
      problems.push(
        `${what}: ${field} holds ${id}, which is no ${kindLabel(to)} of ${tenantLabel(context.source)}; correct the reference there first.`,
      );
      continue;
    }
    const key = nameKey(to, referenced.name);
    const promoted = context.chosenByName.get(key);
    const matches = context.targetByName.get(key) ?? [];
    const [match] = matches;
    if (promoted) out[field] = promoted.targetId ?? promoted.file;
    else if (match && matches.length === 1) out[field] = match.id;
    else if (matches.length > 1)
      problems.push(
        `${what}: ${field} names ${resourceLabel(to, referenced.name)}, and ${tenantLabel(context.target)} has ${matches.length} of that name; rename all but one there first.`,
      );
    else
      problems.push(
        `${what}: ${field} names ${resourceLabel(to, referenced.name)}, which ${tenantLabel(context.target)} does not have; promote it too, or clear ${field} in ${tenantLabel(context.source)}.`,
      );
  }
  return out;
}

/**
 * Credentials are never copied between tenants: the source's are masked in
 * its folder. An updated resource keeps the target's own credential at the
 * same place (push resolves it); a created one has none to keep.
 */
export function credentialProblems(
  resource: PromotedResource,
  values: JsonObject,
  targetValues: JsonObject | undefined,
  target: Manifest,
): string[] {
  const paths = keptCredentialPaths(values);
  if (paths.length === 0) return [];
  const what = resourceLabel(resource.segment, resource.name);
  const where = tenantLabel(target);
  if (resource.action === 'create') {
    return [
      `${what} is new to ${where} and holds credentials (${paths.map((p) => p.join('.')).join(', ')}), which are never copied between tenants; create it on ${where} with its own credentials first (a promotion then updates it and keeps them), or leave it out.`,
    ];
  }
  return paths
    .filter((path) => valueAt(targetValues, path) !== KEPT_ON_SERVICE)
    .map(
      (path) =>
        `${what}: ${path.join('.')} is a credential, which is never copied between tenants, and ${where} holds none there to keep; set it on ${where} first, or leave ${what} out.`,
    );
}
