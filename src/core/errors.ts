/**
 * One error type for every failed call to the service. It names the request
 * (method and path, never the token), carries the service's own reason and
 * the fix (a Remedy); the message says that fix in the shell's words (Advice).
 * A failed answer's status is mapped in http-errors.ts, a failure on the way in
 * network-errors.ts; the failures every request can meet are here.
 */
import { NEUTRAL_ADVICE, type Remedy } from './advice';
export type FailureKind = 'http' | 'network' | 'timeout' | 'cancelled' | 'response';

export interface RequestInfo {
  /** The connection's name, when the client has one: it leads every message. */
  readonly connection?: string;
  readonly method: string;
  /** Path and query below the origin, e.g. `/api/v1/ai_prompts/3?tenant_id=1`. */
  readonly path: string;
}

export interface ServiceErrorDetails extends RequestInfo {
  readonly kind: FailureKind;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly fieldErrors?: Readonly<Record<string, readonly string[]>>;
  readonly cause?: unknown;
  /** How many times a read was sent before this failure; absent for a single attempt. */
  readonly attempts?: number;
  /** What the user can do about it, for a shell that offers more than the message (a button, an exit code). */
  readonly remedy?: Remedy;
}

export class ServiceError extends Error {
  readonly kind: FailureKind;
  readonly status?: number;
  readonly method: string;
  readonly path: string;
  readonly connection?: string;
  readonly serviceMessage?: string;
  readonly fieldErrors?: Readonly<Record<string, readonly string[]>>;
  readonly attempts?: number;
  readonly remedy?: Remedy;

  constructor(details: ServiceErrorDetails, message: string) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ServiceError';
    this.kind = details.kind;
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.connection = details.connection;
    this.serviceMessage = details.serviceMessage;
    this.fieldErrors = details.fieldErrors;
    this.attempts = details.attempts;
    this.remedy = details.remedy;
  }
}

/** A phrase of the Advice at the start of a sentence. */
export function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** "local: PUT /api/v1/ai_prompts/3?tenant_id=1" */
export function describeRequest(info: RequestInfo): string {
  return `${info.connection ? `${info.connection}: ` : ''}${info.method} ${info.path}`;
}

/** Ends a message with a full stop, so that a further sentence can follow it. */
export function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** Text for any thrown value; String() itself throws for an object without a prototype. */
export function thrownText(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** A request that could not be sent because the network settings are wrong (a CA file, a proxy address). */
export function notSentError(info: RequestInfo, problem: unknown): ServiceError {
  return new ServiceError(
    { ...info, kind: 'network', cause: problem },
    `${describeRequest(info)} was not sent: ${sentence(thrownText(problem))}`,
  );
}

export function timeoutError(info: RequestInfo, timeoutMs: number, advice = NEUTRAL_ADVICE): ServiceError {
  return new ServiceError(
    { ...info, kind: 'timeout', remedy: 'timeout' },
    `${describeRequest(info)} timed out: no complete answer within ${Math.round(timeoutMs / 1000)} s. The service may be overloaded or unreachable; try again, or raise ${advice.timeout}.`,
  );
}

export function cancelledError(info: RequestInfo): ServiceError {
  return new ServiceError({ ...info, kind: 'cancelled' }, `${describeRequest(info)} was cancelled.`);
}

export function responseError(info: RequestInfo, status: number, problem: string): ServiceError {
  return new ServiceError(
    { ...info, kind: 'response', status },
    `${describeRequest(info)} answered ${status} with ${problem}.`,
  );
}

/** A request answered with a Retry-After longer than the client waits (`maxWaitMs`): it fails at once, saying so. */
export function waitTooLongError(
  failure: ServiceError,
  waitMs: number,
  maxWaitMs: number,
  attempts: number,
): ServiceError {
  return afterAttempts(
    failure,
    attempts,
    `The service asked to wait ${Math.ceil(waitMs / 1000)} s before trying again, longer than the ${Math.ceil(maxWaitMs / 1000)} s the client waits at most.`,
  );
}

/**
 * The final error of a read that was sent more than once: the last failure,
 * saying how many attempts were made, and a `note` when there is more to say.
 */
export function afterAttempts(failure: ServiceError, attempts: number, note?: string): ServiceError {
  if (attempts < 2 && note === undefined) return failure;
  const advice = /try again/i.test(failure.message) ? '' : ' Try again later.';
  const tried = attempts > 1 ? ` Gave up after ${attempts} attempts.${advice}` : '';
  const { kind, status, method, path, connection, serviceMessage, fieldErrors, remedy } = failure;
  return new ServiceError(
    { kind, status, method, path, connection, serviceMessage, fieldErrors, remedy, cause: failure.cause, attempts },
    `${sentence(failure.message)}${tried}${note ? ` ${note}` : ''}`,
  );
}
