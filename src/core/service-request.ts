/**
 * A request to the service as the client builds it: the path below the API with the tenant query, the bearer token
 * and the JSON body. Built once, then sent as many times as the retry loop decides, each time as one exchange.
 */
import type { Advice } from './advice';
import { capitalized, describeRequest, ServiceError, type RequestInfo } from './errors';
import { http, type Dispatcher } from './http';
import type { JsonObject } from './json';
import type { ResourceKind } from './resource-kind';
import type { RawResponse } from './responses';

/** Where a connection's requests go, and the name that leads its messages. */
export interface Endpoint {
  readonly origin: URL;
  /** The path of the API below the base URL: `/api/v1`, behind the base URL's own path. */
  readonly apiPath: string;
  readonly connection?: string;
}

export interface ServiceRequest {
  readonly info: RequestInfo;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly payload?: string;
  /** Searched for in a failure's text, so that no echo of it reaches a message or the log. */
  readonly token: string;
}

export function collectionPath(kind: ResourceKind): string {
  return `/${kind.segment}`;
}

export function memberPath(kind: ResourceKind, id: number): string {
  if (!Number.isSafeInteger(id) || id < 0) {
    throw new RangeError(`${kind.label} id must be a whole number, got ${String(id)}.`);
  }
  return `/${kind.segment}/${id}`;
}

/** The request as messages name it: its path below the origin, with `tenant_id` where the kind takes one. */
export function requestInfo(
  endpoint: Endpoint,
  method: string,
  path: string,
  kind: ResourceKind,
  tenantId: number | undefined,
): RequestInfo {
  const base = `${endpoint.apiPath}${path}`;
  const withQuery = kind.tenantQuery !== 'none' && tenantId !== undefined ? `${base}?tenant_id=${tenantId}` : base;
  return { connection: endpoint.connection, method, path: withQuery };
}

/** A request without a token is not sent: the service would refuse it, and the fix is the user's. */
export function buildRequest(
  endpoint: Endpoint,
  info: RequestInfo,
  token: string | undefined,
  body: JsonObject | undefined,
  advice: Advice,
): ServiceRequest {
  if (!token) {
    throw new ServiceError(
      { ...info, kind: 'http', status: 401, remedy: 'token' },
      `${describeRequest(info)} was not sent: no token is set for this connection. ${capitalized(advice.token)}.`,
    );
  }
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let payload: string | undefined;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return { info, url: new URL(info.path, endpoint.origin), headers, payload, token };
}

/** Sends the request once and reads the whole answer. */
export async function sendOnce(
  request: ServiceRequest,
  signal: AbortSignal,
  dispatcher: Dispatcher,
): Promise<RawResponse> {
  const response = await http().request(request.url, {
    method: request.info.method as Dispatcher.HttpMethod,
    headers: request.headers,
    body: request.payload,
    signal,
    dispatcher,
  });
  const text = await response.body.text();
  const header = (name: string): string | undefined => {
    const value = response.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    status: response.statusCode,
    contentType: header('content-type') ?? '',
    text,
    location: header('location'),
    retryAfter: header('retry-after'),
  };
}

/** Headers for the trace log: the token never reaches a log. */
export function traceHeaders(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${name.toLowerCase() === 'authorization' ? 'Bearer [redacted]' : value}`)
    .join(', ');
}
