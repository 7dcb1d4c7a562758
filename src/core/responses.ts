/**
 * What a complete response from the service means: its JSON in the expected
 * shape, or the ServiceError that explains why not (with any echo of the
 * token removed), and when a "not now" answer asks to be tried again.
 */
import { NEUTRAL_ADVICE, type Advice } from './advice';
import { responseError, type RequestInfo, type ServiceError } from './errors';
import { httpError, redirectError } from './http-errors';
import { isJsonObject, type Json, type JsonObject } from './json';
import { clip } from './service-message';
import { tokenHider } from './token-redaction';

/** A complete answer, as interpretResponse reads it. */
export interface RawResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The Location header, for naming where a redirect points. */
  readonly location?: string;
  readonly retryAfter?: string;
}

/** An error page that echoes the request must not carry the token into a message or the log. */
function withoutToken(response: RawResponse, token: string): RawResponse {
  const hide = tokenHider(token);
  return {
    ...response,
    text: hide(response.text),
    ...(response.location ? { location: hide(response.location) } : {}),
  };
}

/** Retry-After in milliseconds from now: delay-seconds or an HTTP date (a past one is 0); undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The error a response that is not a success stands for; undefined for a 2xx. */
export function statusError(
  info: RequestInfo,
  response: RawResponse,
  advice: Advice,
  token?: string,
): ServiceError | undefined {
  if (response.status >= 200 && response.status <= 299) return undefined;
  // Only a failure's text reaches a message, so only a failure's is searched for the token.
  const { status, contentType, text, location } = token === undefined ? response : withoutToken(response, token);
  if (status >= 300 && status <= 399 && location) return redirectError(info, status, location, advice);
  return httpError(info, status, text, contentType, advice);
}

/**
 * What a complete response means: the JSON body in the expected shape, or
 * the ServiceError that explains why not. Pure, and it throws nothing but
 * ServiceError for any status, content type and body.
 */
export function interpretResponse(
  info: RequestInfo,
  response: RawResponse,
  shape: 'array',
  advice?: Advice,
): JsonObject[];
export function interpretResponse(
  info: RequestInfo,
  response: RawResponse,
  shape: 'object',
  advice?: Advice,
): JsonObject;
export function interpretResponse(
  info: RequestInfo,
  response: RawResponse,
  shape: 'array' | 'object',
  advice = NEUTRAL_ADVICE,
): JsonObject | JsonObject[] {
  const failure = statusError(info, response, advice);
  if (failure) throw failure;
  let body: Json;
  try {
    body = JSON.parse(response.text) as Json;
  } catch {
    throw responseError(
      info,
      response.status,
      `a body that is not valid JSON (${response.contentType ? `content type ${clip(response.contentType)}` : 'no content type'})`,
    );
  }
  if (shape === 'array') {
    if (!Array.isArray(body)) throw responseError(info, response.status, 'a body that is not a JSON array');
    return body.filter(isJsonObject);
  }
  if (!isJsonObject(body)) throw responseError(info, response.status, 'a body that is not a JSON object');
  return body;
}
