import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, isProgrammatic, registerCommand } from '../commands';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { pushed } from '../core/changes';
import { DiskFolder } from '../core/tenant/disk-folder';
import { MANIFEST_FILE, type Manifest } from '../core/tenant/manifest';
import { slug } from '../core/tenant/resource-paths';
import { planPush, type Plan } from '../core/tenant/plan';
import { codeSpan } from '../core/markdown-code';
import { planDocument, publicChange, type PublicChange } from '../core/tenant/plan-text';
import { pullTenant } from '../core/tenant/pull';
import { push, type PushResult } from '../core/tenant/push';
import { PushRefused } from '../core/tenant/push-refused';
import { verifySavedPlan } from '../core/tenant/saved-plan';
import type { Connections } from '../connections/registry';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import { manifestOf, pulledFolder } from '../shared/pulled-folder';
import { connectionOf } from './folders';
import { PlanView } from './plan-view';
import { checkedPlanPath, pickPlanTarget, pickSavedPlan, readSavedPlan, writeSavedPlan } from './saved-plans';
import { pickTenant } from '../connections/pickers';
import { messageOf, plural } from '../core/text';
import { plain, plainText } from '../core/plain-text';
import { showFailure } from '../ui/notify';
import type { FolderEvents } from './folder-events';
import { cancellable, countProgress, type Progress } from '../ui/progress';

const PUSH = 'Push';
const PULL_AGAIN = 'Pull Again';
const SHOW_LOG = 'Show Log';

function integer(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Error(`${field} must be the tenant's integer id.`);
  return value;
}

/** The tenant a user pulls: the tree's tenant node, or picked. */
async function tenantToPull(connections: Connections, listings: ListingCache, arg: unknown): Promise<{ connection: string; tenantId: number; name: string } | undefined> {
  if (typeof arg === 'object' && arg !== null && 'connectionName' in arg && 'tenantId' in arg && 'summary' in arg) {
    const node = arg as { connectionName: string; tenantId: number; summary: JsonObject };
    return { connection: node.connectionName, tenantId: node.tenantId, name: String(node.summary.name ?? `tenant ${node.tenantId}`) };
  }
  return pickTenant(connections, listings, 'Pull which tenant?');
}

/** What a folder holds, for a pull: nothing (or not there yet), a pulled tenant, or other files. */
async function folderState(folder: vscode.Uri): Promise<'empty' | 'pulled' | 'other'> {
  const entries = await vscode.workspace.fs.readDirectory(folder).then((found) => found, () => []);
  if (entries.length === 0) return 'empty';
  return entries.some(([entry]) => entry === MANIFEST_FILE) ? 'pulled' : 'other';
}

/**
 * Where a pull goes: a new folder named after the tenant (made here, as an open dialog cannot make one everywhere),
 * or a folder the user chooses. A folder holding other files is refused for a new folder inside it, since a plan
 * would report every one of them.
 */
async function pickFolder(name: string): Promise<string | undefined> {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  const base = slug(name) || 'tenant';
  const proposed = workspace && vscode.Uri.joinPath(workspace, base);
  const items: Array<vscode.QuickPickItem & { folder?: vscode.Uri }> = [
    ...(proposed ? [{ label: plain`$(new-folder) ${vscode.workspace.asRelativePath(proposed)}`, description: 'a folder of the workspace for this tenant', folder: proposed }] : []),
    { label: '$(folder-opened) Choose a folder…', description: 'an empty folder, or one pulled into before' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: plain`Pull ${name} into`, placeHolder: 'The tenant\'s files go into this folder' });
  if (!picked) return undefined;
  let folder = picked.folder ?? (await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: 'Pull Here', title: plain`Pull ${name} into (an empty folder, or one pulled into before)`, defaultUri: workspace,
  }))?.[0];
  if (!folder) return undefined;
  if (await folderState(folder) === 'other') {
    const inside = vscode.Uri.joinPath(folder, base);
    const fix = `Pull into ${base}/ inside it`;
    const choice = await vscode.window.showWarningMessage(plain`${folder.fsPath} holds other files and no pulled tenant (${MANIFEST_FILE}); a plan of it would report every one of them.`, { modal: true }, fix);
    if (choice !== fix) return undefined;
    if (await folderState(inside) === 'other') throw new Error(plain`${inside.fsPath} holds other files too: choose an empty folder, or one pulled into before.`);
    folder = inside;
  }
  await vscode.workspace.fs.createDirectory(folder);
  return folder.fsPath;
}

interface PullTarget {
  connection: string;
  tenantId: number;
  name: string;
}

async function pull(connections: Connections, listings: ListingCache, log: Log, events: FolderEvents, arg: unknown): Promise<{ folder: string; resources: number } | undefined> {
  const programmatic = isProgrammatic(arg);
  const target = programmatic
    ? { connection: String(arg.connection ?? ''), tenantId: integer(arg.tenantId, 'tenantId'), name: `tenant ${String(arg.tenantId)}` }
    : await tenantToPull(connections, listings, arg);
  if (!target) return undefined;
  // Before asking where: a connection that is not there fails now.
  connections.require(target.connection);
  const folder = programmatic
    ? (typeof arg.folder === 'string' && path.isAbsolute(arg.folder) ? arg.folder : undefined)
    : await pickFolder(target.name);
  if (programmatic && !folder) throw new Error('folder must be an absolute path.');
  if (!folder) return undefined;
  return pullInto(connections, log, events, target, folder, programmatic);
}

async function pullInto(
  connections: Connections, log: Log, events: FolderEvents, target: PullTarget, folder: string, programmatic: boolean,
): Promise<{ folder: string; resources: number } | undefined> {
  const connection = connections.require(target.connection);
  let written = 0;
  const work = (signal?: AbortSignal, progress?: Progress): ReturnType<typeof pullTenant> => {
    const shown = countProgress(progress, (done, total) => `${done} of ${total} resources`);
    return pullTenant(connections.client(connection.name), new DiskFolder(folder), { connection: connection.name, baseUrl: connection.baseUrl, tenantId: target.tenantId }, {
      signal,
      onProgress: (done, total) => {
        written = done;
        shown(done, total);
      },
    });
  };
  let result: Awaited<ReturnType<typeof pullTenant>>;
  const stop = new AbortController();
  events.writing(folder);
  try {
    result = programmatic ? await work() : await cancellable(`Pulling ${target.name} into ${folder}`, (signal, progress) => {
      signal.addEventListener('abort', () => stop.abort());
      return work(signal, progress);
    });
  } catch (error) {
    // Cancel is the user's choice, not a failure: what was written is recorded, and the next pull goes on from it.
    if (!stop.signal.aborted) throw error;
    log.for('tenant-folders').info(`Pull of tenant ${target.tenantId} of ${connection.name} into ${folder} stopped by Cancel after ${written} resources.`);
    void vscode.window.showInformationMessage(plain`Pull of ${target.name} stopped: ${folder} holds the ${written} resources pulled so far, recorded in its manifest. Pull again into it to complete it.`);
    return undefined;
  } finally {
    events.written(folder, 'pull');
  }
  const folderLog = log.for('tenant-folders');
  folderLog.info(`Pulled tenant ${target.tenantId} of ${connection.name} into ${folder}: ${result.resources} resources.`);
  for (const note of result.notes) folderLog.info(note);
  for (const duplicate of result.duplicates) folderLog.warn(duplicate);
  if (!programmatic) {
    if (result.duplicates.length > 0) void vscode.window.showWarningMessage(`Pulled, but names repeat: ${result.duplicates.map(plainText).join(' ')}`);
    const kept = result.keptLocalChanges.length > 0 ? ` Kept your changes in ${result.keptLocalChanges.map(plainText).join(', ')}.` : '';
    const inWorkspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder)) !== undefined;
    const choice = await vscode.window.showInformationMessage(`${plain`Pulled ${result.resources} resources of ${target.name} into ${folder}.`}${kept}`, ...(inWorkspace ? [] : ['Add to Workspace']));
    if (choice === 'Add to Workspace') vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri: vscode.Uri.file(folder) });
  }
  return { folder, resources: result.resources };
}

/** `savedPlan`: the path of a saved plan, whose plan it is once checked against the folder and the service. */
async function plannedFolder(connections: Connections, arg: unknown, signal?: AbortSignal, savedPlan?: string): Promise<{ folder: string; connection: string; plan: Plan } | undefined> {
  const folder = await pulledFolder(isProgrammatic(arg) ? arg.folder : arg);
  if (!folder) return undefined;
  const connection = connectionOf(connections, await manifestOf(folder));
  const client = connections.client(connection);
  const plan = savedPlan === undefined
    ? await planPush(client, new DiskFolder(folder), { signal })
    : await verifySavedPlan(client, new DiskFolder(folder), await readSavedPlan(savedPlan), { file: savedPlan, signal });
  return { folder, connection, plan };
}

/** How a folder's tenant is called in messages: its name when it was pulled. */
function tenantName(manifest: Manifest): string {
  return manifest.resources.find((entry) => entry.segment === 'tenants')?.name ?? `tenant ${manifest.tenantId}`;
}

/** Pulls a folder again from where its manifest says it came from, asking nothing. */
async function pullAgain(connections: Connections, log: Log, events: FolderEvents, folder: string): Promise<void> {
  const manifest = await manifestOf(folder);
  await pullInto(connections, log, events, { connection: connectionOf(connections, manifest), tenantId: manifest.tenantId, name: tenantName(manifest) }, folder, false);
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
  const conflicted = plan.changes.some((c) => c.action === 'conflict');
  for (const note of plan.notes) log.for('tenant-folders').info(note);
  if (connections.require(connection).readOnly) throw new Error(`Not pushed: the connection "${connection}" is read-only (readOnly in convai.connections). Nothing was sent.`);
  if (!programmatic) {
    if (plan.changes.length === 0 && plan.problems.length === 0) {
      void vscode.window.showInformationMessage('Nothing to push: no change in the folder since the pull.');
      return { applied: [] };
    }
    if (!conflicted && plan.problems.length === 0) {
      const choice = await vscode.window.showWarningMessage(plain`Push ${plural(plan.changes.length, 'change')} to tenant ${plan.manifest.tenantId} on ${connection}?`, { modal: true, detail: confirmation(plan) }, PUSH);
      if (choice !== PUSH) return undefined;
    }
  }
  const run = (signal?: AbortSignal, progress?: vscode.Progress<{ message?: string; increment?: number }>): Promise<PushResult> =>
    push(connections.client(connection), new DiskFolder(folder), plan, {
      // Programmatic, the plan was made just now (shown to a user first, it may be old by the time they confirm); a
      // saved plan is sent in its order, one change at a time.
      signal, ...(savedPlan === undefined ? { justPlanned: programmatic } : { concurrency: 1 }), onProgress: (change, index, total) => progress?.report({ message: plain`${index + 1} of ${total}: ${change.action} "${change.name}"`, increment: 100 / total }),
    });
  let result: PushResult;
  try {
    result = programmatic ? await run() : await cancellable(`Pushing to tenant ${plan.manifest.tenantId} on ${connection}`, run);
  } catch (error) {
    // Refused for a conflict, before sending or during the push; a refusal for problems is fixed in the folder.
    if (!programmatic && error instanceof PushRefused && (conflicted || plan.problems.length === 0)) {
      offerPullAgain(connections, log, events, folder, error);
      return undefined;
    }
    throw error;
  } finally {
    // Refused up front, the push wrote nothing: the plan just shown still holds.
    if (!conflicted && plan.problems.length === 0) events.written(folder, 'push');
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
  if (!programmatic) await view.show(planned.folder, planDocument(planned.plan, planned.folder));
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
    await view.update(folder, planDocument(planned.plan, folder));
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
