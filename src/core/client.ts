/**
 * The client of the service's API: one method per request the service takes, each sent within one deadline (body
 * included) and the caller's cancellation, through the connection's pool, by the retry loop (retry.ts).
 */
import { Deadlines } from './deadlines';
import { LIMITS } from './limits';
import type { Dispatcher } from './http';
import { NEUTRAL_ADVICE, type Advice } from './advice';
import { parseBaseUrl } from './base-url';
import { interpretResponse, type RawResponse } from './responses';
import { notSentError, responseError, ServiceError, type RequestInfo } from './errors';
import { silentLogger, type Logger } from './logger';
import { createDispatcher, proxyRoute, type NetworkSettings } from './network';
import type { ProxyRoute } from './network-errors';
import type { ResourceKind } from './resource-kind';
import type { JsonObject } from './json';
import type { RequestBudget } from './request-budget';
import { isTrialCopy } from './trials/trial-names';
import { RetryLoop, type RetryOptions } from './retry';
import { buildRequest, collectionPath, memberPath, requestInfo, type Endpoint } from './service-request';

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

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Told of each wait before a retry, so a caller timing the service (a test's maxMs) can leave the wait out. */
  readonly onWait?: (ms: number) => void;
  /** A listing of prompts keeps trial copies, which every other listing leaves out; for cleaning them up. */
  readonly trialCopies?: boolean;
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

interface Pool {
  readonly dispatcher: Dispatcher;
  readonly proxy?: ProxyRoute;
}

interface Exchange {
  readonly info: RequestInfo;
  readonly response: RawResponse;
}

export class ServiceClient {
  private readonly endpoint: Endpoint;
  private pool?: Pool;
  private readonly log: Logger;
  private readonly advice: Advice;
  private readonly retries: RetryLoop;
  private readonly deadlines = new Deadlines();

  constructor(private readonly options: ClientOptions) {
    this.advice = options.advice ?? NEUTRAL_ADVICE;
    const origin = parseBaseUrl(options.baseUrl, this.advice);
    this.endpoint = { origin, apiPath: `${origin.pathname.replace(/\/$/, '')}/api/v1`, connection: options.name };
    this.log = options.log ?? silentLogger;
    this.retries = new RetryLoop(options.retry, this.log, this.advice, options.budget);
  }
  /**
   * The kind's resources in the tenant. Trial copies are no part of the tenant as browsed or as code, so a listing of
   * prompts leaves them out, for the tree, pickers, pull, plan, drift and the flow map alike, unless asked for.
   */
  async list(kind: ResourceKind, tenantId?: number, call?: CallOptions): Promise<JsonObject[]> {
    const { info, response } = await this.exchange('GET', collectionPath(kind), kind, tenantId, undefined, call);
    const items = interpretResponse(info, response, 'array', this.advice);
    return kind.id === 'prompt' && !call?.trialCopies ? items.filter((item) => !isTrialCopy(item)) : items;
  }

  get(kind: ResourceKind, id: number, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    return this.object('GET', memberPath(kind, id), kind, tenantId, undefined, call);
  }

  create(kind: ResourceKind, fields: JsonObject, tenantId?: number, call?: CallOptions): Promise<JsonObject> {
    return this.object('POST', collectionPath(kind), kind, tenantId, { [kind.wrapperKey]: fields }, call);
  }

  update(
    kind: ResourceKind,
    id: number,
    fields: JsonObject,
    tenantId?: number,
    call?: CallOptions,
  ): Promise<JsonObject> {
    return this.object('PUT', memberPath(kind, id), kind, tenantId, { [kind.wrapperKey]: fields }, call);
  }

  /** Resolves to the service's delete status text. */
  async delete(kind: ResourceKind, id: number, tenantId?: number, call?: CallOptions): Promise<string> {
    const path = memberPath(kind, id);
    const body = await this.object('DELETE', path, kind, tenantId, undefined, call);
    if (typeof body.status !== 'string') {
      throw responseError(requestInfo(this.endpoint, 'DELETE', path, kind, tenantId), 200, 'no "status" text');
    }
    return body.status;
  }

  async testPrompt(
    kind: ResourceKind,
    id: number,
    tenantId: number | undefined,
    body: TestPromptBody,
    call?: CallOptions,
  ): Promise<TestPromptResult> {
    const result = await this.object(
      'POST',
      `${memberPath(kind, id)}/test_prompt`,
      kind,
      tenantId,
      body as unknown as JsonObject,
      call,
    );
    return result as unknown as TestPromptResult;
  }

  async executeAction(
    kind: ResourceKind,
    id: number,
    tenantId: number | undefined,
    body: ExecuteActionBody,
    call?: CallOptions,
  ): Promise<ExecuteActionResult> {
    const result = await this.object(
      'POST',
      `${memberPath(kind, id)}/execute_action`,
      kind,
      tenantId,
      body as unknown as JsonObject,
      call,
    );
    return result as unknown as ExecuteActionResult;
  }

  /** Closes the connection pool once its requests are done. */
  async close(): Promise<void> {
    await this.pool?.dispatcher.close();
  }

  private async object(
    method: string,
    path: string,
    kind: ResourceKind,
    tenantId: number | undefined,
    body: JsonObject | undefined,
    call?: CallOptions,
  ): Promise<JsonObject> {
    const { info, response } = await this.exchange(method, path, kind, tenantId, body, call);
    return interpretResponse(info, response, 'object', this.advice);
  }

  /** The pool, built on first use from the network settings; a bad setting fails the request unsent. */
  private poolFor(info: RequestInfo): Pool {
    if (!this.pool) {
      try {
        const settings = this.options.network?.() ?? { noProxy: [], proxyStrictSSL: true };
        const origin = this.endpoint.origin;
        const proxy = proxyRoute(settings, origin);
        this.pool = {
          dispatcher: createDispatcher(settings, origin),
          proxy: proxy && { url: proxy.url, source: proxy.source },
        };
        const cas = settings.ca?.length ? `, trusting ${settings.ca.length} extra CA file(s)` : '';
        this.log.debug(
          `${proxy ? `requests go through the proxy ${proxy.url} (${proxy.source})` : 'requests go straight to the service'}${cas}`,
        );
      } catch (error) {
        throw notSentError(info, error);
      }
    }
    return this.pool;
  }

  /** Sends one request by the retry loop; resolves to the final answer when it is a success. */
  private async exchange(
    method: string,
    path: string,
    kind: ResourceKind,
    tenantId: number | undefined,
    body: JsonObject | undefined,
    call: CallOptions = {},
  ): Promise<Exchange> {
    if (kind.tenantQuery === 'required' && tenantId === undefined) {
      throw new ServiceError(
        { kind: 'response', connection: this.options.name, method, path },
        `${kind.pluralLabel} need a tenant: pass tenantId.`,
      );
    }
    const info = requestInfo(this.endpoint, method, path, kind, tenantId);
    // A token at hand is not awaited: a pull sends many requests, and each wait is a turn of the event loop.
    const held = this.options.token();
    const token = typeof held === 'string' || held === undefined ? held : await held;
    const request = buildRequest(this.endpoint, info, token, body, this.advice);
    const pool = this.poolFor(info);
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const endsAt = Date.now() + timeoutMs;
    const { deadline, signal } = this.deadlines.forCall(call.signal, timeoutMs);
    const response = await this.retries.send(request, {
      ...pool,
      timeoutMs,
      endsAt,
      deadline,
      signal,
      cancel: call.signal,
      onWait: call.onWait,
    });
    return { info, response };
  }
}
