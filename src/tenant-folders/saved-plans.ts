/**
 * Saved plans in VS Code (contract: "Saved plans, drift and review"): where Plan Push writes one ("Save Plan…"),
 * and where Push takes one from ("Push Saved Plan…"). The saving, reading and checking are the core's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Plan } from '../core/tenant/plan';
import {
  formatSavedPlan,
  parseSavedPlan,
  savedPlanPlaceProblem,
  savePlan,
  type SavedPlan,
} from '../core/tenant/saved-plan';
import { DiskFolder } from '../core/tenant/disk-folder';

const FILTERS = { 'Saved plan': ['json'] };

/** Refuses, before any request, a place where a saved plan would be a problem of the folder's next plan. */
export function checkedPlanPath(folder: string, out: unknown): string {
  if (typeof out !== 'string' || !path.isAbsolute(out)) throw new Error('out must be an absolute path.');
  const problem = savedPlanPlaceProblem(folder, out);
  if (problem) throw new Error(`No plan was saved: ${problem}.`);
  return out;
}

/** Where the user saves a plan of `folder`: beside the folder, by default. */
export async function pickPlanTarget(folder: string): Promise<string | undefined> {
  const picked = await vscode.window.showSaveDialog({
    title: `Save the plan of ${path.basename(folder)} (outside the folder, or as a dotfile in it)`,
    defaultUri: vscode.Uri.file(path.join(path.dirname(folder), `${path.basename(folder)}.plan.json`)),
    filters: FILTERS,
    saveLabel: 'Save Plan',
  });
  return picked && checkedPlanPath(folder, picked.fsPath);
}

/** The saved plan the user pushes into `folder`. */
export async function pickSavedPlan(folder: string): Promise<string | undefined> {
  const [picked] =
    (await vscode.window.showOpenDialog({
      title: `Push a saved plan to the tenant of ${path.basename(folder)}`,
      defaultUri: vscode.Uri.file(path.dirname(folder)),
      canSelectFiles: true,
      canSelectFolders: false,
      canSelectMany: false,
      filters: FILTERS,
      openLabel: 'Push Plan',
    })) ?? [];
  return picked?.fsPath;
}

/** Writes the plan (refused by the core while it holds a conflict or a problem) with the folder's files as they are now. */
export async function writeSavedPlan(plan: Plan, folder: string, out: string): Promise<void> {
  await writeFile(out, formatSavedPlan(await savePlan(plan, new DiskFolder(folder))));
}

export async function readSavedPlan(file: unknown): Promise<SavedPlan> {
  if (typeof file !== 'string' || !path.isAbsolute(file))
    throw new Error('plan must be the absolute path of a saved plan.');
  return parseSavedPlan(await readFile(file, 'utf8'), file);
}
