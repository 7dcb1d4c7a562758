/**
 * Test Prompt on a prompt's unsaved edits (contract: "Trials"): the edits go into a trial copy, test_prompt runs on
 * the copy, and the copy is deleted, so the edits are tested without a save and callers keep hearing the live prompt.
 */
import type { Connections } from '../connections/registry';
import { userCacheDir } from '../core/cache-dir';
import type { JsonObject } from '../core/json';
import { runOperation, type OperationResult } from '../core/operation';
import { kindOfSegment } from '../core/resources';
import { TrialJournal, trialJournalDir } from '../core/trials/trial-journal';
import { newTrialTag } from '../core/trials/trial-names';
import { planTrial } from '../core/trials/trial-plan';
import { withTrialCopies, type TrialOutcome } from '../core/trials/trial-run';
import type { FileLocation } from '../core/uri';
import type { Drafts } from '../documents/drafts';
import { unsavedVersions } from '../documents/unsaved-versions';
import { unsavedEdits } from '../shared/settings';

type PromptLocation = Extract<FileLocation, { type: 'resource' }>;

/** The run on the prompt's unsaved version, or undefined when the saved version runs (the setting, or no edits). */
export async function unsavedTrialRun(
  connections: Connections,
  drafts: Drafts,
  location: PromptLocation,
  inputs: JsonObject,
  signal: AbortSignal,
): Promise<(OperationResult & { trial: TrialOutcome }) | undefined> {
  if (unsavedEdits() !== 'trial' || location.segment !== 'ai_prompts') return undefined;
  const { connection, tenantId, id } = location;
  const client = connections.client(connection);
  const unsaved = await unsavedVersions(client, drafts, connection, tenantId, signal);
  const own = unsaved.proposals.filter((p) => p.id === id);
  // Only this prompt's edits matter to one call; another's problems do not stop it.
  const problems = unsaved.problems.filter((p) => p.id === id).map((p) => p.text);
  if (own.length === 0 && problems.length === 0) return undefined;
  if (problems.length > 0)
    throw new Error(
      `The unsaved edits cannot run as a trial: ${problems.join('; ')}. Fix them, or set convai.tests.unsavedEdits to "saved" to test the saved version.`,
    );
  const plan = planTrial(own, unsaved.live);
  if (plan.copies.length === 0) return undefined;
  const tag = newTrialTag();
  const service = connections.get(connection)?.baseUrl ?? connection;
  const journal = new TrialJournal(trialJournalDir(userCacheDir()), service, tenantId, tag);
  const kind = kindOfSegment('ai_prompts');
  const { value, trial } = await withTrialCopies({ client, tenantId, tag, plan, journal, signal }, (route) =>
    runOperation(client, { kind, id: route.copyOf(id), tenantId }, inputs, signal),
  );
  // The copy's hash names no version anyone can find again: the run says it ran the unsaved edits instead.
  return { ...value, savedHash: undefined, trial };
}
