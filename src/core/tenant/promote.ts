/**
 * Promote: resources of one tenant (say on staging) onto another (say on
 * production). Ids differ between tenants, so resources are matched by kind
 * and name, and references are carried over by the name of what they point
 * at. The target folder, pulled into memory, is rewritten as it would be after
 * the promotion; the ordinary plan and push then send it, with their conflict
 * rules and their order.
 */
import type { ServiceClient } from '../client';
import { REFERENCE_FIELDS, kindLabel } from '../references';
import { kindOfSegment, TENANT_SEGMENTS, type TenantSegment } from '../resources';
import type { FolderIO } from './folder-io';
import { MemoryFolder } from './memory-folder';
import { MANIFEST_FILE, ManifestError, readManifest, type Manifest, type PulledResource } from './manifest';
import { fileStem, slug, takenBases } from './resource-paths';
import { foldedName } from './folder-paths';
import { problemText } from './folder-problems';
import { localPlan, planPush, type LocalPlan, type Plan } from './plan';
import { pullTenant, type PullOptions, type PullTarget } from './pull';
import { READ_ONLY } from './read-only';
import { KEPT_ON_SERVICE } from './folder-values';
import { readResource, writeResource } from './representation';
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

function tenantLabel(manifest: Manifest): string {
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
  if (isJsonObject(value)) return Object.entries(value).flatMap(([key, item]) => keptCredentialPaths(item, [...path, key]));
  return [];
}

async function requireManifest(io: FolderIO, side: string): Promise<Manifest> {
  const manifest = await readManifest(io);
  if (!manifest) throw new ManifestError(`The ${side} folder holds no pulled tenant (no ${MANIFEST_FILE}); pull the ${side} tenant first.`);
  return manifest;
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

type Chosen = PromotedResource & { targetId?: number };

/** The file bases a new resource must not take (folded): the pulled resources', and any other resource file already there. */
async function takenInTarget(folder: FolderIO, manifest: Manifest): Promise<Set<string>> {
  const files: string[] = [];
  for (const segment of TENANT_SEGMENTS) files.push(...(await folder.list(segment)).map((name) => `${segment}/${name}`));
  return takenBases(manifest.resources, files);
}

/** Which source resources to promote, and where each goes in the target; what cannot be matched is a problem. */
function chooseResources(source: Manifest, target: Manifest, wanted: readonly ResourceName[] | undefined, taken: Set<string>, problems: string[]): Chosen[] {
  const sourceByName = byName(source.resources);
  const targetByName = byName(target.resources);
  const names = wanted ?? source.resources.flatMap((e) => (e.segment === 'tenants' ? [] : [{ segment: e.segment, name: e.name }]));
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
      problems.push(`${resourceLabel(segment, name)}: ${tenantLabel(source)} has ${sources.length} of that name, and resources are matched by name; rename all but one there first.`);
    } else if (targets.length > 1) {
      problems.push(`${resourceLabel(segment, name)}: ${tenantLabel(target)} has ${targets.length} of that name, so it is unclear which to update; rename all but one there first.`);
    } else {
      const [match] = targets;
      chosen.push(match
        ? { segment, name, action: 'update', sourceFile: from.file, file: match.file, targetId: match.id, problems: [] }
        : { segment, name, action: 'create', sourceFile: from.file, file: newFile(segment, name, from.id, taken), problems: [] });
    }
  }
  return chosen;
}

interface ReferenceContext {
  source: Manifest;
  target: Manifest;
  sourceById: Map<string, PulledResource>;
  targetByName: Map<string, PulledResource[]>;
  chosenByName: Map<string, Chosen>;
}

/**
 * The source's values with each reference pointing into the target: at the
 * id of the resource of the same name there, or at the file of one created
 * by the same promotion (the plan and push turn that into its new id).
 */
function mappedReferences(resource: PromotedResource, values: JsonObject, context: ReferenceContext): JsonObject {
  const { problems } = resource;
  const out = { ...values };
  for (const { from, field, to } of REFERENCE_FIELDS) {
    const id = values[field];
    if (from !== resource.segment || typeof id !== 'number') continue;
    const what = resourceLabel(resource.segment, resource.name);
    const referenced = context.sourceById.get(`${to}/${id}`);
    if (!referenced) {
      problems.push(`${what}: ${field} holds ${id}, which is no ${kindLabel(to)} of ${tenantLabel(context.source)}; correct the reference there first.`);
      continue;
    }
    const key = nameKey(to, referenced.name);
    const promoted = context.chosenByName.get(key);
    const matches = context.targetByName.get(key) ?? [];
    const [match] = matches;
    if (promoted) out[field] = promoted.targetId ?? promoted.file;
    else if (match && matches.length === 1) out[field] = match.id;
    else if (matches.length > 1) problems.push(`${what}: ${field} names ${resourceLabel(to, referenced.name)}, and ${tenantLabel(context.target)} has ${matches.length} of that name; rename all but one there first.`);
    else problems.push(`${what}: ${field} names ${resourceLabel(to, referenced.name)}, which ${tenantLabel(context.target)} does not have; promote it too, or clear ${field} in ${tenantLabel(context.source)}.`);
  }
  return out;
}

/**
 * Credentials are never copied between tenants: the source's are masked in
 * its folder. An updated resource keeps the target's own credential at the
 * same place (push resolves it); a created one has none to keep.
 */
function credentialProblems(resource: PromotedResource, values: JsonObject, targetValues: JsonObject | undefined, target: Manifest): string[] {
  const paths = keptCredentialPaths(values);
  if (paths.length === 0) return [];
  const what = resourceLabel(resource.segment, resource.name);
  const where = tenantLabel(target);
  if (resource.action === 'create') {
    return [`${what} is new to ${where} and holds credentials (${paths.map((p) => p.join('.')).join(', ')}), which are never copied between tenants; create it on ${where} with its own credentials first (a promotion then updates it and keeps them), or leave it out.`];
  }
  return paths.filter((path) => valueAt(targetValues, path) !== KEPT_ON_SERVICE)
    .map((path) => `${what}: ${path.join('.')} is a credential, which is never copied between tenants, and ${where} holds none there to keep; set it on ${where} first, or leave ${what} out.`);
}

/**
 * Rewrites the target folder as it would be after promoting the chosen
 * resources of the source folder (all of them when none are named): a
 * matched resource takes the source's values, an unmatched one becomes a new
 * file without an id. Nothing is deleted from the target.
 */
export async function promote(source: FolderIO, target: FolderIO, resources?: readonly ResourceName[]): Promise<Promotion> {
  const sourceManifest = await requireManifest(source, 'source');
  const targetManifest = await requireManifest(target, 'target');
  const problems: string[] = [];
  const taken = await takenInTarget(target, targetManifest);
  const chosen = chooseResources(sourceManifest, targetManifest, resources, taken, problems);
  const context: ReferenceContext = {
    source: sourceManifest,
    target: targetManifest,
    sourceById: new Map(sourceManifest.resources.map((e) => [`${e.segment}/${e.id}`, e])),
    targetByName: byName(targetManifest.resources),
    chosenByName: new Map(chosen.map((c) => [nameKey(c.segment, c.name), c])),
  };
  for (const resource of chosen) {
    const kind = kindOfSegment(resource.segment);
    const read = await readResource(kind, source, resource.sourceFile.replace(/\.json$/, ''));
    if (!read.ok) {
      resource.problems.push(`${tenantLabel(sourceManifest)}: ${problemText(read.problem)}`);
      continue;
    }
    const base = resource.file.replace(/\.json$/, '');
    const before = resource.action === 'update' ? await readResource(kind, target, base) : undefined;
    resource.problems.push(...credentialProblems(resource, read.values, before?.ok ? before.values : undefined, targetManifest));
    // Read-only references are the tenant's own, set by its service: the target keeps its block, and a new resource has none.
    const values = mappedReferences(resource, read.values, context);
    delete values[READ_ONLY];
    const targetReferences = before?.ok ? before.values[READ_ONLY] : undefined;
    if (targetReferences !== undefined) values[READ_ONLY] = targetReferences;
    await writeResource(target, kind, resource.targetId, values, base);
  }
  return {
    resources: chosen.map(({ targetId: _targetId, ...resource }) => resource),
    problems: [...problems, ...chosen.flatMap((r) => r.problems)],
  };
}

/** A tenant pulled into memory: one side of a comparison. */
export async function pullIntoMemory(client: ServiceClient, target: PullTarget, options: PullOptions = {}): Promise<MemoryFolder> {
  const folder = new MemoryFolder();
  await pullTenant(client, folder, target, options);
  return folder;
}

/** A copy to promote into, so the pulled target stays as it was for the next promotion and for diffs. */
export function copyFolder(folder: MemoryFolder): MemoryFolder {
  return new MemoryFolder(new Map(folder.files));
}

/**
 * The promotion's problems, then the plan's, leaving out what the plan finds
 * in a file whose promotion has a problem (a new resource's kept credential,
 * say): that follows from the promotion's problem, which says it in a
 * promotion's terms, and the plan's own words for it would only confuse.
 */
function mergedProblems(promotion: Promotion, planProblems: readonly string[]): string[] {
  const explained = promotion.resources.filter((r) => r.problems.length > 0).map((r) => `${r.file}:`);
  return [...promotion.problems, ...planProblems.filter((p) => !explained.some((prefix) => p.startsWith(prefix)))];
}

export interface PromotionPreview {
  promotion: Promotion;
  /** The target folder after the promotion. */
  folder: MemoryFolder;
  /** What the promotion changes in the target, from the files alone; the promotion's problems come first. */
  plan: LocalPlan;
}

/** What promoting would change in the target, without a request: what a comparison shows. */
export async function previewPromotion(source: FolderIO, target: MemoryFolder, resources?: readonly ResourceName[]): Promise<PromotionPreview> {
  const folder = copyFolder(target);
  const promotion = await promote(source, folder, resources);
  const plan = await localPlan(folder);
  return { promotion, folder, plan: { ...plan, problems: mergedProblems(promotion, plan.problems) } };
}

export interface PromotionPlan {
  promotion: Promotion;
  /** The target folder after the promotion: what `push` sends from. */
  folder: MemoryFolder;
  /** The promotion's problems come first among the plan's. */
  plan: Plan;
}

/**
 * Promotes into a copy of the pulled target and plans the push against the
 * target's service: a resource changed there since the target was pulled is
 * a conflict, exactly as for a pulled folder.
 */
export async function planPromotion(client: ServiceClient, source: FolderIO, target: MemoryFolder, resources?: readonly ResourceName[], options: { signal?: AbortSignal } = {}): Promise<PromotionPlan> {
  const folder = copyFolder(target);
  const promotion = await promote(source, folder, resources);
  const plan = await planPush(client, folder, options);
  return { promotion, folder, plan: { ...plan, problems: mergedProblems(promotion, plan.problems) } };
}
