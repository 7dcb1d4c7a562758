/**
 * One error type for every failed call to the service. It names the request
 * (method and path, never the token), carries the service's own reason and
 * the fix (a Remedy); the message says that fix in the shell's words (Advice).
 */
import { NEUTRAL_ADVICE, type Advice, type Remedy } from './advice';
import { clip, extractServiceMessage } from './service-message';

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

const STATUS_TEXT: Readonly<Record<number, string>> = {
  301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large',
  422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** A fix with the sentence that says it, in the words of the shell's Advice. */
interface Fix {
  readonly remedy?: Remedy;
  readonly say: (advice: Advice) => string;
}

/** What to do about a status, where the service's own reason does not already say it. */
const STATUS_FIXES: Readonly<Record<number, Fix>> = {
  401: { remedy: 'token', say: (a) => capitalized(a.token) },
  403: { remedy: 'access', say: (a) => `The token may not do this; ${a.access}` },
  404: { remedy: 'refresh', say: (a) => `It may have been deleted (${a.refresh}), or ${a.baseUrl} may be wrong` },
  407: { remedy: 'proxyCredentials', say: (a) => `The proxy needs credentials: ${a.proxyCredentials}` },
  408: { remedy: 'retryLater', say: () => 'Try again later' },
  429: { remedy: 'retryLater', say: () => 'The service is rate-limiting requests; try again later' },
  500: { remedy: 'retryLater', say: () => 'The service failed; try again later, or ask its administrator about the error' },
  502: { remedy: 'retryLater', say: () => 'A gateway or proxy in front of the service got no usable answer from it; try again later, or ask the service\'s administrator if it lasts' },
  503: { remedy: 'retryLater', say: () => 'Try again later' },
  504: { remedy: 'retryLater', say: () => 'Try again later' },
};

/** A phrase of the Advice at the start of a sentence. */
export function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** "local: PUT /api/v1/ai_prompts/3?tenant_id=1" */
export function describeRequest(info: RequestInfo): string {
  return `${info.connection ? `${info.connection}: ` : ''}${info.method} ${info.path}`;
}

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

/** Ends a message with a full stop, so that a further sentence can follow it. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

export function httpError(info: RequestInfo, status: number, body: string, contentType?: string, advice = NEUTRAL_ADVICE): ServiceError {
  const { message, fieldErrors } = extractServiceMessage(body, contentType);
  const reason = message ?? statusText(status);
  const fix = STATUS_FIXES[status];
  return new ServiceError(
    { ...info, kind: 'http', status, serviceMessage: message, fieldErrors, remedy: fix?.remedy },
    `${describeRequest(info)} failed with ${status} ${statusText(status)}: ${fix ? `${sentence(reason)} ${fix.say(advice)}.` : reason}`,
  );
}

/** A redirect is not followed: the token must not travel to another address unasked. */
export function redirectError(info: RequestInfo, status: number, location: string, advice = NEUTRAL_ADVICE): ServiceError {
  return new ServiceError(
    { ...info, kind: 'http', status, remedy: 'baseUrl' },
    `${describeRequest(info)} was redirected (${status} ${statusText(status)}) to ${clip(location)}. Redirects are not followed, so the token stays with the configured address: if the service moved, change ${advice.baseUrl}.`,
  );
}

/** Where a failed request went, for naming what to check. */
export interface ProxyRoute {
  /** The proxy's address without credentials. */
  readonly url: string;
  /** The setting or variable it came from: http.proxy, HTTPS_PROXY… */
  readonly source: string;
}

/** Walks an error's causes (and an AggregateError's errors), outermost first, a bounded number of steps. */
function chain(error: unknown): object[] {
  const found: object[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && found.length < 8) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || found.includes(current)) continue;
    found.push(current);
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause, ...(Array.isArray(errors) ? errors.slice(0, 4) : []));
  }
  return found;
}

/** Every `code` along the chain (undici and Node errors carry one), outermost first. */
export function errorCodes(error: unknown): string[] {
  return chain(error)
    .map((e) => (e as { code?: unknown }).code)
    .filter((code): code is string => typeof code === 'string');
}

/** Codes of a connection that closed under the request: repeating a read is safe then. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export function isDroppedConnection(error: unknown): boolean {
  return errorCodes(error).some((code) => DROPPED.has(code));
}

/** A reason with its fix; `via` names where the proxy in the way was set (a fact from the shell's network settings). */
interface Reason {
  readonly remedy?: Remedy;
  readonly say: (advice: Advice, via: string | undefined) => string;
}

/** A certificate the service's CA does not vouch for: trusting that CA fixes it. */
const untrusted = (problem: string): Reason => ({
  remedy: 'caCertificates',
  say: (a) => `${problem}; if the service uses a private or company CA, ${a.caCertificates}`,
});

const TLS_REASONS: Readonly<Record<string, Reason>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: { remedy: 'caCertificates', say: (a) => `the server's TLS certificate is self-signed and not trusted; ${a.caCertificates}` },
  SELF_SIGNED_CERT_IN_CHAIN: untrusted('the server\'s TLS certificate chain ends in a self-signed CA that is not trusted'),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: untrusted('the server\'s TLS certificate could not be verified: its issuer is not trusted'),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: untrusted('the issuer of the server\'s TLS certificate is not trusted (a private CA, or a company proxy that inspects TLS)'),
  UNABLE_TO_GET_ISSUER_CERT: untrusted('the issuer of the server\'s TLS certificate is not trusted'),
  CERT_UNTRUSTED: untrusted('the server\'s TLS certificate is not trusted'),
  CERT_HAS_EXPIRED: { say: () => 'the server\'s TLS certificate has expired; its administrator must renew it' },
  CERT_NOT_YET_VALID: { say: () => 'the server\'s TLS certificate is not valid yet; check this computer\'s clock' },
  ERR_TLS_CERT_ALTNAME_INVALID: { remedy: 'baseUrl', say: (a) => `the server's TLS certificate is not for this host name; use a host name that the certificate names in ${a.baseUrl}` },
  ERR_SSL_WRONG_VERSION_NUMBER: { remedy: 'baseUrl', say: (a) => `the TLS handshake failed: the server may not speak https on that port; check http:// or https:// in ${a.baseUrl}` },
  UND_ERR_PRX_TLS: { remedy: 'proxyStrictSSL', say: (a) => `the https proxy's TLS certificate is not for the proxy's host name; check the proxy address, or ${a.proxyStrictSSL}` },
};

const retry = (say: string): Reason => ({ remedy: 'retryLater', say: () => say });
const closedByService: Reason = {
  remedy: 'retryLater',
  say: (_, via) => `${via ? 'the service or the proxy' : 'the service'} closed the connection before it answered; try again`,
};
const connectTimedOut = (what: string): Reason => ({
  remedy: 'proxy',
  say: (a, via) => `${what} timed out; check the network or VPN, ${via ? `and ${via}` : `and ${a.proxy}`}`,
});

/** Reasons that depend on whether a proxy was in the way. */
const CONNECT_REASONS: Readonly<Record<string, Reason>> = {
  ECONNREFUSED: { remedy: 'baseUrl', say: (a, via) => `the connection was refused; check that ${via ? `the proxy is running and ${via} is right` : `the service is running and ${a.baseUrl} is right`}` },
  ENOTFOUND: { remedy: 'baseUrl', say: (a, via) => `the host name was not found; check ${via ?? a.baseUrl}` },
  EAI_AGAIN: { say: () => 'the host name could not be resolved right now; check the network or DNS' },
  ETIMEDOUT: connectTimedOut('the connection'),
  UND_ERR_CONNECT_TIMEOUT: connectTimedOut('connecting'),
  EHOSTUNREACH: { say: () => 'the host is unreachable; check the network or VPN' },
  ENETUNREACH: { say: () => 'the network is unreachable; check the network or VPN' },
  ECONNRESET: closedByService,
  EPIPE: retry('the service closed the connection while the request was being sent; try again'),
  UND_ERR_SOCKET: closedByService,
  UND_ERR_CLOSED: retry('the connection was closed; try again'),
  UND_ERR_DESTROYED: retry('the request was stopped because the connection was closed; try again'),
};

/** undici reports a refused tunnel only in its message: "Proxy response (407) !== 200 when HTTP Tunneling". */
function tunnelStatus(errors: readonly object[]): number | undefined {
  for (const error of errors) {
    const { message } = error as { message?: unknown };
    const match = typeof message === 'string' ? /^Proxy response \((\d{3})\)/.exec(message) : null;
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** Text for any thrown value; String() itself throws for an object without a prototype. */
function thrownText(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

interface Said {
  readonly text: string;
  readonly remedy?: Remedy;
}

function networkReason(error: unknown, proxy: ProxyRoute | undefined, advice: Advice): Said {
  const errors = chain(error);
  const tunnel = tunnelStatus(errors);
  if (tunnel !== undefined && proxy) {
    return tunnel === 407
      ? { remedy: 'proxyCredentials', text: `the proxy asked for credentials (407 Proxy Authentication Required); put them in ${proxy.source} as http://user:password@host:port` }
      : { remedy: 'noProxy', text: `the proxy would not open a tunnel to the service (${tunnel} ${statusText(tunnel)}); check that the proxy may reach the service, or ${advice.noProxy}` };
  }
  const codes = errorCodes(error);
  // The first code with a known reason: an outer code like UND_ERR_PRX_TLS says
  // more than the Node code it wraps, and a code hidden in a cause still counts.
  for (const code of codes) {
    // Own properties only: a thrown value's code can be any text, "toString" included.
    const tls = Object.hasOwn(TLS_REASONS, code) ? TLS_REASONS[code] : undefined;
    if (tls) {
      const text = tls.say(advice, proxy?.source);
      return proxy?.url.startsWith('https:') && code !== 'UND_ERR_PRX_TLS'
        ? { remedy: tls.remedy, text: `${text}; if it is the https proxy's certificate, add its CA the same way, or ${advice.proxyStrictSSL}` }
        : { remedy: tls.remedy, text };
    }
    const connect = Object.hasOwn(CONNECT_REASONS, code) ? CONNECT_REASONS[code] : undefined;
    // Through a proxy, the address that was refused or not found is the proxy's.
    if (connect) return { remedy: proxy && connect.remedy === 'baseUrl' ? 'proxy' : connect.remedy, text: connect.say(advice, proxy?.source) };
  }
  // The innermost message names the cause; "fetch failed" and the like only wrap it.
  const messages = errors.map((e) => (e instanceof Error ? e.message : '')).filter((m) => m && m !== 'fetch failed');
  const detail = messages[messages.length - 1] ?? thrownText(error);
  const check = proxy ? `check the network, ${proxy.source} and ${advice.baseUrl}` : `check the network and ${advice.baseUrl}, and ${advice.proxy}`;
  return { text: `${clip(detail)}${codes[0] ? ` (${codes[0]})` : ''}; ${check}` };
}

export function networkError(info: RequestInfo, error: unknown, proxy?: ProxyRoute, advice = NEUTRAL_ADVICE): ServiceError {
  const { text, remedy } = networkReason(error, proxy, advice);
  return new ServiceError(
    { ...info, kind: 'network', cause: error, remedy },
    `${describeRequest(info)} failed${proxy ? ` through the proxy ${proxy.url}` : ''}: ${text}.`,
  );
}

/** A request that could not be sent because the network settings are wrong (a CA file, a proxy address). */
export function notSentError(info: RequestInfo, problem: unknown): ServiceError {
  return new ServiceError({ ...info, kind: 'network', cause: problem }, `${describeRequest(info)} was not sent: ${sentence(thrownText(problem))}`);
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
export function waitTooLongError(failure: ServiceError, waitMs: number, maxWaitMs: number, attempts: number): ServiceError {
  return afterAttempts(failure, attempts, `The service asked to wait ${Math.ceil(waitMs / 1000)} s before trying again, longer than the ${Math.ceil(maxWaitMs / 1000)} s the client waits at most.`);
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
