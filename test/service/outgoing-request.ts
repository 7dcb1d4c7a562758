/**
 * The request that `call_api` sends for a stored request definition, built by
 * the local service itself from service-api.md section 2.9 and the choices the
 * project's docs/service-api.md states where the rules are silent. It is not
 * taken from src/: the extension's builder is compared with this one by
 * test/unit/service-outgoing-request.test.ts, so a mistake on either side shows.
 */
import type { Json, JsonObject } from '../../src/core/json';

/** `{{name}}`, spaces allowed inside the braces. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

export interface StoredRequest {
  url: string;
  method: string;
  api_key?: string;
  headers: Record<string, string>;
  fixed_parameters: JsonObject;
}

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: JsonObject;
}

/** The definition cannot take these params; the service answers 422 naming `params`. */
export class OutgoingRequestError extends Error {}

function written(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function encoded(text: string, what: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw new OutgoingRequestError(`${what} is not valid Unicode text`);
  }
}

export function outgoingRequest(definition: StoredRequest, params: JsonObject): OutgoingRequest {
  const method = definition.method.trim().toUpperCase();
  if (!/^[A-Z][A-Z-]*$/.test(method))
    throw new OutgoingRequestError(`method ${JSON.stringify(definition.method)} is not an HTTP method`);
  const filled = new Set<string>();
  const param = (name: string): string => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined || value === null)
      throw new OutgoingRequestError(`placeholder {{${name}}} has no parameter named ${JSON.stringify(name)}`);
    filled.add(name);
    return written(value);
  };
  // Rules 1 and 4: the URL takes dynamic parameters only, never the API Key or a fixed parameter.
  const url = definition.url.replace(PLACEHOLDER, (_whole, name: string) =>
    encoded(param(name), `URL parameter ${name}`),
  );
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(definition.headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw new OutgoingRequestError(`header name ${JSON.stringify(name)} is not valid`);
    // Rule 2: in a header, {{api_key}} is always the API Key.
    const value = template.replace(PLACEHOLDER, (_whole, placeholder: string) => {
      if (placeholder !== 'api_key') return param(placeholder);
      if (!definition.api_key) throw new OutgoingRequestError(`header ${name} needs the api_key, which is not set`);
      return definition.api_key;
    });
    if (/[\r\n\0]/.test(value)) throw new OutgoingRequestError(`header ${name} would hold a line break`);
    headers[name] = value;
  }
  // Rule 3: the fixed parameters, and every parameter no placeholder took; a fixed one wins a shared name.
  const leftover = Object.entries(params).filter(([name]) => !filled.has(name));
  const body: JsonObject = Object.fromEntries([...leftover, ...Object.entries(definition.fixed_parameters)]);
  if (method === 'GET' || method === 'HEAD') {
    // Rule 6; leftovers have no body to go in, so they and the fixed parameters go in the query.
    if (leftover.length === 0) return { method, url, headers };
    return { method, url: withQuery(url, body), headers };
  }
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/json';
  return { method, url, headers, body };
}

function withQuery(url: string, params: JsonObject): string {
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const query = Object.entries(params)
    .map(
      ([name, value]) =>
        `${encoded(name, `query parameter ${name}`)}=${encoded(written(value), `query parameter ${name}`)}`,
    )
    .join('&');
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${query}${fragment}`;
}
