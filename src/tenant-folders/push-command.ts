import * as vscode from 'vscode';
import type { CommandShells } from '../commands';
import { pushed } from '../core/changes';
import { plain, plainText } from '../core/plain-text';
import { DiskFolder } from '../core/tenant/disk-folder';
import type { Plan } from '../core/tenant/plan';
import { publicChange, type PublicChange } from '../core/tenant/plan-text';
import { planVerdict } from '../core/tenant/plan-verdict';
import { push, type PushResult } from '../core/tenant/push';
import { PushRefused } from '../core/tenant/push-refused';
import { plural } from '../core/text';
import { pulledFolder } from '../shared/pulled-folder';
import { showFailure } from '../ui/notify';
import { cancellable, type Progress } from '../ui/progress';
import type { FolderCommandServices } from './folder-commands';
import { plannedFolder, type PlannedFolder } from './plan-command';
import { pullAgain } from './pull-command';

const PUSH = 'Push';
const PULL_AGAIN = 'Pull Again';
const SHOW_LOG = 'Show Log';

/** `convai.push`'s answer (contract: `{ applied }`). */
export interface Pushed {
  applied: PublicChange[];
}

interface PushRun {
  signal?: AbortSignal;
  progress?: Progress;
  /** The path of the saved plan pushed: its changes are sent in its order, one at a time. */
  savedPlan?: string;
  /** The plan was made just now, so its reads stand for the conflict check (never so for a plan a user read first). */
  justPlanned?: boolean;
}

/** The plan to push: planned (or a saved plan checked), its notes logged, refused on a read-only connection. */
async function planToPush(
  services: FolderCommandServices,
  folderArg: unknown,
  run: PushRun,
): Promise<PlannedFolder | undefined> {
  const planned = await plannedFolder(services, folderArg, run);
  if (!planned) return undefined;
  services.events.planned(planned.folder, planned.plan);
  for (const note of planned.plan.notes) services.log.for('tenant-folders').info(note);
  if (services.connections.require(planned.connection).readOnly) {
    throw new Error(
      `Not pushed: the connection "${planned.connection}" is read-only (readOnly in convai.connections). Nothing was sent.`,
    );
  }
  return planned;
}

/** The push itself, as both shells run it; what was applied, a failure's part included, is reported as one change. */
async function pushPlanned(services: FolderCommandServices, planned: PlannedFolder, run: PushRun): Promise<PushResult> {
  const { folder, connection, plan } = planned;
  const order = run.savedPlan === undefined ? { justPlanned: run.justPlanned } : { concurrency: 1 };
  let result: PushResult;
  try {
    result = await push(services.connections.client(connection), new DiskFolder(folder), plan, {
      signal: run.signal,
      ...order,
      onProgress: (change, index, total) =>
        run.progress?.report({
          message: plain`${index + 1} of ${total}: ${change.action} "${change.name}"`,
          increment: 100 / total,
        }),
    });
  } finally {
    // Refused up front, the push wrote nothing: the plan just shown still holds.
    if (planVerdict(plan).pushable) services.events.written(folder, 'push');
    await services.changes.report(pushed(connection, plan.manifest.tenantId, plan.changes));
  }
  const tenant = plan.manifest.tenantId;
  services.log
    .for('tenant-folders')
    .info(`Pushed ${result.applied.length} change(s) from ${folder} to tenant ${tenant} on ${connection}.`);
  if (result.notTaken.length > 0) {
    const missed = result.notTaken
      .map(
        (m) =>
          `${m.file}: ${m.field} (sent ${JSON.stringify(m.sent)}, the service holds ${JSON.stringify(m.holds ?? null)})`,
      )
      .join('; ');
    throw new Error(
      `The service did not take every field as sent, so the push stopped there: ${missed}. The folder keeps your values of those fields, so the next plan shows them again.`,
    );
  }
  return result;
}

function confirmation(plan: Plan): string {
  const lines = plan.changes.map(
    (c) =>
      plain`• ${c.action} ${c.segment} "${c.name}"` + (c.fields.length > 0 ? plain` (${c.fields.join(', ')})` : ''),
  );
  const deletes = plan.changes.filter((c) => c.action === 'delete').length;
  const warning = `\n\n${deletes} resource${deletes > 1 ? 's are' : ' is'} deleted on the service; that cannot be undone.`;
  return `${lines.join('\n')}${deletes > 0 ? warning : ''}`;
}

/** A push refused for a conflict: the way out is a pull of that folder, one click away. */
function offerPullAgain(services: FolderCommandServices, folder: string, refusal: PushRefused): void {
  services.log.for('tenant-folders').warn(refusal.message);
  void vscode.window.showErrorMessage(plainText(refusal.message), PULL_AGAIN, SHOW_LOG).then(async (choice) => {
    if (choice === SHOW_LOG) services.log.show();
    if (choice === PULL_AGAIN)
      await pullAgain(services, folder).catch((error: unknown) => showFailure(services.log, error));
  });
}

/** A push a user started: the plan confirmed, progress with Cancel, the outcome said. */
async function pushShown(
  services: FolderCommandServices,
  folderArg: unknown,
  savedPlan?: string,
): Promise<Pushed | undefined> {
  const title = savedPlan ? 'Checking the saved plan…' : 'Planning the push…';
  const planned = await cancellable(title, (signal) => planToPush(services, folderArg, { signal, savedPlan }));
  if (!planned) return undefined;
  const { folder, connection, plan } = planned;
  const tenant = plan.manifest.tenantId;
  if (plan.changes.length === 0 && plan.problems.length === 0) {
    void vscode.window.showInformationMessage('Nothing to push: no change in the folder since the pull.');
    return { applied: [] };
  }
  const verdict = planVerdict(plan);
  if (verdict.pushable) {
    const question = plain`Push ${plural(plan.changes.length, 'change')} to tenant ${tenant} on ${connection}?`;
    const choice = await vscode.window.showWarningMessage(question, { modal: true, detail: confirmation(plan) }, PUSH);
    if (choice !== PUSH) return undefined;
  }
  let result: PushResult;
  try {
    result = await cancellable(`Pushing to tenant ${tenant} on ${connection}`, (signal, progress) =>
      pushPlanned(services, planned, { signal, progress, savedPlan }),
    );
  } catch (error) {
    // Refused for a conflict, before sending or during the push; a refusal for problems is fixed in the folder.
    if (error instanceof PushRefused && (verdict.conflicts.length > 0 || verdict.pushable)) {
      offerPullAgain(services, folder, error);
      return undefined;
    }
    throw error;
  }
  void vscode.window.showInformationMessage(
    plain`Pushed ${plural(result.applied.length, 'change')} to tenant ${tenant} on ${connection}.`,
  );
  return { applied: result.applied.map(publicChange) };
}

/**
 * `convai.push` (and Push Saved Plan, with a saved plan picked): the folder's plan confirmed and pushed, or
 * `{ folder, plan? }` pushed as planned now (or as the saved plan says).
 */
export function pushCommand(
  services: FolderCommandServices,
  savedPlan?: (folder: string) => Promise<string | undefined>,
): CommandShells<Pushed> {
  return {
    interactive: async (arg) => {
      if (!savedPlan) return pushShown(services, arg);
      const folder = await pulledFolder(arg);
      const file = folder && (await savedPlan(folder));
      return file ? pushShown(services, folder, file) : undefined;
    },
    programmatic: async (args) => {
      const run = { savedPlan: args.plan === undefined ? undefined : String(args.plan), justPlanned: true };
      const planned = await planToPush(services, args.folder, run);
      if (!planned) return undefined;
      const result = await pushPlanned(services, planned, run);
      return { applied: result.applied.map(publicChange) };
    },
  };
}
