/** What a handler answers, and the service's error responses. */

import type { Json } from '../../src/core/json';

export interface Reply {
  status: number;
  /** The body text exactly as sent. */
  body: string;
  headers: Record<string, string>;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonReply(status: number, value: Json, headers: Record<string, string> = {}): Reply {
  return { status, body: JSON.stringify(value), headers: { 'content-type': JSON_TYPE, ...headers } };
}

/** Thrown by handlers; the dispatcher turns it into its reply. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly payload: Json,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }

  toReply(): Reply {
    return jsonReply(this.status, this.payload, this.headers);
  }
}

export type FieldErrors = Record<string, string[]>;

export function badRequest(message: string): HttpError {
  return new HttpError(400, { error: message });
}

/** Rails' ParameterMissing wording, which clients may already recognise. */
export function paramMissing(key: string): HttpError {
  return badRequest(`param is missing or the value is empty: ${key}`);
}

export function unauthorized(message: string): HttpError {
  return new HttpError(401, { error: message }, { 'www-authenticate': 'Bearer' });
}

export function forbidden(message: string): HttpError {
  return new HttpError(403, { error: message });
}

/** Rails' RecordNotFound wording. */
export function notFound(label: string, id: string | number): HttpError {
  return new HttpError(404, { error: `Couldn't find ${label} with 'id'=${id}` });
}

export function noRoute(method: string, path: string): HttpError {
  return new HttpError(404, { error: `No route matches [${method}] "${path}"` });
}

export function methodNotAllowed(method: string, allowed: readonly string[]): HttpError {
  return new HttpError(405, { error: `Method ${method} not allowed` }, { allow: allowed.join(', ') });
}

export function unprocessable(errors: FieldErrors): HttpError {
  return new HttpError(422, { errors });
}

export function invalidField(field: string, message: string): HttpError {
  return unprocessable({ [field]: [message] });
}
