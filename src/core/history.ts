/**
 * Runs of the service's two operations, kept per resource across restarts
 * and bounded in size. Pure: the glue persists the data in extension storage.
 */
import { isJsonObject, type JsonObject } from './json';
import { LIMITS } from './limits';

/** The service's two operations, and a request sent from a definition file (section 2.9). */
export type Operation = 'test_prompt' | 'execute_action' | 'send_request';

export type RunOutcome =
  | { kind: 'ok'; response: JsonObject }
  /** The service answered, but the action reported a status other than success. */
  | { kind: 'failed-status'; response: JsonObject }
  | { kind: 'error'; message: string; status?: number }
  | { kind: 'cancelled' };

/** What the service answered in a run, if it answered. */
export function responseOf(outcome: RunOutcome): JsonObject | undefined {
  return outcome.kind === 'ok' || outcome.kind === 'failed-status' ? outcome.response : undefined;
}

/** Where a run stands in a conversation; absent on a first turn and on every run older than conversations. */
export interface ConversationLink {
  /** 2 for the run that continued a first run, and so on. */
  turn: number;
  /** The run this one continued: its resource is the prompt that answered the turn before. */
  previous: { resource: string; runId: string };
}

export interface RunRecord {
  id: string;
  /** The resource's `convai:` URI. */
  resource: string;
  resourceLabel: string;
  operation: Operation;
  startedAt: string;
  durationMs: number;
  inputs: JsonObject;
  outcome: RunOutcome;
  /** Which version ran: the saved resource, or (`trial`) the editors' unsaved edits through a trial copy. */
  version: { savedHash?: string; unsavedChanges: boolean; trial?: boolean };
  /** The turn this run is of a conversation continued in the results panel; absent on first turns and older records. */
  conversation?: ConversationLink;
}

export type HistoryData = Record<string, RunRecord[]>;

export interface HistoryLimits {
  runsPerResource: number;
  resources: number;
  /** Longest string kept in a stored response; longer ones are cut, saying so. */
  maxStringLength: number;
}

export const DEFAULT_LIMITS: HistoryLimits = {
  runsPerResource: LIMITS.runsPerResource.value,
  resources: LIMITS.historyResources.value,
  maxStringLength: LIMITS.historyStringLength.value,
};

function clipStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string')
    return value.length > max
      ? `${value.slice(0, max)}… [${value.length - max} more characters not kept in the history]`
      : value;
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, max));
  // Made as own properties, so that a key such as `__proto__` (a parameter typed in a form) stays data.
  if (isJsonObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipStrings(item, max)]));
  return value;
}

/** The history with `run` added first for its resource; the oldest runs and least recent resources drop out. */
export function addRun(history: HistoryData, run: RunRecord, limits: HistoryLimits = DEFAULT_LIMITS): HistoryData {
  const stored = clipStrings(run, limits.maxStringLength) as RunRecord;
  const runs = [stored, ...(history[run.resource] ?? []).filter((r) => r.id !== run.id)].slice(
    0,
    limits.runsPerResource,
  );
  const others = Object.entries(history).filter(([resource]) => resource !== run.resource);
  // Most recently run resources first; a resource's newest run is its first.
  others.sort(([, a], [, b]) => (b[0]?.startedAt ?? '').localeCompare(a[0]?.startedAt ?? ''));
  return Object.fromEntries([[run.resource, runs], ...others.slice(0, limits.resources - 1)]);
}

export function runsOf(history: HistoryData, resource: string): RunRecord[] {
  return history[resource] ?? [];
}

export function findRun(history: HistoryData, resource: string, id: string): RunRecord | undefined {
  return runsOf(history, resource).find((r) => r.id === id);
}
