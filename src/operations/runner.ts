import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { plain, plainText } from '../core/plain-text';
import type { JsonObject } from '../core/json';
import { conversationTurns } from '../core/run-conversations';
import type { ConversationLink, Operation, RunRecord } from '../core/history';
import type { FormPlace, InputsForms } from '../core/inputs-form';
import { runOperation } from '../core/operation';
import { kindOfSegment } from '../core/resources';
import { draftOf, INPUT_FIELDS, type InputsDraft, type ServiceOperation } from '../core/run-inputs';
import { parseResourcePath, type FileLocation } from '../core/uri';
import { describeNamed } from '../listings/names';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import type { Drafts } from '../documents/drafts';
import { hasUnsavedEdits } from '../documents/unsaved';
import { unsavedEdits } from '../shared/settings';
import { trialEngine } from '../trials/load';
import type { HistoryStore } from '../shared/history-store';
import type { Job, Runs } from '../shared/runs';
import { walkthroughStepDone } from '../shared/walkthrough';
import type { PanelModel, ResultsPanel } from './panel';

export type ResourceLocation = Extract<FileLocation, { type: 'resource' }>;

export interface RunRequest {
  operation: ServiceOperation;
  uri: vscode.Uri;
  location: ResourceLocation;
  inputs: JsonObject;
  /** Started by a user: progress, cancellation and the panel; a programmatic run shows nothing. */
  interactive: boolean;
  conversation?: ConversationLink;
}

const TITLES: Readonly<Record<Operation, string>> = {
  test_prompt: 'Testing',
  execute_action: 'Executing an action of',
  send_request: 'Sending',
};

/** A user's run the panel shows while it runs. */
type Running = NonNullable<PanelModel['running']> & { resource: string };

/**
 * Runs jobs (test_prompt, execute_action, a sent request), records every run with its inputs,
 * outputs, the saved version that ran, time and duration, and shows it.
 */
export class Runner implements Runs {
  private current: AbortController | undefined;
  private running: Running | undefined;
  /** The resource whose runs the panel shows. */
  shownResource: string | undefined;

  constructor(
    private readonly connections: Connections,
    private readonly history: HistoryStore,
    private readonly panel: ResultsPanel,
    private readonly log: Log,
    private readonly listings: ListingCache,
    private readonly forms: InputsForms,
    private readonly drafts: Drafts,
  ) {}

  private readonly rerunners = new Map<Operation, (run: RunRecord) => Promise<unknown>>();

  /** How runs of an operation outside the service's two are run again from the panel. */
  setRerunner(operation: Operation, rerun: (run: RunRecord) => Promise<unknown>): vscode.Disposable {
    this.rerunners.set(operation, rerun);
    return new vscode.Disposable(() => this.rerunners.delete(operation));
  }

  /** Runs a recorded run again as a user's run, with its own inputs or edited ones (a sent request: its own). */
  async rerun(run: RunRecord, inputs: JsonObject = run.inputs): Promise<void> {
    const custom = this.rerunners.get(run.operation);
    if (custom) {
      await custom(run);
      return;
    }
    const uri = vscode.Uri.parse(run.resource);
    const location = parseResourcePath(uri.authority, uri.path);
    if (location?.type !== 'resource' || run.operation === 'send_request') return;
    await this.run({ operation: run.operation, uri, location, inputs, interactive: true });
  }

  /**
   * Asks a new run's inputs in the panel's form, which takes the focus; remembers the text for the next time.
   * Undefined when the form was closed (Cancel, Escape, the panel closed, another form or resource shown).
   */
  /** `continues`: the turns so far of the conversation the run carries on, shown above the form. */
  async askInputs(
    place: FormPlace,
    operation: ServiceOperation,
    draft: InputsDraft,
    continues?: readonly RunRecord[],
  ): Promise<JsonObject | undefined> {
    const field = INPUT_FIELDS[operation].text;
    const answer = this.forms.ask(place, {
      operation,
      draft,
      suggestions: this.history.recent(field),
      ...(continues ? { continues } : {}),
    });
    this.show(place.resource, place.label, undefined, true);
    const inputs = await answer;
    const text = inputs?.[field];
    if (typeof text === 'string') await this.history.remember(field, text);
    return inputs;
  }

  /** Edit and Run: a recorded run's inputs in the form, run once answered. */
  async edit(run: RunRecord): Promise<void> {
    if (run.operation === 'send_request') return;
    const inputs = await this.askInputs(
      { resource: run.resource, label: run.resourceLabel },
      run.operation,
      draftOf(run.operation, run.inputs),
    );
    if (inputs) await this.rerun(run, inputs);
  }

  cancel(): void {
    this.current?.abort();
  }

  /** An action may change things: a read-only connection executes none (checked before its inputs are asked too). */
  refuseReadOnly(operation: ServiceOperation, location: ResourceLocation): void {
    const connection = this.connections.require(location.connection);
    if (operation === 'execute_action' && connection.readOnly) {
      throw new Error(
        `Not executed: the connection "${connection.name}" is read-only (readOnly in convai.connections), and an action may change things.`,
      );
    }
  }

  /** Runs test_prompt or execute_action on a resource of the service. */
  async run(request: RunRequest): Promise<{ record: RunRecord; response?: JsonObject }> {
    const { location, operation } = request;
    this.refuseReadOnly(operation, location);
    return this.runJob({
      operation,
      resource: request.uri.toString(),
      label: await describeNamed(this.listings, location),
      inputs: request.inputs,
      interactive: request.interactive,
      conversation: request.conversation,
      execute: async (signal) =>
        (operation === 'test_prompt' &&
          unsavedEdits() === 'trial' &&
          (await trialEngine().testPromptTrial(this.connections, this.drafts, location, request.inputs, signal))) ||
        runOperation(
          this.connections.client(location.connection),
          { kind: kindOfSegment(location.segment), id: location.id, tenantId: location.tenantId },
          request.inputs,
          signal,
        ),
    });
  }

  /** Resolves with the record; a programmatic run rejects when the job fails. */
  async runJob(job: Job): Promise<{ record: RunRecord; response?: JsonObject }> {
    const { resource, label, operation } = job;
    const unsavedChanges = hasUnsavedEdits(this.drafts, resource);
    const controller = new AbortController();
    this.current?.abort();
    this.current = controller;
    const startedAt = new Date();
    const running: Running = { resource, operation, startedAt: startedAt.toISOString(), inputs: job.inputs };
    if (job.interactive) {
      this.running = running;
      this.show(resource, label);
    }
    const result = job.interactive
      ? // In the status bar: the panel shows the run and its Cancel button, so a notification would only repeat them.
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: plain`${TITLES[operation]} ${label}…` },
          () => job.execute(controller.signal),
        )
      : await job.execute(controller.signal);
    if (this.current === controller) this.current = undefined;
    if (this.running === running) this.running = undefined;
    const record: RunRecord = {
      id: randomUUID(),
      resource,
      resourceLabel: label,
      operation,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      inputs: job.inputs,
      outcome: result.outcome,
      version: result.trial ? { unsavedChanges: false, trial: true } : { savedHash: result.savedHash, unsavedChanges },
      ...(job.conversation ? { conversation: job.conversation } : {}),
    };
    await this.history.add(record);
    const left = result.trial?.left;
    if (left) void vscode.window.showErrorMessage(plainText(trialEngine().leftText(left, result.trial?.tenantId ?? 0)));
    // However it started: the CodeLens, the tree, the palette, the results panel.
    if (operation === 'test_prompt') walkthroughStepDone('testPrompt');
    this.log.for('operations').info(`${operation} on ${label}: ${result.outcome.kind} in ${record.durationMs} ms.`);
    if (job.interactive) this.show(resource, label, record.id);
    else if (result.error !== undefined) throw result.error;
    return { record, response: result.response };
  }

  /** Shows a resource's runs in the panel, one of them in full; a form of another resource's closes. */
  show(resource: string, resourceLabel: string, selectedId?: string, takeFocus = false): void {
    if (this.forms.place && this.forms.place.resource !== resource) this.forms.close();
    const runs = this.history.runs(resource);
    this.shownResource = resource;
    this.panel.show(
      this.model(resource, resourceLabel, runs, runs.find((r) => r.id === selectedId) ?? runs[0]),
      !takeFocus,
    );
    const prompts = this.promptListing(resource);
    // Names come from the shared listing; once it has loaded, show them (if this resource is still the one shown).
    if (prompts && !this.listings.peek(prompts)) {
      void this.listings.get(prompts).then((outcome) => {
        if (outcome.ok && this.shownResource === resource) this.show(resource, resourceLabel, selectedId);
      });
    }
  }

  /** The listing that names the prompts a resource's runs lead to (only prompts lead anywhere). */
  private promptListing(resource: string): { connection: string; tenantId: number; segment: 'ai_prompts' } | undefined {
    const uri = vscode.Uri.parse(resource);
    const location = parseResourcePath(uri.authority, uri.path);
    return location?.type === 'resource' && location.segment === 'ai_prompts'
      ? { connection: location.connection, tenantId: location.tenantId, segment: 'ai_prompts' }
      : undefined;
  }

  private model(
    resource: string,
    resourceLabel: string,
    runs: RunRecord[],
    selected: RunRecord | undefined,
  ): PanelModel {
    const prompts = this.promptListing(resource);
    const listed = prompts && this.listings.peek(prompts);
    const promptNames =
      listed &&
      Object.fromEntries(
        listed.flatMap((p) => (typeof p.id === 'number' && typeof p.name === 'string' ? [[p.id, p.name]] : [])),
      );
    const running = this.running?.resource === resource ? this.running : undefined;
    const find = (turnResource: string, runId: string): RunRecord | undefined => this.history.find(turnResource, runId);
    return {
      resource,
      resourceLabel,
      runs,
      selected,
      running: running && { operation: running.operation, startedAt: running.startedAt, inputs: running.inputs },
      promptNames,
      conversation: selected?.conversation && conversationTurns(selected, find),
      form: this.forms.formFor(resource),
    };
  }
}
