import { createHash, randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { JsonObject } from '../core/json';
import type { RunOutcome } from '../core/history';
import { formatDocument } from '../core/json-document';
import { runSuite, type CaseResult, type CaseRun, type SuiteResult } from '../core/prompt-tests/run';
import { parseSuite, type Suite, type TestCase } from '../core/prompt-tests/suite';
import { executorFor, resolveTarget, type ResolvedTarget } from '../core/prompt-tests/target';
import { lineColumnText } from '../core/text';
import { describeLocation, toResourceUriString, type WholeLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import { testConcurrency, testTarget } from '../connections/settings';
import type { Drafts } from '../documents/drafts';
import { hasUnsavedEdits } from '../documents/unsaved';
import type { HistoryStore } from '../operations/history-store';

export interface SuiteDeps {
  connections: Connections;
  history: HistoryStore;
  drafts: Drafts;
}

export class SuiteError extends Error {}

/** A suite's text as the user sees it (an open document, perhaps unsaved), else as it is on disk. */
export async function suiteText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
}

export async function readSuite(uri: vscode.Uri): Promise<Suite> {
  const text = await suiteText(uri);
  const { suite, problems } = parseSuite(text);
  if (suite) return suite;
  const name = vscode.workspace.asRelativePath(uri);
  throw new SuiteError(`${name} cannot run: ${problems.map((p) => `${lineColumnText(text, p.range.offset)} ${p.message}`).join('; ')}.`);
}

export interface SuiteRun {
  result: SuiteResult;
  target: ResolvedTarget;
  /** The `convai:` URI of the resource under test, and how people read its name. */
  resource: string;
  label: string;
  /** Which saved version ran: the service tests what it holds. */
  savedHash: string;
  /** The resource's document had unsaved changes, which did not run. */
  unsavedChanges: boolean;
}

export interface SuiteRunOptions {
  signal?: AbortSignal;
  /** Once the target is known, before any case runs: which version will run. */
  onVersion?: (note: string) => void;
  only?: ReadonlySet<string>;
  onCaseStarted?: (testCase: TestCase) => void;
  onCaseFinished?: (testCase: TestCase, result: CaseResult) => void;
}

function outcomeOf(target: ResolvedTarget, run: CaseRun): RunOutcome {
  if (run.error !== undefined || !run.output) return { kind: 'error', message: run.error ?? 'no answer' };
  const failedStatus = target.kind.id === 'integration' && run.output.status !== 'success';
  return { kind: failedStatus ? 'failed-status' : 'ok', response: run.output };
}

function inputsOf(testCase: TestCase): JsonObject {
  const inputs: JsonObject = {};
  if (testCase.prompt_text !== undefined) inputs.prompt_text = testCase.prompt_text;
  if (testCase.prompt_params) inputs.prompt_params = testCase.prompt_params;
  if (testCase.action !== undefined) inputs.action = testCase.action;
  if (testCase.params) inputs.params = testCase.params;
  return inputs;
}

/** Runs a suite file's cases against its target, recording every run in the resource's run history. */
export async function runSuiteFile(deps: SuiteDeps, uri: vscode.Uri, options: SuiteRunOptions = {}): Promise<SuiteRun> {
  const suite = await readSuite(uri);
  const setting = testTarget();
  const connection = suite.target?.connection ?? setting.connection;
  const tenantId = suite.target?.tenantId ?? setting.tenantId;
  const file = path.basename(uri.path);
  if (connection === undefined || tenantId === undefined) {
    throw new SuiteError(`${file} names no ${connection === undefined ? 'connection' : 'tenant'} to run against: give the suite a "target" ({ "connection", "tenantId" }) or set convai.testTarget.`);
  }
  if (!deps.connections.get(connection)) throw new SuiteError(`${file} runs against the connection "${connection}", which does not exist: add it with "ConvAI: Add Connection" or change the suite's target.`);
  const client = deps.connections.client(connection);
  const target = await resolveTarget(client, suite, tenantId, `connection "${connection}"`, options.signal);
  const location: WholeLocation = { type: 'resource', connection, tenantId, segment: suite.resource.segment, id: target.id };
  const resource = toResourceUriString(location);
  const label = describeLocation(location, target.name);
  const saved = await client.get(target.kind, target.id, tenantId, { signal: options.signal });
  const savedHash = createHash('sha256').update(formatDocument(saved)).digest('hex').slice(0, 8);
  const unsavedChanges = hasUnsavedEdits(deps.drafts, resource);
  options.onVersion?.(versionNote({ label, savedHash, unsavedChanges }));
  const records: Array<Promise<void>> = [];
  const result = await runSuite(suite, executorFor(client, target), {
    concurrency: testConcurrency(),
    signal: options.signal,
    only: options.only,
    onCaseStarted: options.onCaseStarted,
    onCaseFinished: options.onCaseFinished,
    onRun: (testCase, run) => {
      records.push(deps.history.add({
        id: randomUUID(), resource, resourceLabel: label, operation: target.kind.id === 'prompt' ? 'test_prompt' : 'execute_action',
        startedAt: new Date(Date.now() - run.durationMs).toISOString(), durationMs: Math.round(run.durationMs), inputs: inputsOf(testCase),
        outcome: outcomeOf(target, run), version: { savedHash, unsavedChanges },
      }));
    },
  });
  await Promise.all(records);
  return { result, target, resource, label, savedHash, unsavedChanges };
}

/** What a run says of the version that ran, for people reading the results. */
export function versionNote(run: Pick<SuiteRun, 'label' | 'savedHash' | 'unsavedChanges'>): string {
  return `Ran the saved version ${run.savedHash} of ${run.label}${run.unsavedChanges ? '; its editor has unsaved changes, which did not run' : ''}.`;
}
