/**
 * What a feature needs of the results panel's runner to run something of its
 * own there (a sent request): the runner lives in operations/, and another
 * feature sees it through this, never its folder.
 */
import type * as vscode from 'vscode';
import type { ConversationLink, Operation, RunRecord } from '../core/history';
import type { JsonObject } from '../core/json';
import type { OperationResult } from '../core/operation';

/** One run of anything the panel shows: its identity, inputs, and how to execute it. */
export interface Job {
  operation: Operation;
  resource: string;
  label: string;
  inputs: JsonObject;
  /** Started by a user: progress, cancellation and the panel; a programmatic run shows nothing. */
  interactive: boolean;
  /** The turn this run is of a conversation continued in the panel. */
  conversation?: ConversationLink;
  execute(signal: AbortSignal): Promise<OperationResult>;
}

export interface Runs {
  /** Runs the job and records it; resolves with the record, and a programmatic run rejects when the job fails. */
  runJob(job: Job): Promise<{ record: RunRecord; response?: JsonObject }>;
  /** How runs of an operation outside the service's two are run again from the panel. */
  setRerunner(operation: Operation, rerun: (run: RunRecord) => Promise<unknown>): vscode.Disposable;
}
