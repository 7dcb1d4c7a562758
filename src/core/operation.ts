/**
 * The service's two operations (test_prompt on a prompt, execute_action on an integration) run one way for every
 * caller: the results panel, prompt test suites in VS Code and the command-line tool. So which saved version ran
 * and what counts as a failure are decided here once, and the callers cannot drift apart.
 */
import { createHash } from 'node:crypto';
import type { CallOptions, ServiceClient } from './client';
import { ServiceError } from './errors';
import type { TrialOutcome } from './trials/trial-report';
import type { RunOutcome } from './history';
import type { JsonObject } from './json';
import { formatDocument } from './json-document';
import type { KindId, ResourceKind } from './resource-kind';
import type { ServiceOperation } from './run-inputs';
import { messageOf } from './text';

/** The prompt or integration an operation runs on. */
export interface OperationTarget {
  kind: ResourceKind;
  id: number;
  tenantId: number;
}

/** What one run of an operation came to, and what a programmatic caller is rejected with. */
export interface OperationResult {
  outcome: RunOutcome;
  /** Which saved version ran; absent when the service could not be asked. */
  savedHash?: string;
  response?: JsonObject;
  error?: unknown;
  /** The run tested unsaved edits through a trial copy, deleted after (or not, as it says). */
  trial?: TrialOutcome;
}

const OPERATIONS: Partial<Record<KindId, ServiceOperation>> = { prompt: 'test_prompt', integration: 'execute_action' };

/** The operation the service offers on a kind; the other kinds have none. */
export function operationOf(kind: ResourceKind): ServiceOperation {
  const operation = OPERATIONS[kind.id];
  if (operation === undefined)
    throw new Error(
      `${kind.label} has no operation of the service to run: only prompts (test_prompt) and integrations (execute_action) have one.`,
    );
  return operation;
}

/** A short name of the saved version: the service runs what it holds, never the editor's text. */
export async function savedVersionHash(
  client: ServiceClient,
  target: OperationTarget,
  signal?: AbortSignal,
): Promise<string> {
  const saved = await client.get(target.kind, target.id, target.tenantId, { signal });
  return createHash('sha256').update(formatDocument(saved)).digest('hex').slice(0, 8);
}

/** An answer's outcome: an action whose status is not success failed, though the service answered. */
export function answeredOutcome(operation: ServiceOperation, response: JsonObject): RunOutcome {
  const failed = operation === 'execute_action' && response.status !== 'success';
  return { kind: failed ? 'failed-status' : 'ok', response };
}

/**
 * A failed request's outcome: a cancellation is no failure of the service, so it is told apart. The status is an
 * HTTP error's only: a success whose body could not be read is no HTTP error of that status.
 */
export function failedOutcome(error: unknown): RunOutcome {
  if (error instanceof ServiceError && error.kind === 'cancelled') return { kind: 'cancelled' };
  return {
    kind: 'error',
    message: messageOf(error),
    status: error instanceof ServiceError && error.kind === 'http' ? error.status : undefined,
  };
}

/** Sends the target's operation with the inputs as its body; rejects when the request fails. */
export async function sendOperation(
  client: ServiceClient,
  target: OperationTarget,
  inputs: JsonObject,
  call: CallOptions = {},
): Promise<JsonObject> {
  const { kind, id, tenantId } = target;
  // The inputs were checked where they were made (the form, a command's arguments, a suite's schema).
  const answer =
    operationOf(kind) === 'test_prompt'
      ? await client.testPrompt(kind, id, tenantId, inputs as { prompt_text: string }, call)
      : await client.executeAction(kind, id, tenantId, inputs as { action: string }, call);
  return answer as unknown as JsonObject;
}

/** One run end to end: the saved version's hash, then the operation, each way it can end as an outcome. */
export async function runOperation(
  client: ServiceClient,
  target: OperationTarget,
  inputs: JsonObject,
  signal?: AbortSignal,
): Promise<OperationResult> {
  let savedHash: string | undefined;
  try {
    savedHash = await savedVersionHash(client, target, signal);
    const response = await sendOperation(client, target, inputs, { signal });
    return { outcome: answeredOutcome(operationOf(target.kind), response), savedHash, response };
  } catch (error) {
    return { outcome: failedOutcome(error), savedHash, error };
  }
}
