import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { operationOf, savedVersionHash } from '../core/operation';
import type { JsonObject } from '../core/json';
import type { Tally } from '../core/prompt-tests/statistics';
import type { CaseResult, CaseRun, SuiteResult } from '../core/prompt-tests/types';
import type { TestCase } from '../core/prompt-tests/suite';
import { caseInputs, caseRunOutcome, type ResolvedTarget } from '../core/prompt-tests/target';
import { describeLocation, toResourceUriString, type WholeLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import { testConcurrency, unsavedEdits } from '../shared/settings';
import { readSuite, resolveSuite, suiteTenant } from '../shared/suite-target';
import type { TrialRoute } from '../core/trials/trial-run';
import type { TrialOutcome } from '../core/trials/trial-report';
import { trialEngine } from '../trials/load';
import { liveBaseline } from '../core/trials/trial-compare';
import { namesCreated, withCopies } from '../core/trials/trial-suites';
import { suiteEngine } from './suite-engine';
import type { Drafts } from '../documents/drafts';
import { hasUnsavedEdits } from '../documents/unsaved';
import type { HistoryStore } from '../shared/history-store';

export interface SuiteDeps {
  connections: Connections;
  history: HistoryStore;
  drafts: Drafts;
}

export interface SuiteRun {
  result: SuiteResult;
  target: ResolvedTarget;
  /** The connection the suite ran against. */
  connection: string;
  /** The `convai:` URI of the resource under test, and how people read its name. */
  resource: string;
  label: string;
  /** Which saved version ran: the service tests what it holds. */
  savedHash: string;
  /** The resource's document had unsaved changes, which did not run. */
  unsavedChanges: boolean;
  /** Which version ran: the service's, the editors' unsaved edits as a trial, or a pulled folder's as a trial. */
  version: 'saved' | 'unsaved' | 'trial';
  /** The trial's copies, when one ran. */
  trial?: TrialOutcome;
  /** A folder's trial compared with live: the live run of the same cases, as many times. */
  live?: SuiteResult;
}

/** Run as Trial of Folder: the pulled folder whose planned versions run, and whether live runs beside them. */
export interface FolderTrialRequest {
  folder: string;
  compare: boolean;
}

export interface SuiteRunOptions {
  signal?: AbortSignal;
  /** Once the target is known, before any case runs: the text results are placed in, and which version will run. */
  onReady?: (ready: { text: string; note: string; unsavedChanges: boolean; trial: boolean }) => void;
  only?: ReadonlySet<string>;
  onCaseStarted?: (testCase: TestCase) => void;
  onCaseFinished?: (testCase: TestCase, result: CaseResult) => void;
  /** Each case's tally in an earlier run: a case that dropped significantly against it fails as regressed. */
  baseline?: ReadonlyMap<string, Tally>;
  folderTrial?: FolderTrialRequest;
}

/** Runs a suite file's cases against its target, recording every run in the resource's run history. */
export async function runSuiteFile(deps: SuiteDeps, uri: vscode.Uri, options: SuiteRunOptions = {}): Promise<SuiteRun> {
  const { suite, text } = await readSuite(uri);
  const tenant = suiteTenant(deps.connections, uri, suite);
  const { connection, tenantId } = tenant;
  const client = deps.connections.client(connection);
  const ofFolder =
    options.folderTrial &&
    (await trialEngine().folderTrial(
      deps.connections,
      options.folderTrial.folder,
      tenant,
      { name: path.basename(uri.path), suite },
      options.signal,
    ));
  const target = await resolveSuite(client, { uri, text, suite }, tenant, options.signal, ofFolder?.created);
  const location: WholeLocation = {
    type: 'resource',
    connection,
    tenantId,
    segment: suite.resource.segment,
    id: target.id,
  };
  const resource = toResourceUriString(location);
  const label = describeLocation(location, target.name);
  // A prompt the folder creates has no saved version: until its copy exists, its id is a stand-in below zero.
  const savedHash = target.id < 0 ? '' : await savedVersionHash(client, target, options.signal);
  // The editors' unsaved prompt edits, as a trial's plan (convai.tests.unsavedEdits), else the saved versions run.
  // A folder's trial runs the folder's versions, whatever the editors hold.
  const trial =
    ofFolder?.plan ??
    (unsavedEdits() === 'trial'
      ? await trialEngine().unsavedPlan(client, deps.drafts, tenant, options.signal)
      : undefined);
  // The unsaved edits run, so none of them is left out of what ran.
  const unsavedChanges = !trial && hasUnsavedEdits(deps.drafts, resource);
  const note = ofFolder
    ? trialEngine().folderNote(options.folderTrial?.folder ?? '', ofFolder.plan)
    : trial
      ? trialEngine().trialNote(label, trial)
      : versionNote({ label, savedHash, unsavedChanges });
  options.onReady?.({ text, note, unsavedChanges, trial: trial !== undefined });
  const operation = operationOf(target.kind);
  const records: Array<Promise<void>> = [];
  /** One request in the resource's run history: a conversation's turns each in the history of the prompt that answered it. */
  const record = (
    id: number,
    name: string,
    inputs: JsonObject,
    run: Pick<CaseRun, 'output' | 'error' | 'durationMs'>,
    route: TrialRoute | undefined,
  ): void => {
    const at: WholeLocation = { ...location, id };
    const uri = toResourceUriString(at);
    records.push(
      deps.history.add({
        id: randomUUID(),
        resource: uri,
        resourceLabel: describeLocation(at, name),
        operation,
        startedAt: new Date(Date.now() - run.durationMs).toISOString(),
        durationMs: Math.round(run.durationMs),
        inputs,
        outcome: caseRunOutcome(operation, run),
        // A prompt run through its copy ran the editors' unsaved version, as Test Prompt records one.
        version:
          route && route.copyOf(id) !== id
            ? { unsavedChanges: false, trial: true }
            : id === target.id
              ? { savedHash, unsavedChanges }
              : { unsavedChanges: hasUnsavedEdits(deps.drafts, uri) },
      }),
    );
  };
  const run = (route?: TrialRoute, baseline = options.baseline): Promise<SuiteResult> =>
    suiteEngine().runSuiteAt(
      client,
      suite,
      route && ofFolder ? withCopies(target, ofFolder.created, route) : target,
      {
        concurrency: testConcurrency(),
        signal: options.signal,
        only: options.only,
        baseline,
        onCaseStarted: options.onCaseStarted,
        onCaseFinished: options.onCaseFinished,
        // A folder's version is no version of the live prompt: its runs stay out of the prompt's history.
        onRun:
          route && ofFolder
            ? undefined
            : (testCase, run) => {
                if (!run.turns) return record(target.id, target.name, caseInputs(operation, testCase), run, route);
                for (const turn of run.turns) record(turn.promptId, turn.promptName, turn.inputs, turn, route);
              },
      },
      route,
    );
  const base = { target, connection, resource, label, savedHash, unsavedChanges };
  if (!trial) {
    const result = await run();
    await Promise.all(records);
    return { ...base, result, version: 'saved' };
  }
  // Compared with live: the live half first, unless the suite names a prompt only the folder holds.
  const live =
    ofFolder && options.folderTrial?.compare && !namesCreated(suite, ofFolder.created) ? await run() : undefined;
  const done = await trialEngine().withCopies(deps.connections, tenant, trial, options.signal, (route) =>
    run(route, live ? liveBaseline(live) : options.baseline),
  );
  await Promise.all(records);
  return {
    ...base,
    result: done.value,
    version: ofFolder ? 'trial' : 'unsaved',
    trial: done.trial,
    ...(live ? { live } : {}),
  };
}

/** What a run says of the version that ran, for people reading the results. */
export function versionNote(run: Pick<SuiteRun, 'label' | 'savedHash' | 'unsavedChanges'>): string {
  return `Ran the saved version ${run.savedHash} of ${run.label}${run.unsavedChanges ? '; its editor has unsaved changes, which did not run' : ''}.`;
}
