import * as vscode from 'vscode';
import type { CommandShells } from '../commands';
import { codeSpan } from '../core/markdown-code';
import { DiskFolder } from '../core/tenant/disk-folder';
import { planPush, type Plan } from '../core/tenant/plan';
import { publicChange, type PublicChange } from '../core/tenant/plan-text';
import { planMarkdown } from '../core/tenant/plan-markdown';
import { verifySavedPlan } from '../core/tenant/saved-plan-check';
import { messageOf } from '../core/text';
import { plain } from '../core/plain-text';
import { manifestOf, pulledFolder } from '../shared/pulled-folder';
import { cancellable } from '../ui/progress';
import type { FolderCommandServices } from './folder-commands';
import { connectionOf } from './folders';
import { checkedPlanPath, readSavedPlan, writeSavedPlan } from './saved-plans';

/** A pulled folder, the connection it was pulled through, and its plan. */
export interface PlannedFolder {
  folder: string;
  connection: string;
  plan: Plan;
}

/** `convai.planPush`'s answer (contract: `{ changes, problems }`). */
export interface PlanAnswer {
  changes: PublicChange[];
  problems: string[];
}

/**
 * The plan of a folder (the argument names it, else the one picked), or that of a saved plan (its path), checked
 * against the folder and the service.
 */
export async function plannedFolder(
  { connections }: FolderCommandServices,
  arg: unknown,
  run: { signal?: AbortSignal; savedPlan?: string } = {},
): Promise<PlannedFolder | undefined> {
  const folder = await pulledFolder(arg);
  if (!folder) return undefined;
  const connection = connectionOf(connections, await manifestOf(folder));
  const client = connections.client(connection);
  const { signal, savedPlan } = run;
  const plan =
    savedPlan === undefined
      ? await planPush(client, new DiskFolder(folder), { signal })
      : await verifySavedPlan(client, new DiskFolder(folder), await readSavedPlan(savedPlan), {
          file: savedPlan,
          signal,
        });
  return { folder, connection, plan };
}

/** Saves the plan when `out` is given, and answers with it. */
async function answered(planned: PlannedFolder, out: string | undefined, said: boolean): Promise<PlanAnswer> {
  if (out !== undefined) {
    await writeSavedPlan(planned.plan, planned.folder, out);
    if (said) {
      void vscode.window.showInformationMessage(
        plain`Saved the plan to ${out}; "ConvAI: Push Saved Plan…" pushes exactly it, or nothing if the folder or the service moved.`,
      );
    }
  }
  const { changes, problems } = planned.plan;
  return { changes: changes.map(publicChange), problems };
}

/**
 * `convai.planPush` (and Save Plan, with `out`): the plan rendered beside the editor, or `{ folder, out? }` answered
 * with the plan.
 */
export function planCommand(
  services: FolderCommandServices,
  out?: (folder: string) => Promise<string | undefined>,
): CommandShells<PlanAnswer> {
  return {
    interactive: async (arg) => {
      const folder = await pulledFolder(arg);
      const target = folder && out ? await out(folder) : undefined;
      if (!folder || (out && target === undefined)) return undefined;
      const planned = await cancellable('Planning the push…', (signal) => plannedFolder(services, folder, { signal }));
      if (!planned) return undefined;
      services.events.planned(planned.folder, planned.plan);
      await services.view.show(planned.folder, planMarkdown(planned.plan, { preview: { folder: planned.folder } }));
      return answered(planned, target, true);
    },
    programmatic: async (args) => {
      // Where it goes is checked before the plan's requests.
      const target =
        args.out === undefined ? undefined : checkedPlanPath(String(await pulledFolder(args.folder)), args.out);
      const planned = await plannedFolder(services, args.folder);
      if (!planned) return undefined;
      services.events.planned(planned.folder, planned.plan);
      return answered(planned, target, false);
    },
  };
}

/**
 * A folder's open plan preview, planned again after a push or a pull rewrote the folder: a preview never goes on
 * showing changes that were pushed. When planning fails, the preview says it is out of date.
 */
export async function replanPreview(services: FolderCommandServices, folder: string): Promise<void> {
  const { view, events, log } = services;
  if (!view.isShowing(folder)) return;
  try {
    const planned = await plannedFolder(services, folder);
    if (!planned) return;
    events.planned(folder, planned.plan);
    await view.update(folder, planMarkdown(planned.plan, { preview: { folder } }));
  } catch (error) {
    log.for('tenant-folders').warn(`${folder}: the plan preview could not be planned again: ${messageOf(error)}`);
    await view.update(
      folder,
      `# Push plan of ${codeSpan(folder)}\n\nOut of date: the folder was pushed or pulled since this plan, and planning it again failed: ${codeSpan(messageOf(error))}\n\nRun Plan Push again.\n`,
    );
  }
}
