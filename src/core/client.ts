import { Agent, request, type Dispatcher } from 'undici';
import {
  cancelledError,
  describeRequest,
  httpError,
  networkError,
  responseError,
  ServiceError,
  timeoutError,
  type RequestInfo,
} from './errors';
import { silentLogger, type Logger } from './logger';
import type { ResourceKind } from './resources';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface ClientOptions {
  /** The connection's name, put at the start of every error message. */
  readonly name?: string;
  /** The service's `{base_url}`; `/api/v1` is appended. */
  readonly baseUrl: string;
  /** Asked before each request, so a changed token applies at once. */
  readonly token: () => string | undefined | Promise<string | undefined>;
  readonly timeoutMs?: number;
  /** A proxy or custom-CA dispatcher; a keep-alive pool of the client's own otherwise. */
  readonly dispatcher?: Dispatcher;
  readonly log?: Logger;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
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

const DEFAULT_TIMEOUT_MS = 30_000;

export class ServiceClient {
  private readonly origin: URL;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly log: Logger;

  constructor(private readonly options: ClientOptions) {
    this.origin = parseBaseUrl(options.baseUrl);
    this.ownsDispatcher = !options.dispatcher;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 8 });
    this.log = options.log ?? silentLogger;
  }

  list(kind: ResourceKind, tenantId?: number, call?: CallOptions): Promise<JsonObject[]> {
    return this.send('GET', collectionPath(kind), kind, tenantId, undefined, call).then((body) =>
      expectArray(body, this.lastInfo('GET', collectionPath(kind), kind, tenantId)),
    );
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
      throw responseError(this.lastInfo('DELETE', path, kind, tenantId), 200, 'no "status" text');
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

  async close(): Promise<void> {
    if (this.ownsDispatcher) {
      await this.dispatcher.close();
    }
  }

  private async object(
    method: string, path: string, kind: ResourceKind, tenantId: number | undefined, body: JsonObject | undefined, call?: CallOptions,
  ): Promise<JsonObject> {
    const result = await this.send(method, path, kind, tenantId, body, call);
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw responseError(this.lastInfo(method, path, kind, tenantId), 200, 'a body that is not a JSON object');
    }
    return result;
  }

  private lastInfo(method: string, path: string, kind: ResourceKind, tenantId: number | undefined): RequestInfo {
    return { connection: this.options.name, method, path: this.pathWithQuery(path, kind, tenantId) };
  }

  private pathWithQuery(path: string, kind: ResourceKind, tenantId: number | undefined): string {
    const base = `${this.origin.pathname.replace(/\/$/, '')}/api/v1${path}`;
    return kind.tenantQuery !== 'none' && tenantId !== undefined ? `${base}?tenant_id=${tenantId}` : base;
  }

  private async send(
    method: string, path: string, kind: ResourceKind, tenantId: number | undefined, body: JsonObject | undefined, call: CallOptions = {},
  ): Promise<Json> {
    if (kind.tenantQuery === 'required' && tenantId === undefined) {
      throw new ServiceError(
        { kind: 'response', connection: this.options.name, method, path },
        `${kind.pluralLabel} need a tenant: pass tenantId.`,
      );
    }
    const info = this.lastInfo(method, path, kind, tenantId);
    const token = await this.options.token();
    if (!token) {
      throw new ServiceError(
        { ...info, kind: 'http', status: 401 },
        `${describeRequest(info)} was not sent: no token is set for this connection. Set one with "ConvAI: Set Token".`,
      );
    }
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One deadline for the whole exchange, body included, plus the caller's cancellation.
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, deadline]) : deadline;
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const started = Date.now();
    let status: number;
    let text: string;
    let contentType: string;
    try {
      const response = await request(new URL(info.path, this.origin), {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: payload,
        signal,
        dispatcher: this.dispatcher,
      });
      status = response.statusCode;
      contentType = String(response.headers['content-type'] ?? '');
      text = await response.body.text();
    } catch (error) {
      const failure = deadline.aborted
        ? timeoutError(info, timeoutMs)
        : call.signal?.aborted
          ? cancelledError(info)
          : networkError(info, error);
      this.log.warn(`${method} ${info.path} → ${failure.kind}: ${failure.message} (${Date.now() - started} ms)`);
      throw failure;
    }
    this.log.info(`${method} ${info.path} → ${status} (${Date.now() - started} ms)`);
    if (status < 200 || status > 299) {
      throw httpError(info, status, text, contentType);
    }
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw responseError(info, status, 'a body that is not valid JSON');
    }
  }
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

function expectArray(body: Json, info: RequestInfo): JsonObject[] {
  if (!Array.isArray(body)) {
    throw responseError(info, 200, 'a body that is not a JSON array');
  }
  return body.filter((item): item is JsonObject => typeof item === 'object' && item !== null && !Array.isArray(item));
}

/** Validates a connection's baseUrl, naming the problem. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl "${baseUrl}" is not a URL: use the form https://host[:port][/path].`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl "${baseUrl}" must start with http:// or https://.`);
  }
  if (url.username || url.password) {
    throw new TypeError('baseUrl must not hold a user name or password: set the token with "ConvAI: Set Token".');
  }
  if (url.search || url.hash) {
    throw new TypeError(`baseUrl "${baseUrl}" must not hold a query or fragment.`);
  }
  return url;
}
