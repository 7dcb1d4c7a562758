/**
 * The error a failed answer of the service stands for: its status, the
 * service's own reason, and the fix where the reason does not already say it.
 */
import { NEUTRAL_ADVICE, type Advice, type Remedy } from './advice';
import { capitalized, describeRequest, sentence, ServiceError, type RequestInfo } from './errors';
import { clip, extractServiceMessage } from './service-message';

const STATUS_TEXT: Readonly<Record<number, string>> = {
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
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
  500: {
    remedy: 'retryLater',
    say: () => 'The service failed; try again later, or ask its administrator about the error',
  },
  502: {
    remedy: 'retryLater',
    say: () =>
      "A gateway or proxy in front of the service got no usable answer from it; try again later, or ask the service's administrator if it lasts",
  },
  503: { remedy: 'retryLater', say: () => 'Try again later' },
  504: { remedy: 'retryLater', say: () => 'Try again later' },
};

export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

export function httpError(
  info: RequestInfo,
  status: number,
  body: string,
  contentType?: string,
  advice = NEUTRAL_ADVICE,
): ServiceError {
  const { message, fieldErrors } = extractServiceMessage(body, contentType);
  const reason = message ?? statusText(status);
  const fix = STATUS_FIXES[status];
  return new ServiceError(
    { ...info, kind: 'http', status, serviceMessage: message, fieldErrors, remedy: fix?.remedy },
    `${describeRequest(info)} failed with ${status} ${statusText(status)}: ${fix ? `${sentence(reason)} ${fix.say(advice)}.` : reason}`,
  );
}

/** A redirect is not followed: the token must not travel to another address unasked. */
export function redirectError(
  info: RequestInfo,
  status: number,
  location: string,
  advice = NEUTRAL_ADVICE,
): ServiceError {
  return new ServiceError(
    { ...info, kind: 'http', status, remedy: 'baseUrl' },
    `${describeRequest(info)} was redirected (${status} ${statusText(status)}) to ${clip(location)}. Redirects are not followed, so the token stays with the configured address: if the service moved, change ${advice.baseUrl}.`,
  );
}
