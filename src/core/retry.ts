/**
 * The retry loop of the client. A read (GET) that meets a dropped connection or a "not now" status is sent again
 * after a short wait, within the request's one deadline; a write or an operation is sent once, as a repeat could apply
 * it twice, except after a 429 with Retry-After: the service refused it before doing anything, so it is sent again
 * after that wait (bounded like a read's).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Advice } from './advice';
import {
  afterAttempts,
  cancelledError,
  notSentError,
  timeoutError,
  waitTooLongError,
  type ServiceError,
} from './errors';
import type { Dispatcher } from './http';
import { statusText } from './http-errors';
import { LIMITS } from './limits';
import { silentLogger, type Logger } from './logger';
import { isDroppedConnection, networkError, type ProxyRoute } from './network-errors';
import type { RequestBudget } from './request-budget';
import { retryAfterMs, statusError, type RawResponse } from './responses';
import { sendOnce, traceHeaders, type ServiceRequest } from './service-request';

/** Repeating reads (GET only) that failed on the way, not at the service. */
export interface RetryOptions {
  /** The wait before each retry; as many retries as entries. */
  readonly delaysMs?: readonly number[];
  /** The longest Retry-After honoured; a longer one fails at once. */
  readonly maxRetryAfterMs?: number;
  /** Waits, or rejects when the signal aborts; tests pass one that returns at once. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Enough for a restarting service or a stale keep-alive connection, short next to the deadline. */
const DEFAULT_DELAYS_MS: readonly number[] = [250, 1000];
const DEFAULT_MAX_RETRY_AFTER_MS = LIMITS.maxRetryAfter.value;
/** Statuses that say "not now" rather than "no": a read may ask again. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** How one request is sent: through which pool, within which deadline, for which caller. */
export interface Sending {
  readonly dispatcher: Dispatcher;
  readonly proxy?: ProxyRoute;
  readonly timeoutMs: number;
  /** When the deadline passes, in Date.now()'s terms: a wait that would end later is not begun. */
  readonly endsAt: number;
  readonly deadline: AbortSignal;
  /** The deadline joined with the caller's cancellation: what each attempt and wait listens to. */
  readonly signal: AbortSignal;
  /** The caller's own cancellation, told apart from the deadline in the error. */
  readonly cancel?: AbortSignal;
  /** Told of each wait before a retry. */
  readonly onWait?: (ms: number) => void;
}

export class RetryLoop {
  private readonly delaysMs: readonly number[];
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A silent log builds no messages: on a large pull the trace lines would cost time and tell no one. */
  private readonly tracing: boolean;

  constructor(
    options: RetryOptions | undefined,
    private readonly log: Logger,
    private readonly advice: Advice,
    private readonly budget: RequestBudget | undefined,
  ) {
    this.delaysMs = options?.delaysMs ?? DEFAULT_DELAYS_MS;
    this.maxRetryAfterMs = options?.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.sleep = options?.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.tracing = log !== silentLogger;
  }

  /** Sends the request until an answer is a success, which it resolves to, or until it may not be sent again. */
  async send(request: ServiceRequest, sending: Sending): Promise<RawResponse> {
    const { info, headers, token } = request;
    const { method } = info;
    const { timeoutMs, deadline, signal, cancel } = sending;
    const stopped = (): ServiceError | undefined =>
      deadline.aborted
        ? timeoutError(info, timeoutMs, this.advice)
        : cancel?.aborted
          ? cancelledError(info)
          : undefined;
    const isRead = method === 'GET';
    const retries = this.delaysMs.length;

    /** Waits before attempt `attempt + 1`, or ends with `failure` when the deadline leaves no room. */
    const pause = async (ms: number, reason: string, failure: ServiceError, attempt: number): Promise<void> => {
      if (Date.now() + ms >= sending.endsAt) {
        throw afterAttempts(
          failure,
          attempt,
          `No time was left within the ${Math.round(timeoutMs / 1000)} s deadline to try again.`,
        );
      }
      this.log.warn(
        `${method} ${info.path}: ${reason}; retrying in ${ms} ms (attempt ${attempt + 1} of ${retries + 1})`,
      );
      const waitStarted = Date.now();
      try {
        await this.sleep(ms, signal);
      } catch (error) {
        if (!stopped()) throw error;
      } finally {
        sending.onWait?.(Date.now() - waitStarted);
      }
      const halted = stopped();
      if (halted) throw halted.kind === 'cancelled' ? halted : afterAttempts(halted, attempt);
    };

    const budget = this.budget;
    for (let attempt = 1; ; attempt++) {
      // Counted here, where every attempt passes, so the count is what the service received.
      if (budget && !budget.take(method)) throw notSentError(info, budget.refusal());
      const started = Date.now();
      if (this.tracing)
        this.log.trace(`${method} ${info.path} ${traceHeaders(headers)}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      let response: RawResponse;
      try {
        response = await sendOnce(request, signal, sending.dispatcher);
      } catch (error) {
        const failure = stopped() ?? networkError(info, error, sending.proxy, this.advice);
        this.log.warn(`${method} ${info.path} → ${failure.kind}: ${failure.message} (${Date.now() - started} ms)`);
        if (failure.kind === 'cancelled') throw failure;
        if (failure.kind !== 'network' || !isRead || attempt > retries || !isDroppedConnection(error))
          throw afterAttempts(failure, attempt);
        await pause(this.delaysMs[attempt - 1] ?? 0, 'the connection closed before the answer', failure, attempt);
        continue;
      }
      if (this.tracing) {
        this.log.info(`${method} ${info.path} → ${response.status} (${Date.now() - started} ms)`);
        this.log.trace(
          `${method} ${info.path} ← ${response.status} ${response.contentType || 'no content-type'}, ${response.text.length} characters${response.retryAfter ? `, retry-after: ${response.retryAfter}` : ''}`,
        );
      }
      const failure = statusError(info, response, this.advice, token);
      if (!failure) return response;
      const asked = retryAfterMs(response.retryAfter, Date.now());
      const refusedUnhandled = response.status === 429 && asked !== undefined;
      if (attempt > retries || !(isRead ? RETRY_STATUSES.has(response.status) : refusedUnhandled))
        throw afterAttempts(failure, attempt);
      if (asked !== undefined && asked > this.maxRetryAfterMs)
        throw waitTooLongError(failure, asked, this.maxRetryAfterMs, attempt);
      if (budget && !budget.allows(method))
        throw afterAttempts(failure, attempt, `It was not sent again: ${budget.refusal()}.`);
      await pause(
        asked ?? this.delaysMs[attempt - 1] ?? 0,
        `the service answered ${response.status} ${statusText(response.status)}`,
        failure,
        attempt,
      );
    }
  }
}
