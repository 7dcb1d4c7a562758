import { setTimeout as delay } from 'node:timers/promises';
import { Deadlines } from './deadlines';
import { LIMITS } from './limits';
import { http, type Dispatcher } from './http';
import { NEUTRAL_ADVICE, type Advice } from './advice';
import { parseBaseUrl } from './base-url';
import { interpretResponse, retryAfterMs, statusError, type RawResponse } from './responses';
import {
  afterAttempts,
  cancelledError,
  capitalized,
  describeRequest,
  notSentError,
  responseError,
  ServiceError,
  timeoutError,
  waitTooLongError,
  type RequestInfo,
} from './errors';
import { statusText } from './http-errors';
import { isDroppedConnection, networkError, type ProxyRoute } from './network-errors';
import { silentLogger, type Logger } from './logger';
import { createDispatcher, proxyRoute, type NetworkSettings } from './network';
import type { ResourceKind } from './resources';
import type { JsonObject } from './json';
import type { RequestBudget } from './request-budget';

export interface ClientOptions {
  /** The connection's name, put at the start of every error message. */
  readonly name?: string;
  /** The service's `{base_url}`; `/api/v1` is appended. */
  readonly baseUrl: string;
  /** Asked before each request, so a changed token applies at once. */
  readonly token: () => string | undefined | Promise<string | undefined>;
  readonly timeoutMs?: number;
  /**
   * Proxy and extra-CA settings, asked when the first request needs the
   * connection pool: a bad CA file then fails that request with its reason
   * instead of the constructor. Straight, with Node's roots, when absent.
   */
  readonly network?: () => NetworkSettings;
  readonly retry?: RetryOptions;
  readonly log?: Logger;
  /** How errors tell this shell's users to fix things (a setting, an environment variable); shell-neutral when absent. */
  readonly advice?: Advice;
  /** Counts every request sent, retries included, and holds those that run a test or write to a run's bound. */
  readonly budget?: RequestBudget;
}

/** Repeating reads (GET only) that failed on the way, not at the service. */
export interface RetryOptions {
  /** The wait before each retry; as many retries as entries. */
  readonly delaysMs?: readonly number[];
  /** The longest Retry-After honoured; a longer one fails at once. */
  readonly maxRetryAfterMs?: number;
  /** Waits, or rejects when the signal aborts; tests pass one that returns at once. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Told of each wait before a retry, so a caller timing the service (a test's maxMs) can leave the wait out. */
  readonly onWait?: (ms: number) => void;
}

export interface TestPromptBody {
  prompt_text: string;
  prompt_params?: JsonObject;
}

export interface TestPromptResult {
  response: string;
  altered_prompt: string;
  next_prompt_id: number | null;
  next_prompt_params: JsonObject;
}

export interface ExecuteActionBody {
  action: string;
  params?: JsonObject;
}

export interface ExecuteActionResult {
  result: string;
  status: string;
}

export const DEFAULT_TIMEOUT_MS = LIMITS.requestTimeout.value * 1000;
/** Enough for a restarting service or a stale keep-alive connection, short next to the deadline. */
const DEFAULT_DELAYS_MS: readonly number[] = [250, 1000];
const DEFAULT_MAX_RETRY_AFTER_MS = LIMITS.maxRetryAfter.value;
/** Statuses that say "not now" rather than "no": a read may ask again. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

interface Pool {
  readonly dispatcher: Dispatcher;
  readonly proxy?: ProxyRoute;
}

interface Exchange {
  readonly info: RequestInfo;
  readonly response: RawResponse;
}

export class ServiceClient {
  private readonly origin: URL;
  private pool?: Pool;
  private readonly log: Logger;
  private readonly delaysMs: readonly number[];
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly advice: Advice;
  private readonly deadlines = new Deadlines();
  /** The path of the API below the base URL: `/api/v1`, behind the base URL's own path. */
  private readonly apiPath: string;
  /** A silent log builds no messages: the trace lines cost a pull of a thousand resources more than they tell no one. */
  private readonly tracing: boolean;

  constructor(private readonly options: ClientOptions) {
    this.advice = options.advice ?? NEUTRAL_ADVICE;
    this.origin = parseBaseUrl(options.baseUrl, this.advice);
    this.apiPath = `${this.origin.pathname.replace(/\/$/, '')}/api/v1`;
    this.log = options.log ?? silentLogger;
    this.tracing = this.log !== silentLogger;
    this.delaysMs = options.retry?.delaysMs ?? DEFAULT_DELAYS_MS;
    this.maxRetryAfterMs = options.retry?.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.sleep = options.retry?.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
  }

  async list(kind: ResourceKind, tenantId?: number, call?: CallOptions): Promise<JsonObject[]> {
    const { info, response } = await this.exchange('GET', collectionPath(kind), kind, tenantId, undefined, call);
    return interpretResponse(info, response, 'array', this.advice);
  }

  get(kind: ResourceKind, id: number, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    return this.object('GET', memberPath(kind, id), kind, tenantId, undefined, call);
  }

  create(kind: ResourceKind, fields: JsonObject, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    return this.object('POST', collectionPath(kind), kind, tenantId, { [kind.wrapperKey]: fields }, call);
  }

  update(kind: ResourceKind, id: number, fields: JsonObject, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    return this.object('PUT', memberPath(kind, id), kind, tenantId, { [kind.wrapperKey]: fields }, call);
  }

  /** Resolves to the service's delete status text. */
  async delete(kind: ResourceKind, id: number, tenantId?: number, call?: CallOptions): Promise<string> {
    const path = memberPath(kind, id);
    const body = await this.object('DELETE', path, kind, tenantId, undefined, call);
    if (typeof body.status !== 'string') {
      throw responseError(this.requestInfo('DELETE', path, kind, tenantId), 200, 'no "status" text');
    }
    return body.status;
  }

  async testPrompt(kind: ResourceKind, id: number, tenantId: number | undefined, body: TestPromptBody, call?: CallOptions): Promise<TestPromptResult> {
    const result = await this.object('POST', `${memberPath(kind, id)}/test_prompt`, kind, tenantId, body as unknown as JsonObject, call);
    return result as unknown as TestPromptResult;
  }

  async executeAction(kind: ResourceKind, id: number, tenantId: number | undefined, body: ExecuteActionBody, call?: CallOptions): Promise<ExecuteActionResult> {
    const result = await this.object('POST', `${memberPath(kind, id)}/execute_action`, kind, tenantId, body as unknown as JsonObject, call);
    return result as unknown as ExecuteActionResult;
  }

  /** Closes the connection pool once its requests are done. */
  async close(): Promise<void> {
    await this.pool?.dispatcher.close();
  }

  private async object(
    method: string, path: string, kind: ResourceKind, tenantId: number | undefined, body: JsonObject | undefined, call?: CallOptions,
  ): Promise<JsonObject> {
    const { info, response } = await this.exchange(method, path, kind, tenantId, body, call);
    return interpretResponse(info, response, 'object', this.advice);
  }

  private requestInfo(method: string, path: string, kind: ResourceKind, tenantId: number | undefined): RequestInfo {
    return { connection: this.options.name, method, path: this.pathWithQuery(path, kind, tenantId) };
  }

  private pathWithQuery(path: string, kind: ResourceKind, tenantId: number | undefined): string {
    const base = `${this.apiPath}${path}`;
    return kind.tenantQuery !== 'none' && tenantId !== undefined ? `${base}?tenant_id=${tenantId}` : base;
  }

  /** The pool, built on first use from the network settings; a bad setting fails the request unsent. */
  private poolFor(info: RequestInfo): Pool {
    if (!this.pool) {
      try {
        const settings = this.options.network?.() ?? { noProxy: [], proxyStrictSSL: true };
        const proxy = proxyRoute(settings, this.origin);
        this.pool = { dispatcher: createDispatcher(settings, this.origin), proxy: proxy && { url: proxy.url, source: proxy.source } };
        const cas = settings.ca?.length ? `, trusting ${settings.ca.length} extra CA file(s)` : '';
        this.log.debug(`${proxy ? `requests go through the proxy ${proxy.url} (${proxy.source})` : 'requests go straight to the service'}${cas}`);
      } catch (error) {
        throw notSentError(info, error);
      }
    }
    return this.pool;
  }

  /**
   * Sends one request within one deadline (body included) and the caller's
   * cancellation. A read (GET) that meets a dropped connection or a "not now"
   * status is sent again after a short wait, within that same deadline; a
   * write or an operation is sent once, as a repeat could apply it twice,
   * except after a 429 with Retry-After: the service refused it before doing
   * anything, so it is sent again after that wait (bounded like a read's).
   * Resolves to the final answer when it is a success.
   */
  private async exchange(
    method: string, path: string, kind: ResourceKind, tenantId: number | undefined, body: JsonObject | undefined, call: CallOptions = {},
  ): Promise<Exchange> {
    if (kind.tenantQuery === 'required' && tenantId === undefined) {
      throw new ServiceError(
        { kind: 'response', connection: this.options.name, method, path },
        `${kind.pluralLabel} need a tenant: pass tenantId.`,
      );
    }
    const info = this.requestInfo(method, path, kind, tenantId);
    // A token at hand is not awaited: a pull sends a thousand requests, and each wait is a turn of the event loop.
    const held = this.options.token();
    const token = typeof held === 'string' || held === undefined ? held : await held;
    if (!token) {
      throw new ServiceError(
        { ...info, kind: 'http', status: 401, remedy: 'token' },
        `${describeRequest(info)} was not sent: no token is set for this connection. ${capitalized(this.advice.token)}.`,
      );
    }
    const pool = this.poolFor(info);
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const endsAt = Date.now() + timeoutMs;
    const { deadline, signal } = this.deadlines.forCall(call.signal, timeoutMs);
    const stopped = (): ServiceError | undefined =>
      deadline.aborted ? timeoutError(info, timeoutMs, this.advice) : call.signal?.aborted ? cancelledError(info) : undefined;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const url = new URL(info.path, this.origin);
    const isRead = method === 'GET';
    const retries = this.delaysMs.length;

    /** Waits before attempt `attempt + 1`, or ends with `failure` when the deadline leaves no room. */
    const pause = async (ms: number, reason: string, failure: ServiceError, attempt: number): Promise<void> => {
      if (Date.now() + ms >= endsAt) {
        throw afterAttempts(failure, attempt, `No time was left within the ${Math.round(timeoutMs / 1000)} s deadline to try again.`);
      }
      this.log.warn(`${method} ${info.path}: ${reason}; retrying in ${ms} ms (attempt ${attempt + 1} of ${retries + 1})`);
      const waitStarted = Date.now();
      try {
        await this.sleep(ms, signal);
      } catch (error) {
        if (!stopped()) throw error;
      } finally {
        call.onWait?.(Date.now() - waitStarted);
      }
      const halted = stopped();
      if (halted) throw halted.kind === 'cancelled' ? halted : afterAttempts(halted, attempt);
    };

    const budget = this.options.budget;
    for (let attempt = 1; ; attempt++) {
      // Counted here, where every attempt passes, so the count is what the service received.
      if (budget && !budget.take(method)) throw notSentError(info, budget.refusal());
      const started = Date.now();
      if (this.tracing) this.log.trace(`${method} ${info.path} ${traceHeaders(headers)}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
      let response: RawResponse;
      try {
        response = await sendOnce(url, method, headers, payload, signal, pool.dispatcher);
      } catch (error) {
        const failure = stopped() ?? networkError(info, error, pool.proxy, this.advice);
        this.log.warn(`${method} ${info.path} → ${failure.kind}: ${failure.message} (${Date.now() - started} ms)`);
        if (failure.kind === 'cancelled') throw failure;
        if (failure.kind !== 'network' || !isRead || attempt > retries || !isDroppedConnection(error)) throw afterAttempts(failure, attempt);
        await pause(this.delaysMs[attempt - 1] ?? 0, 'the connection closed before the answer', failure, attempt);
        continue;
      }
      if (this.tracing) {
        this.log.info(`${method} ${info.path} → ${response.status} (${Date.now() - started} ms)`);
        this.log.trace(`${method} ${info.path} ← ${response.status} ${response.contentType || 'no content-type'}, ${response.text.length} characters${response.retryAfter ? `, retry-after: ${response.retryAfter}` : ''}`);
      }
      const failure = statusError(info, response, this.advice, token);
      if (!failure) return { info, response };
      const asked = retryAfterMs(response.retryAfter, Date.now());
      const refusedUnhandled = response.status === 429 && asked !== undefined;
      if (attempt > retries || !(isRead ? RETRY_STATUSES.has(response.status) : refusedUnhandled)) throw afterAttempts(failure, attempt);
      if (asked !== undefined && asked > this.maxRetryAfterMs) throw waitTooLongError(failure, asked, this.maxRetryAfterMs, attempt);
      if (budget && !budget.allows(method)) throw afterAttempts(failure, attempt, `It was not sent again: ${budget.refusal()}.`);
      await pause(asked ?? this.delaysMs[attempt - 1] ?? 0, `the service answered ${response.status} ${statusText(response.status)}`, failure, attempt);
    }
  }
}

async function sendOnce(
  url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal, dispatcher: Dispatcher,
): Promise<RawResponse> {
  const response = await http().request(url, { method: method as Dispatcher.HttpMethod, headers, body, signal, dispatcher });
  const text = await response.body.text();
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { status: response.statusCode, contentType: header('content-type') ?? '', text, location: header('location'), retryAfter: header('retry-after') };
}

/** Headers for the trace log: the token never reaches a log. */
function traceHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${name.toLowerCase() === 'authorization' ? 'Bearer [redacted]' : value}`)
    .join(', ');
}

function collectionPath(kind: ResourceKind): string {
  return `/${kind.segment}`;
}

function memberPath(kind: ResourceKind, id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new RangeError(`${kind.label} id must be a whole number, got ${String(id)}.`);
  }
  return `/${kind.segment}/${id}`;
}
