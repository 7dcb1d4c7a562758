import { createHash, randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { JsonObject } from '../core/client';
import { ServiceError } from '../core/errors';
import type { Operation, RunOutcome, RunRecord } from '../core/history';
import { formatDocument } from '../core/json-document';
import { kindBySegment, type ResourceKind } from '../core/resources';
import { parseResourcePath, type FileLocation } from '../core/uri';
import { describeNamed } from '../listings/names';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Log } from '../log';
import type { Drafts } from '../documents/drafts';
import { hasUnsavedEdits } from '../documents/unsaved';
import type { HistoryStore } from './history-store';
import type { PanelModel, ResultsPanel } from './panel';

export type ResourceLocation = Extract<FileLocation, { type: 'resource' }>;

export type ServiceOperation = Exclude<Operation, 'send_request'>;

export interface RunRequest {
  operation: ServiceOperation;
  uri: vscode.Uri;
  location: ResourceLocation;
  inputs: JsonObject;
  /** Started by a user: progress, cancellation and the panel; a programmatic run shows nothing. */
  interactive: boolean;
}

export interface JobResult {
  outcome: RunOutcome;
  savedHash?: string;
  response?: JsonObject;
  /** What a programmatic caller is rejected with. */
  error?: unknown;
}

/** One run of anything the panel shows: its identity, inputs, and how to execute it. */
export interface Job {
  operation: Operation;
  resource: string;
  label: string;
  inputs: JsonObject;
  interactive: boolean;
  execute(signal: AbortSignal): Promise<JobResult>;
}

const TITLES: Readonly<Record<Operation, string>> = { test_prompt: 'Testing', execute_action: 'Executing an action of', send_request: 'Sending' };

/**
 * Runs jobs (test_prompt, execute_action, a sent request), records every run with its inputs,
 * outputs, the saved version that ran, time and duration, and shows it.
 */
export class Runner {
  private current: AbortController | undefined;
  /** The resource whose runs the panel shows. */
  shownResource: string | undefined;

  constructor(
    private readonly connections: Connections,
    private readonly history: HistoryStore,
    private readonly panel: ResultsPanel,
    private readonly log: Log,
    private readonly listings: ListingCache,
    private readonly drafts: Drafts,
  ) {}

  private readonly rerunners = new Map<Operation, (run: RunRecord) => Promise<unknown>>();

  /** How runs of an operation outside the service's two are run again from the panel. */
  setRerunner(operation: Operation, rerun: (run: RunRecord) => Promise<unknown>): vscode.Disposable {
    this.rerunners.set(operation, rerun);
    return new vscode.Disposable(() => this.rerunners.delete(operation));
  }

  /** Runs a recorded run again with the same inputs, as a user's run. */
  async rerun(run: RunRecord): Promise<void> {
    const custom = this.rerunners.get(run.operation);
    if (custom) {
      await custom(run);
      return;
    }
    const uri = vscode.Uri.parse(run.resource);
    const location = parseResourcePath(uri.authority, uri.path);
    if (location?.type !== 'resource' || run.operation === 'send_request') return;
    await this.run({ operation: run.operation, uri, location, inputs: run.inputs, interactive: true });
  }

  cancel(): void {
    this.current?.abort();
  }

  /** Runs test_prompt or execute_action on a resource of the service. */
  async run(request: RunRequest): Promise<{ record: RunRecord; response?: JsonObject }> {
    const { location, operation } = request;
    const connection = this.connections.require(location.connection);
    if (operation === 'execute_action' && connection.readOnly) {
      throw new Error(`Not executed: the connection "${connection.name}" is read-only (readOnly in convai.connections), and an action may change things.`);
    }
    return this.runJob({
      operation,
      resource: request.uri.toString(),
      label: await describeNamed(this.listings, location),
      inputs: request.inputs,
      interactive: request.interactive,
      execute: (signal) => this.execute(request, signal),
    });
  }

  /** Resolves with the record; a programmatic run rejects when the job fails. */
  async runJob(job: Job): Promise<{ record: RunRecord; response?: JsonObject }> {
    const { resource, label, operation } = job;
    const unsavedChanges = hasUnsavedEdits(this.drafts, resource) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === resource && d.isDirty);
    const controller = new AbortController();
    this.current?.abort();
    this.current = controller;
    const startedAt = new Date();
    if (job.interactive) {
      this.shownResource = resource;
      const runs = this.history.runs(resource);
      this.panel.show(this.model(resource, label, { runs, selected: runs[0], running: { operation, startedAt: startedAt.toISOString() } }));
    }
    const result = job.interactive
      ? await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `${TITLES[operation]} ${label}…`, cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return job.execute(controller.signal);
        },
      )
      : await job.execute(controller.signal);
    if (this.current === controller) this.current = undefined;
    const record: RunRecord = {
      id: randomUUID(),
      resource,
      resourceLabel: label,
      operation,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      inputs: job.inputs,
      outcome: result.outcome,
      version: { savedHash: result.savedHash, unsavedChanges },
    };
    await this.history.add(record);
    this.log.for('operations').info(`${operation} on ${label}: ${result.outcome.kind} in ${record.durationMs} ms.`);
    if (job.interactive) this.show(resource, label, record.id);
    else if (result.error !== undefined) throw result.error;
    return { record, response: result.response };
  }

  /** Shows a resource's runs in the panel, one of them in full. */
  show(resource: string, resourceLabel: string, selectedId?: string): void {
    const runs = this.history.runs(resource);
    this.shownResource = resource;
    this.panel.show(this.model(resource, resourceLabel, { runs, selected: runs.find((r) => r.id === selectedId) ?? runs[0] }));
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

  private model(resource: string, resourceLabel: string, shown: Pick<PanelModel, 'runs' | 'selected' | 'running'>): PanelModel {
    const prompts = this.promptListing(resource);
    const listed = prompts && this.listings.peek(prompts);
    const promptNames = listed && Object.fromEntries(listed.flatMap((p) => (typeof p.id === 'number' && typeof p.name === 'string' ? [[p.id, p.name]] : [])));
    return { resource, resourceLabel, ...shown, promptNames };
  }

  private async execute(request: RunRequest, signal: AbortSignal): Promise<JobResult> {
    const { location } = request;
    const kind = kindBySegment(location.segment) as ResourceKind;
    const client = this.connections.client(location.connection);
    let savedHash: string | undefined;
    try {
      // The service runs what it holds: record which version that was.
      const saved = await client.get(kind, location.id, location.tenantId, { signal });
      savedHash = createHash('sha256').update(formatDocument(saved)).digest('hex').slice(0, 8);
      const response: JsonObject = request.operation === 'test_prompt'
        ? ((await client.testPrompt(kind, location.id, location.tenantId, request.inputs as { prompt_text: string }, { signal })) as unknown as JsonObject)
        : ((await client.executeAction(kind, location.id, location.tenantId, request.inputs as { action: string }, { signal })) as unknown as JsonObject);
      const failed = request.operation === 'execute_action' && response.status !== 'success';
      return { outcome: { kind: failed ? 'failed-status' : 'ok', response }, savedHash, response };
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'cancelled') return { outcome: { kind: 'cancelled' }, savedHash, error };
      const message = error instanceof Error ? error.message : String(error);
      return { outcome: { kind: 'error', message, status: error instanceof ServiceError ? error.status : undefined }, savedHash, error };
    }
  }
}
