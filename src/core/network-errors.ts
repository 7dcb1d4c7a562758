/**
 * The error of a request that got no answer: the connection, TLS or the proxy
 * failed on the way. The codes along the thrown value's causes say why; each
 * known one has its reason and the fix, told apart by whether a proxy was in
 * the way.
 */
import { NEUTRAL_ADVICE, type Advice, type Remedy } from './advice';
import { describeRequest, ServiceError, thrownText, type RequestInfo } from './errors';
import { statusText } from './http-errors';
import { clip } from './service-message';
import { LIMITS } from './limits';

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
  while (queue.length > 0 && found.length < LIMITS.errorCauses.value) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || found.includes(current)) continue;
    found.push(current);
    const { cause, errors } = current as { cause?: unknown; errors?: unknown };
    queue.push(cause, ...(Array.isArray(errors) ? errors.slice(0, LIMITS.aggregateErrors.value) : []));
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
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    remedy: 'caCertificates',
    say: (a) => `the server's TLS certificate is self-signed and not trusted; ${a.caCertificates}`,
  },
  SELF_SIGNED_CERT_IN_CHAIN: untrusted(
    "the server's TLS certificate chain ends in a self-signed CA that is not trusted",
  ),
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: untrusted(
    "the server's TLS certificate could not be verified: its issuer is not trusted",
  ),
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: untrusted(
    "the issuer of the server's TLS certificate is not trusted (a private CA, or a company proxy that inspects TLS)",
  ),
  UNABLE_TO_GET_ISSUER_CERT: untrusted("the issuer of the server's TLS certificate is not trusted"),
  CERT_UNTRUSTED: untrusted("the server's TLS certificate is not trusted"),
  CERT_HAS_EXPIRED: { say: () => "the server's TLS certificate has expired; its administrator must renew it" },
  CERT_NOT_YET_VALID: { say: () => "the server's TLS certificate is not valid yet; check this computer's clock" },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    remedy: 'baseUrl',
    say: (a) =>
      `the server's TLS certificate is not for this host name; use a host name that the certificate names in ${a.baseUrl}`,
  },
  ERR_SSL_WRONG_VERSION_NUMBER: {
    remedy: 'baseUrl',
    say: (a) =>
      `the TLS handshake failed: the server may not speak https on that port; check http:// or https:// in ${a.baseUrl}`,
  },
  UND_ERR_PRX_TLS: {
    remedy: 'proxyStrictSSL',
    say: (a) =>
      `the https proxy's TLS certificate is not for the proxy's host name; check the proxy address, or ${a.proxyStrictSSL}`,
  },
};

const retry = (say: string): Reason => ({ remedy: 'retryLater', say: () => say });
const closedByService: Reason = {
  remedy: 'retryLater',
  say: (_, via) =>
    `${via ? 'the service or the proxy' : 'the service'} closed the connection before it answered; try again`,
};
const connectTimedOut = (what: string): Reason => ({
  remedy: 'proxy',
  say: (a, via) => `${what} timed out; check the network or VPN, ${via ? `and ${via}` : `and ${a.proxy}`}`,
});

/** Reasons that depend on whether a proxy was in the way. */
const CONNECT_REASONS: Readonly<Record<string, Reason>> = {
  ECONNREFUSED: {
    remedy: 'baseUrl',
    say: (a, via) =>
      `the connection was refused; check that ${via ? `the proxy is running and ${via} is right` : `the service is running and ${a.baseUrl} is right`}`,
  },
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

interface Said {
  readonly text: string;
  readonly remedy?: Remedy;
}

function networkReason(error: unknown, proxy: ProxyRoute | undefined, advice: Advice): Said {
  const errors = chain(error);
  const tunnel = tunnelStatus(errors);
  if (tunnel !== undefined && proxy) {
    return tunnel === 407
      ? {
          remedy: 'proxyCredentials',
          text: `the proxy asked for credentials (407 Proxy Authentication Required); put them in ${proxy.source} as http://user:password@host:port`,
        }
      : {
          remedy: 'noProxy',
          text: `the proxy would not open a tunnel to the service (${tunnel} ${statusText(tunnel)}); check that the proxy may reach the service, or ${advice.noProxy}`,
        };
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
        ? {
            remedy: tls.remedy,
            text: `${text}; if it is the https proxy's certificate, add its CA the same way, or ${advice.proxyStrictSSL}`,
          }
        : { remedy: tls.remedy, text };
    }
    const connect = Object.hasOwn(CONNECT_REASONS, code) ? CONNECT_REASONS[code] : undefined;
    // Through a proxy, the address that was refused or not found is the proxy's.
    if (connect)
      return {
        remedy: proxy && connect.remedy === 'baseUrl' ? 'proxy' : connect.remedy,
        text: connect.say(advice, proxy?.source),
      };
  }
  // The innermost message names the cause; "fetch failed" and the like only wrap it.
  const messages = errors.map((e) => (e instanceof Error ? e.message : '')).filter((m) => m && m !== 'fetch failed');
  const detail = messages[messages.length - 1] ?? thrownText(error);
  const check = proxy
    ? `check the network, ${proxy.source} and ${advice.baseUrl}`
    : `check the network and ${advice.baseUrl}, and ${advice.proxy}`;
  return { text: `${clip(detail)}${codes[0] ? ` (${codes[0]})` : ''}; ${check}` };
}

export function networkError(
  info: RequestInfo,
  error: unknown,
  proxy?: ProxyRoute,
  advice = NEUTRAL_ADVICE,
): ServiceError {
  const { text, remedy } = networkReason(error, proxy, advice);
  return new ServiceError(
    { ...info, kind: 'network', cause: error, remedy },
    `${describeRequest(info)} failed${proxy ? ` through the proxy ${proxy.url}` : ''}: ${text}.`,
  );
}
