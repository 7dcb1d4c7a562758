/**
 * A trial of a pulled folder (contract: "Trials"), planned before any copy is made: the folder's plan as a push would
 * make it, its prompts' proposals, the live versions of those it changes, and the suites checked against it. The
 * command-line tool's `test --trial <folder>` and VS Code's Run as Trial of Folder both plan it here. It sends reads
 * only; a plan a push would refuse, or a suite naming a prompt the folder deletes, is refused with nothing created.
 */
import type { ServiceClient } from '../client';
import type { JsonObject } from '../json';
import type { Suite } from '../prompt-tests/suite';
import { kindById } from '../resources';
import type { FolderIO } from '../tenant/folder-io';
import type { LoadedManifest } from '../tenant/manifest';
import { planPush } from '../tenant/plan';
import { folderProposals, type FolderTrial } from './folder-proposals';
import { planTrial, type TrialPlan } from './trial-plan';
import { namesDeleted, standIns, type StandIn } from './trial-suites';

/** Why no trial of the folder can run, a line per reason: `plan` for its plan's problems, `deletes` for the suites'. */
export class TrialRefused extends Error {
  constructor(
    readonly reason: 'plan' | 'deletes',
    readonly lines: readonly string[],
  ) {
    super(lines.join('; '));
  }
}

export interface FolderTrialPlan {
  trial: FolderTrial;
  /** The prompts the folder creates, as the suites' stand-ins until their copies exist. */
  created: StandIn[];
  plan: TrialPlan;
}

const PROMPT = kindById('prompt');

export async function planFolderTrial(
  client: ServiceClient,
  folder: { io: FolderIO; loaded: LoadedManifest },
  tenantId: number,
  suites: ReadonlyArray<{ name: string; suite: Suite }>,
  signal?: AbortSignal,
): Promise<FolderTrialPlan> {
  const trial = folderProposals(await planPush(client, folder.io, { loaded: folder.loaded, signal }));
  if ('problems' in trial) throw new TrialRefused('plan', trial.problems);
  const deletes = suites.flatMap(({ name, suite }) => namesDeleted(suite, trial.deleted).map((m) => `${name}: ${m}`));
  if (deletes.length > 0) throw new TrialRefused('deletes', deletes);
  const live = new Map<number, JsonObject>();
  for (const { id } of trial.proposals)
    if (id !== undefined) live.set(id, await client.get(PROMPT, id, tenantId, { signal }));
  return { trial, created: standIns(trial.proposals), plan: planTrial(trial.proposals, live) };
}
