/**
 * Promote: resources of one tenant (say on staging) onto another (say on
 * production), matched as promotion-matching.ts says. The target folder,
 * pulled into memory, is rewritten as it would be after the promotion; the
 * ordinary plan and push then send it, with their conflict rules and their
 * order.
 */
import type { ServiceClient } from '../client';
import { kindOfSegment, TENANT_SEGMENTS } from '../resources';
import type { FolderIO } from './folder-io';
import { MemoryFolder } from './memory-folder';
import { MANIFEST_FILE, ManifestError, readManifest, type Manifest } from './manifest';
import { takenBases } from './resource-paths';
import { problemText } from './folder-problems';
import { localPlan, planPush, type LocalPlan, type Plan } from './plan';
import { pullTenant, type PullOptions, type PullTarget } from './pull';
import { READ_ONLY } from './read-only';
import { readResource, writeResource } from './representation';
import {
  chooseResources,
  credentialProblems,
  mappedReferences,
  referenceContext,
  tenantLabel,
  type Promotion,
  type ResourceName,
} from './promotion-matching';

async function requireManifest(io: FolderIO, side: string): Promise<Manifest> {
  const manifest = await readManifest(io);
  if (!manifest)
    throw new ManifestError(
      `The ${side} folder holds no pulled tenant (no ${MANIFEST_FILE}); pull the ${side} tenant first.`,
    );
  return manifest;
}

/** The file bases a new resource must not take (folded): the pulled resources', and any other resource file already there. */
async function takenInTarget(folder: FolderIO, manifest: Manifest): Promise<Set<string>> {
  const files: string[] = [];
  for (const segment of TENANT_SEGMENTS)
    files.push(...(await folder.list(segment)).map((name) => `${segment}/${name}`));
  return takenBases(manifest.resources, files);
}

/**
 * Rewrites the target folder as it would be after promoting the chosen
 * resources of the source folder (all of them when none are named): a
 * matched resource takes the source's values, an unmatched one becomes a new
 * file without an id. Nothing is deleted from the target.
 */
export async function promote(
  source: FolderIO,
  target: FolderIO,
  resources?: readonly ResourceName[],
): Promise<Promotion> {
  const sourceManifest = await requireManifest(source, 'source');
  const targetManifest = await requireManifest(target, 'target');
  const problems: string[] = [];
  const taken = await takenInTarget(target, targetManifest);
  const chosen = chooseResources(sourceManifest, targetManifest, resources, taken, problems);
  const context = referenceContext(sourceManifest, targetManifest, chosen);
  for (const resource of chosen) {
    const kind = kindOfSegment(resource.segment);
    const read = await readResource(kind, source, resource.sourceFile.replace(/\.json$/, ''));
    if (!read.ok) {
      resource.problems.push(`${tenantLabel(sourceManifest)}: ${problemText(read.problem)}`);
      continue;
    }
    const base = resource.file.replace(/\.json$/, '');
    const before = resource.action === 'update' ? await readResource(kind, target, base) : undefined;
    resource.problems.push(
      ...credentialProblems(resource, read.values, before?.ok ? before.values : undefined, targetManifest),
    );
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
export async function pullIntoMemory(
  client: ServiceClient,
  target: PullTarget,
  options: PullOptions = {},
): Promise<MemoryFolder> {
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
export async function previewPromotion(
  source: FolderIO,
  target: MemoryFolder,
  resources?: readonly ResourceName[],
): Promise<PromotionPreview> {
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
export async function planPromotion(
  client: ServiceClient,
  source: FolderIO,
  target: MemoryFolder,
  resources?: readonly ResourceName[],
  options: { signal?: AbortSignal } = {},
): Promise<PromotionPlan> {
  const folder = copyFolder(target);
  const promotion = await promote(source, folder, resources);
  const plan = await planPush(client, folder, options);
  return { promotion, folder, plan: { ...plan, problems: mergedProblems(promotion, plan.problems) } };
}
