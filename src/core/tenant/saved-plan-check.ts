/**
 * A saved plan checked right before its push: against the folder's files (before any request) and the service's
 * state of every resource it touches, so that a push sends exactly what was reviewed or nothing at all.
 */
import { sameBaseUrl } from '../base-url';
import type { ServiceClient } from '../client';
import type { FolderIO } from './folder-io';
import { loadManifest, noManifest, type LoadedManifest } from './manifest';
import { planPush, type Plan } from './plan';
import { planVerdict } from './plan-verdict';
import { SavedPlanError, SavedPlanRefused, type SavedChange, type SavedPlan } from './saved-plan';
import { folderFileHashes, hiddenUrl, pulledFiles, stateHash } from './saved-plan-state';

function compare(saved: Record<string, string>, now: Record<string, string>): string[] {
  const moved: string[] = [];
  for (const file of Object.keys(now)) {
    if (!(file in saved)) moved.push(`${file} added`);
    else if (saved[file] !== now[file]) moved.push(`${file} edited`);
  }
  for (const file of Object.keys(saved)) if (!(file in now)) moved.push(`${file} removed`);
  return moved.sort();
}

function label(change: Pick<SavedChange, 'segment' | 'id' | 'name' | 'file'>): string {
  return `${change.file} (${change.segment}${change.id === undefined ? '' : ` ${change.id}`} "${change.name}")`;
}

function summary(change: { action: string; fields: readonly string[] }): string {
  return `${change.action}${change.fields.length > 0 ? ` of ${change.fields.join(', ')}` : ''}`;
}

/** What differs between the saved plan's changes and the plan made now, each naming the resource. */
function movedOnService(saved: readonly SavedChange[], plan: Plan): string[] {
  const now = new Map(plan.changes.map((change) => [change.file, change]));
  const moved: string[] = [];
  for (const change of saved) {
    const current = now.get(change.file);
    if (!current)
      moved.push(
        `${label(change)}: ${change.action === 'delete' ? 'already deleted on the service since the plan was made' : 'no longer in the plan'}`,
      );
    else if (current.action === 'conflict') moved.push(`${label(change)}: ${current.reason ?? 'a conflict'}`);
    else if (stateHash(current.service) !== change.service)
      moved.push(`${label(change)}: changed on the service since the plan was made`);
    else if (summary(current) !== summary(change) || current.id !== change.id)
      moved.push(`${label(change)}: the plan now holds ${summary(current)}, not ${summary(change)}`);
  }
  const savedFiles = new Set(saved.map((change) => change.file));
  for (const change of plan.changes)
    if (!savedFiles.has(change.file)) moved.push(`${label(change)}: ${summary(change)} is not in the saved plan`);
  if (moved.length === 0 && plan.changes.some((change, index) => change.file !== saved[index]?.file))
    moved.push('the changes would be sent in another order than saved');
  return moved;
}

export interface VerifyOptions {
  /** The saved plan's path, for the messages. */
  file: string;
  signal?: AbortSignal;
  concurrency?: number;
  loaded?: LoadedManifest;
}

/**
 * The plan to push for a saved plan: checked against the folder's files (before any request) and against the
 * service's state of every resource it touches (read at the given concurrency). Resources it does not touch may
 * have changed. Throws SavedPlanRefused naming what moved; the plan returned holds exactly the saved changes, in
 * their order.
 */
export async function verifySavedPlan(
  client: ServiceClient,
  io: FolderIO,
  saved: SavedPlan,
  options: VerifyOptions,
): Promise<Plan> {
  const { file } = options;
  const loaded = options.loaded ?? (await loadManifest(io));
  if (!loaded) throw noManifest();
  const { manifest } = loaded;
  if (saved.tenantId !== manifest.tenantId || !sameBaseUrl(saved.baseUrl, hiddenUrl(manifest.baseUrl))) {
    throw new SavedPlanError(
      `${file} is a plan of tenant ${saved.tenantId} of ${saved.baseUrl}, but the folder holds tenant ${manifest.tenantId} of ${hiddenUrl(manifest.baseUrl)}: push it with the folder it was made of`,
    );
  }
  const files = compare(saved.files, await folderFileHashes(io, pulledFiles(manifest)));
  const again = 'review what moved, plan again and push the new plan';
  if (files.length > 0) {
    throw new SavedPlanRefused(
      `Nothing was sent: the folder changed since ${file} was made (${files.join('; ')}); ${again}.`,
      files,
    );
  }
  const plan = await planPush(client, io, { signal: options.signal, concurrency: options.concurrency, loaded });
  const moved = movedOnService(saved.changes, plan);
  if (moved.length > 0) {
    throw new SavedPlanRefused(
      `Nothing was sent: the service changed since ${file} was made (${moved.join('; ')}); pull to see the service's state, then ${again}.`,
      moved,
    );
  }
  // What moved is named above, conflicts among it; what is left is a problem of the folder, which a push refuses.
  const verdict = planVerdict(plan);
  if (!verdict.pushable) throw new SavedPlanRefused(verdict.refusal, plan.problems);
  return plan;
}
