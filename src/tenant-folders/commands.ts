/**
 * The tenant folder commands: Plan Push (a preview beside the editor, kept current while it is open, and a saved
 * plan), Push (after a confirmation, or a saved plan's changes exactly), and Pull Tenant (pull-commands.ts).
 */
import * as vscode from 'vscode';
import { COMMANDS, isProgrammatic, registerCommand } from '../commands';
import type { ListingCache } from '../core/listing-cache';
import { pushed } from '../core/changes';
import { diskFolder } from '../core/tenant/folder-io';
import { planPush, type Plan } from '../core/tenant/plan';
import { codeSpan } from '../core/markdown-code';
import { publicChange, type PublicChange } from '../core/tenant/plan-text';
import { planMarkdown } from '../core/tenant/plan-markdown';
import { planVerdict } from '../core/tenant/plan-verdict';
import { push, type PushResult } from '../core/tenant/push';
import { PushRefused } from '../core/tenant/push-refused';
import { verifySavedPlan } from '../core/tenant/saved-plan-check';
import type { Connections } from '../connections/registry';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import { manifestOf, pulledFolder } from '../shared/pulled-folder';
import { connectionOf } from './folders';
import { PlanView } from './plan-view';
import { checkedPlanPath, pickPlanTarget, pickSavedPlan, readSavedPlan, writeSavedPlan } from './saved-plans';
import { messageOf, plural } from '../core/text';
import { plain, plainText } from '../core/plain-text';
import { showFailure } from '../ui/notify';
import type { FolderEvents } from './folder-events';
import { cancellable } from '../ui/progress';
import { pull, pullAgain } from './pull-commands';

const PUSH = 'Push';
const PULL_AGAIN = 'Pull Again';
const SHOW_LOG = 'Show Log';

/** `savedPlan`: the path of a saved plan, whose plan it is once checked against the folder and the service. */
async function plannedFolder(connections: Connections, arg: unknown, signal?: AbortSignal, savedPlan?: string): Promise<{ folder: string; connection: string; plan: Plan } | undefined> {
  const folder = await pulledFolder(isProgrammatic(arg) ? arg.folder : arg);
  if (!folder) return undefined;
  const connection = connectionOf(connections, await manifestOf(folder));
  const client = connections.client(connection);
  const plan = savedPlan === undefined
    ? await planPush(client, diskFolder(folder), { signal })
    : await verifySavedPlan(client, diskFolder(folder), await readSavedPlan(savedPlan), { file: savedPlan, signal });
  return { folder, connection, plan };
}

/** A push refused for a conflict: the way out is a pull of that folder, one click away. */
function offerPullAgain(connections: Connections, log: Log, events: FolderEvents, folder: string, refusal: PushRefused): void {
  log.for('tenant-folders').warn(refusal.message);
  void vscode.window.showErrorMessage(plainText(refusal.message), PULL_AGAIN, SHOW_LOG).then(async (choice) => {
    if (choice === SHOW_LOG) log.show();
    if (choice === PULL_AGAIN) await pullAgain(connections, log, events, folder).catch((error: unknown) => showFailure(log, error));
  });
}

function confirmation(plan: Plan): string {
  const lines = plan.changes.map((c) => plain`• ${c.action} ${c.segment} "${c.name}"` + (c.fields.length > 0 ? plain` (${c.fields.join(', ')})` : ''));
  const deletes = plan.changes.filter((c) => c.action === 'delete').length;
  return `${lines.join('\n')}${deletes > 0 ? `\n\n${deletes} resource${deletes > 1 ? 's are' : ' is'} deleted on the service; that cannot be undone.` : ''}`;
}

/** `savedPlan`: push that saved plan's changes, or nothing (the programmatic argument's `plan`, or picked). */
async function pushFolder(connections: Connections, changes: Changes, log: Log, events: FolderEvents, arg: unknown, picked?: string): Promise<{ applied: PublicChange[] } | undefined> {
  const programmatic = isProgrammatic(arg);
  const savedPlan = programmatic && arg.plan !== undefined ? String(arg.plan) : picked;
  const planned = programmatic
    ? await plannedFolder(connections, arg, undefined, savedPlan)
    : await cancellable(savedPlan ? 'Checking the saved plan…' : 'Planning the push…', (signal) => plannedFolder(connections, arg, signal, savedPlan));
  if (!planned) return undefined;
  const { folder, connection, plan } = planned;
  events.planned(folder, plan);
  const verdict = planVerdict(plan);
  for (const note of plan.notes) log.for('tenant-folders').info(note);
  if (connections.require(connection).readOnly) throw new Error(`Not pushed: the connection "${connection}" is read-only (readOnly in convai.connections). Nothing was sent.`);
  if (!programmatic) {
    if (plan.changes.length === 0 && plan.problems.length === 0) {
      void vscode.window.showInformationMessage('Nothing to push: no change in the folder since the pull.');
      return { applied: [] };
    }
    if (verdict.pushable) {
      const choice = await vscode.window.showWarningMessage(plain`Push ${plural(plan.changes.length, 'change')} to tenant ${plan.manifest.tenantId} on ${connection}?`, { modal: true, detail: confirmation(plan) }, PUSH);
      if (choice !== PUSH) return undefined;
    }
  }
  const run = (signal?: AbortSignal, progress?: vscode.Progress<{ message?: string; increment?: number }>): Promise<PushResult> =>
    push(connections.client(connection), diskFolder(folder), plan, {
      // Programmatic, the plan was made just now (shown to a user first, it may be old by the time they confirm); a
      // saved plan is sent in its order, one change at a time.
      signal, ...(savedPlan === undefined ? { justPlanned: programmatic } : { concurrency: 1 }), onProgress: (change, index, total) => progress?.report({ message: plain`${index + 1} of ${total}: ${change.action} "${change.name}"`, increment: 100 / total }),
    });
  let result: PushResult;
  try {
    result = programmatic ? await run() : await cancellable(`Pushing to tenant ${plan.manifest.tenantId} on ${connection}`, run);
  } catch (error) {
    // Refused for a conflict, before sending or during the push; a refusal for problems is fixed in the folder.
    if (!programmatic && error instanceof PushRefused && (verdict.conflicts.length > 0 || verdict.pushable)) {
      offerPullAgain(connections, log, events, folder, error);
      return undefined;
    }
    throw error;
  } finally {
    // Refused up front, the push wrote nothing: the plan just shown still holds.
    if (verdict.pushable) events.written(folder, 'push');
    // What was applied before a failure too shows in the tree (created resources too) and the open documents: one change.
    await changes.report(pushed(connection, plan.manifest.tenantId, plan.changes));
  }
  log.for('tenant-folders').info(`Pushed ${result.applied.length} change(s) from ${folder} to tenant ${plan.manifest.tenantId} on ${connection}.`);
  if (result.notTaken.length > 0) {
    const missed = result.notTaken.map((m) => `${m.file}: ${m.field} (sent ${JSON.stringify(m.sent)}, the service holds ${JSON.stringify(m.holds ?? null)})`).join('; ');
    throw new Error(`The service did not take every field as sent, so the push stopped there: ${missed}. The folder keeps your values of those fields, so the next plan shows them again.`);
  }
  if (!programmatic) void vscode.window.showInformationMessage(plain`Pushed ${plural(result.applied.length, 'change')} to tenant ${plan.manifest.tenantId} on ${connection}.`);
  return { applied: result.applied.map(publicChange) };
}

/** The plan, rendered beside the editor; saved too when `out` is given (the programmatic argument's, or picked). */
async function showPlan(connections: Connections, view: PlanView, events: FolderEvents, arg: unknown, picked?: string): Promise<{ changes: PublicChange[]; problems: string[] } | undefined> {
  const programmatic = isProgrammatic(arg);
  // Where it goes is checked before the plan's requests.
  const out = programmatic && arg.out !== undefined ? checkedPlanPath(String(await pulledFolder(arg.folder)), arg.out) : picked;
  const planned = programmatic ? await plannedFolder(connections, arg) : await cancellable('Planning the push…', (signal) => plannedFolder(connections, arg, signal));
  if (!planned) return undefined;
  events.planned(planned.folder, planned.plan);
  if (!programmatic) await view.show(planned.folder, planMarkdown(planned.plan, { preview: { folder: planned.folder } }));
  if (out !== undefined) {
    await writeSavedPlan(planned.plan, planned.folder, out);
    if (!programmatic) void vscode.window.showInformationMessage(plain`Saved the plan to ${out}; "ConvAI: Push Saved Plan…" pushes exactly it, or nothing if the folder or the service moved.`);
  }
  const { changes, problems } = planned.plan;
  return { changes: changes.map(publicChange), problems };
}

/**
 * A folder's open plan preview, planned again after a push or a pull rewrote the folder: a preview never goes on
 * showing changes that were pushed. When planning fails, the preview says it is out of date.
 */
async function replanPreview(connections: Connections, view: PlanView, events: FolderEvents, log: Log, folder: string): Promise<void> {
  if (!view.isShowing(folder)) return;
  try {
    const planned = await plannedFolder(connections, { folder });
    if (!planned) return;
    events.planned(folder, planned.plan);
    await view.update(folder, planMarkdown(planned.plan, { preview: { folder } }));
  } catch (error) {
    log.for('tenant-folders').warn(`${folder}: the plan preview could not be planned again: ${messageOf(error)}`);
    await view.update(folder, `# Push plan of ${codeSpan(folder)}\n\nOut of date: the folder was pushed or pulled since this plan, and planning it again failed: ${codeSpan(messageOf(error))}\n\nRun Plan Push again.\n`);
  }
}

export function registerTenantFolderCommands(
  log: Log, connections: Connections, changes: Changes, listings: ListingCache, events: FolderEvents,
): vscode.Disposable[] {
  const view = new PlanView();
  return [
    view,
    events.onDidWrite(({ folder }) => void replanPreview(connections, view, events, log, folder)),
    registerCommand(log, COMMANDS.pullTenant, (arg) => pull(connections, listings, log, events, arg)),
    registerCommand(log, COMMANDS.planPush, (arg) => showPlan(connections, view, events, arg)),
    registerCommand(log, COMMANDS.push, (arg) => pushFolder(connections, changes, log, events, arg)),
    registerCommand(log, COMMANDS.savePlan, async (arg) => {
      const folder = await pulledFolder(arg);
      const out = folder && await pickPlanTarget(folder);
      return out && showPlan(connections, view, events, folder, out);
    }),
    registerCommand(log, COMMANDS.pushSavedPlan, async (arg) => {
      const folder = await pulledFolder(arg);
      const file = folder && await pickSavedPlan(folder);
      return file && pushFolder(connections, changes, log, events, folder, file);
    }),
  ];
}
