/**
 * The trial engine's work in VS Code (contract: "Trials"), in dist/trials.js, loaded at the first trial: the copies of
 * unsaved prompt versions made, run through and deleted, and the clean-up of what runs left. Sessions that never
 * test an unsaved edit never load it (scripts/build.mjs; docs/performance.md counts the host's JavaScript).
 */
import type { Connections } from '../connections/registry';
import { userCacheDir } from '../core/cache-dir';
import type { ServiceClient } from '../core/client';
import type { JsonObject } from '../core/json';
import { runOperation, type OperationResult } from '../core/operation';
import { kindOfSegment } from '../core/resources';
import { cleanTrials, type CleanResult } from '../core/trials/trial-clean';
import { TrialJournal, trialJournalDir } from '../core/trials/trial-journal';
import { newTrialTag } from '../core/trials/trial-names';
import { planTrial, type TrialPlan } from '../core/trials/trial-plan';
import { planFolderTrial, TrialRefused, type FolderTrialPlan } from '../core/trials/folder-trial';
import { sameBaseUrl } from '../core/base-url';
import type { Suite } from '../core/prompt-tests/suite';
import { DiskFolder } from '../core/tenant/disk-folder';
import { loadManifest } from '../core/tenant/manifest';
import { notPulled } from '../shared/pulled-folder';
import { withTrialCopies, type TrialRoute } from '../core/trials/trial-run';
import type { TrialOutcome } from '../core/trials/trial-report';
import type { FileLocation } from '../core/uri';
import { plain } from '../core/plain-text';
import { plural } from '../core/text';
import * as vscode from 'vscode';
import type { Changes } from '../documents/changes';
import type { ListingCache } from '../core/listing-cache';
import { pickTenant } from '../connections/pickers';
import type { SaveHold } from '../documents/save-hold';
export { leftText, publicTrial } from '../core/trials/trial-report';
import type { Drafts } from '../documents/drafts';
import { unsavedVersions } from '../documents/unsaved-versions';

type PromptLocation = Extract<FileLocation, { type: 'resource' }>;

export interface Tenant {
  connection: string;
  tenantId: number;
}

function refusal(problems: readonly string[]): Error {
  return new Error(
    `Unsaved edits cannot run as a trial: ${problems.join('; ')}. Fix them, or set convai.tests.unsavedEdits to "saved" to test the saved versions.`,
  );
}

/** The tenant's unsaved prompt edits as a trial's plan; undefined when none differs from the service. */
export async function unsavedPlan(
  client: ServiceClient,
  drafts: Drafts,
  { connection, tenantId }: Tenant,
  signal?: AbortSignal,
): Promise<TrialPlan | undefined> {
  const unsaved = await unsavedVersions(client, drafts, connection, tenantId, signal);
  if (unsaved.problems.length > 0) throw refusal(unsaved.problems.map((p) => p.text));
  const plan = planTrial(unsaved.proposals, unsaved.live);
  return plan.copies.length === 0 ? undefined : plan;
}

/**
 * Run as Trial of Folder: the pulled folder's planned versions of its prompts, for a suite that runs in `tenant`; the
 * folder must be of that tenant of the connection's service, and its plan one a push would make.
 */
export async function folderTrial(
  connections: Connections,
  folder: string,
  { connection, tenantId }: Tenant,
  suite: { name: string; suite: Suite },
  signal?: AbortSignal,
): Promise<FolderTrialPlan> {
  const io = new DiskFolder(folder);
  const loaded = await loadManifest(io);
  if (!loaded) throw notPulled(folder);
  const { manifest } = loaded;
  const service = connections.get(connection)?.baseUrl ?? '';
  const cannot = `${folder} cannot run as a trial of ${suite.name}:`;
  if (!sameBaseUrl(manifest.baseUrl, service) || manifest.tenantId !== tenantId)
    throw new Error(
      `${cannot} it holds tenant ${manifest.tenantId} of ${manifest.baseUrl}, and the suite runs in tenant ${tenantId} of "${connection}" (${service}). Pick a folder pulled from the suite's tenant, or change the suite's target. Nothing was created.`,
    );
  try {
    return await planFolderTrial(connections.client(connection), { io, loaded }, tenantId, [suite], signal);
  } catch (error) {
    if (!(error instanceof TrialRefused)) throw error;
    const fix =
      error.reason === 'plan'
        ? 'Fix them in the folder (Plan Push lists them too)'
        : 'Remove those cases or names from the suite, or keep the prompts in the folder';
    throw new Error(`${cannot} ${error.lines.join('; ')}. ${fix}. Nothing was created.`);
  }
}

/** Makes the plan's copies, runs `run` through them and deletes them; the journal is the command-line tool's too. */
export function withCopies<T>(
  connections: Connections,
  { connection, tenantId }: Tenant,
  plan: TrialPlan,
  signal: AbortSignal | undefined,
  run: (route: TrialRoute) => Promise<T>,
): Promise<{ value: T; trial: TrialOutcome }> {
  const tag = newTrialTag();
  const service = connections.get(connection)?.baseUrl ?? connection;
  const journal = new TrialJournal(trialJournalDir(userCacheDir()), service, tenantId, tag);
  return withTrialCopies({ client: connections.client(connection), tenantId, tag, plan, journal, signal }, run);
}

/**
 * Test Prompt on the prompt's unsaved edits: test_prompt on a copy holding them; undefined when the prompt has none,
 * so the saved version runs. Only this prompt's edits count: one call follows no hand-over.
 */
export async function testPromptTrial(
  connections: Connections,
  drafts: Drafts,
  location: PromptLocation,
  inputs: JsonObject,
  signal: AbortSignal,
): Promise<(OperationResult & { trial: TrialOutcome }) | undefined> {
  const { connection, tenantId, id } = location;
  const client = connections.client(connection);
  const unsaved = await unsavedVersions(client, drafts, connection, tenantId, signal);
  const problems = unsaved.problems.filter((p) => p.id === id).map((p) => p.text);
  if (problems.length > 0) throw refusal(problems);
  const plan = planTrial(
    unsaved.proposals.filter((p) => p.id === id),
    unsaved.live,
  );
  if (plan.copies.length === 0) return undefined;
  const kind = kindOfSegment('ai_prompts');
  const { value, trial } = await withCopies(connections, location, plan, signal, (route) =>
    runOperation(client, { kind, id: route.copyOf(id), tenantId }, inputs, signal),
  );
  // The copy's hash names no version anyone can find again: the run says it ran the unsaved edits instead.
  return { ...value, savedHash: undefined, trial };
}

interface CleanArgs extends Tenant {
  all: boolean;
}

export function cleanArgs(args: Record<string, unknown>): CleanArgs {
  const { connection, tenantId, all } = args;
  if (typeof connection !== 'string' || typeof tenantId !== 'number' || !Number.isInteger(tenantId))
    throw new Error(
      'convai.cleanTrials takes { connection, tenantId, all? }: the connection\'s name and the tenant\'s id, e.g. { "connection": "local", "tenantId": 1 }.',
    );
  return { connection, tenantId, all: all === true };
}

export interface CleanDeps {
  connections: Connections;
  listings: ListingCache;
  changes: Changes;
}

/**
 * Clean Up Trial Copies (contract: "Trials"): deletes the trial copies a tenant holds, those this machine's journals
 * name and, with `all`, every prompt there marked as a copy; the tenant's prompt listing is read again.
 */
export async function cleanTenant(
  { connections, changes }: CleanDeps,
  { connection, tenantId, all }: CleanArgs,
): Promise<{ deleted: CleanResult['deleted'] }> {
  const service = connections.get(connection)?.baseUrl;
  if (!service) throw new Error(`No connection is named "${connection}": add it with "ConvAI: Add Connection".`);
  const dir = trialJournalDir(userCacheDir());
  const result = await cleanTrials(connections.client(connection), { dir, service, tenantId, all });
  // The prompt listing held the copies: it is read again, and no open document shows one.
  await changes.report({ scopes: [{ type: 'resource', connection, tenantId, segment: 'ai_prompts' }] });
  if (result.left.length > 0)
    throw new Error(
      `${plural(result.left.length, 'trial copy', 'trial copies')} could not be deleted: ${result.left.map((l) => `"${l.name}": ${l.reason}`).join('; ')}. Run Clean Up Trial Copies again once the service answers.`,
    );
  return { deleted: result.deleted };
}

/** A person's clean-up: of the tenant of the tree's item, else one they pick; every marked prompt goes. */
export async function cleanAsked(
  deps: CleanDeps,
  arg: unknown,
): Promise<{ deleted: CleanResult['deleted'] } | undefined> {
  const given = typeof arg === 'object' && arg !== null ? (arg as Record<string, unknown>) : {};
  const at =
    typeof given.connectionName === 'string' && typeof given.tenantId === 'number'
      ? { connection: given.connectionName, tenantId: given.tenantId }
      : await pickTenant(deps.connections, deps.listings, 'Clean Up Trial Copies', { writable: true });
  if (!at) return undefined;
  const done = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Deleting trial copies…' },
    () => cleanTenant(deps, { ...at, all: true }),
  );
  void vscode.window.showInformationMessage(
    done.deleted.length === 0
      ? 'No trial copy was left in that tenant.'
      : plain`Deleted ${plural(done.deleted.length, 'trial copy', 'trial copies')}: ${done.deleted.map((d) => d.name).join(', ')}.`,
  );
  return done;
}

/** What a run of unsaved edits says it ran (contract: "Trials"). */
export function trialNote(label: string, plan: TrialPlan): string {
  const prompts = plan.copies.map((c) => JSON.stringify(c.name)).join(', ');
  return `Ran your unsaved version as a trial; nothing was saved (${label}; unsaved edits of ${prompts}, each run through a copy that was deleted after).`;
}

/** What a run of a folder's versions says it ran. */
export function folderNote(folder: string, plan: TrialPlan): string {
  const prompts = plan.copies.map((c) => JSON.stringify(c.name)).join(', ');
  const where = vscode.workspace.asRelativePath(folder);
  return plan.copies.length === 0
    ? `Ran as a trial of ${where}, which changes no prompt: every case ran on the live prompts.`
    : `Ran ${where}'s version of ${prompts} as a trial, each through a copy that was deleted after; no live prompt was written.`;
}

let owedKept: vscode.Disposable | undefined;

/**
 * A Testing-view run started: VS Code saves the dirty `convai:` documents now, unless `testing.saveBeforeTest` is off
 * or the run keeps the focus (a continuous run), and the hold refuses each of those saves whenever it comes. A
 * document reverted or closed meanwhile is saved by nobody, so nothing is owed for it any more.
 */
export function owe(hold: SaveHold, request: vscode.TestRunRequest, scheme: string): vscode.Disposable | undefined {
  if (request.preserveFocus || vscode.workspace.getConfiguration('testing').get('saveBeforeTest') === false)
    return undefined;
  for (const document of vscode.workspace.textDocuments)
    if (document.isDirty && document.uri.scheme === scheme) hold.owed.add(document.uri.toString());
  if (owedKept) return undefined;
  owedKept = vscode.Disposable.from(
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (!event.document.isDirty) hold.owed.delete(event.document.uri.toString());
    }),
    vscode.workspace.onDidCloseTextDocument((document) => hold.owed.delete(document.uri.toString())),
  );
  return owedKept;
}
