/**
 * One error type for every failed call to the service. It names the request
 * (method and path, never the token) and carries the service's own reason.
 */

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
}

export class ServiceError extends Error {
  readonly kind: FailureKind;
  readonly status?: number;
  readonly method: string;
  readonly path: string;
  readonly connection?: string;
  readonly serviceMessage?: string;
  readonly fieldErrors?: Readonly<Record<string, readonly string[]>>;

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
  }
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "local: PUT /api/v1/ai_prompts/3?tenant_id=1" */
export function describeRequest(info: RequestInfo): string {
  return `${info.connection ? `${info.connection}: ` : ''}${info.method} ${info.path}`;
}

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

const MAX_MESSAGE = 500;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isRecord(value)) {
    for (const key of ['message', 'detail', 'title', 'error']) {
      const inner = textOf(value[key]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map(textOf).filter((t): t is string => !!t);
}

export interface ExtractedMessage {
  message?: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * The spec leaves the error body open, so accept the shapes services use:
 * a plain string, `{error}`, `{message}`, `{errors: {field: [..]}}`,
 * `{errors: [..]}`; HTML pages and empty bodies give nothing.
 */
export function extractServiceMessage(body: string, contentType = ''): ExtractedMessage {
  const text = body.trim();
  if (!text || /html/i.test(contentType) || /^<(!doctype|html|\?xml|head|body)/i.test(text)) {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { message: clip(text) };
  }
  if (typeof parsed === 'string') return parsed.trim() ? { message: clip(parsed) } : {};
  if (Array.isArray(parsed)) {
    const items = listOf(parsed);
    return items.length ? { message: clip(items.join('; ')) } : {};
  }
  if (!isRecord(parsed)) return {};
  const errors = parsed.errors;
  if (isRecord(errors)) {
    const fieldErrors: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(errors)) {
      fieldErrors[field] = listOf(messages);
    }
    const message = Object.entries(fieldErrors)
      .map(([field, messages]) => (messages.length ? `${field}: ${messages.join(', ')}` : field))
      .join('; ');
    return { message: clip(message), fieldErrors };
  }
  if (Array.isArray(errors)) {
    const items = listOf(errors);
    if (items.length) return { message: clip(items.join('; ')) };
  }
  const single = textOf(parsed);
  return single ? { message: clip(single) } : {};
}

export function httpError(info: RequestInfo, status: number, body: string, contentType?: string): ServiceError {
  const { message, fieldErrors } = extractServiceMessage(body, contentType);
  const reason = message ?? statusText(status);
  return new ServiceError(
    { ...info, kind: 'http', status, serviceMessage: message, fieldErrors },
    `${describeRequest(info)} failed with ${status} ${statusText(status)}: ${reason}`,
  );
}

/** The first `code` found along an error's cause chain (undici and Node errors carry one). */
function errorCode(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}

const NETWORK_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused; check that the service is running and the connection\'s baseUrl is right',
  ENOTFOUND: 'the host name was not found; check the connection\'s baseUrl',
  EAI_AGAIN: 'the host name could not be resolved right now; check the network or DNS',
  ECONNRESET: 'the service closed the connection before it answered',
  EPIPE: 'the service closed the connection while the request was being sent',
  UND_ERR_SOCKET: 'the service closed the connection before it answered',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_DESTROYED: 'the request was stopped because the connection was closed; try again',
  ETIMEDOUT: 'the connection timed out; check the network, a proxy or the baseUrl',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out; check the network, a proxy or the baseUrl',
  EHOSTUNREACH: 'the host is unreachable; check the network or VPN',
  ENETUNREACH: 'the network is unreachable; check the network or VPN',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server\'s TLS certificate is self-signed and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server\'s TLS certificate chain holds an untrusted self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server\'s TLS certificate could not be verified',
  CERT_HAS_EXPIRED: 'the server\'s TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server\'s TLS certificate does not match the host name',
};

export function networkError(info: RequestInfo, error: unknown): ServiceError {
  const code = errorCode(error);
  const known = code ? NETWORK_REASONS[code] : undefined;
  const fallback = error instanceof Error ? error.message : String(error);
  const reason = known ?? (code ? `${fallback} (${code})` : fallback);
  return new ServiceError(
    { ...info, kind: 'network', cause: error },
    `${describeRequest(info)} failed: ${reason}.`,
  );
}

export function timeoutError(info: RequestInfo, timeoutMs: number): ServiceError {
  return new ServiceError(
    { ...info, kind: 'timeout' },
    `${describeRequest(info)} timed out: no complete answer within ${Math.round(timeoutMs / 1000)} s. The service may be overloaded or unreachable; try again, or raise convai.requestTimeoutSeconds.`,
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
