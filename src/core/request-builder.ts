/**
 * Builds the outgoing HTTP request of an external API request definition
 * (service-api.md section 2.9, rules 1 to 7). Choices where the spec is silent
 * are listed in the README ("Request definitions") and tested.
 */

export interface FunctionDefinition {
  type: 'function';
  name: string;
  description: string;
  parameters: { type: 'object'; properties: Record<string, unknown>; required?: string[] };
}

export interface RequestDefinition {
  name?: string;
  url: string;
  method: string;
  api_key?: string;
  headers?: Record<string, string>;
  function_definition: FunctionDefinition;
  fixed_parameters?: Record<string, unknown>;
  say_before?: string;
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

export class RequestBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestBuildError';
  }
}

/** `{{name}}`, with optional spaces inside the braces. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;
export const API_KEY_PLACEHOLDER = 'api_key';
const BODYLESS = new Set(['GET', 'HEAD']);
const METHOD = /^[A-Z][A-Z-]*$/;

export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function fill(
  text: string,
  where: string,
  lookup: (name: string) => unknown,
  encode: (text: string) => string,
  used: Set<string>,
): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = lookup(name);
    if (value === undefined) {
      throw new RequestBuildError(`${where} placeholder {{${name}}} has no value: pass an argument named "${name}".`);
    }
    used.add(name);
    return encode(asText(value));
  });
}

function own(args: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(args, name) ? args[name] : undefined;
}

export function buildRequest(
  definition: RequestDefinition,
  args: Record<string, unknown>,
  apiKey?: string,
): BuiltRequest {
  const method = definition.method.trim().toUpperCase();
  if (!METHOD.test(method)) {
    throw new RequestBuildError(`method "${definition.method}" is not an HTTP method: use GET, POST, PUT, DELETE or another token.`);
  }
  const used = new Set<string>();
  // Rule 1 and 4: URL placeholders take dynamic parameters only, percent-encoded.
  const url = fill(definition.url, 'URL', (n) => own(args, n), encodeURIComponent, used);

  // Rule 2: in headers, {{api_key}} is the API Key; others are dynamic parameters.
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(definition.headers ?? {})) {
    const value = fill(
      String(template),
      `Header "${name}"`,
      (n) => (n === API_KEY_PLACEHOLDER ? apiKey : own(args, n)),
      (t) => t,
      used,
    );
    if (/[\r\n]/.test(value)) {
      throw new RequestBuildError(`Header "${name}" would contain a line break; remove it from the value or argument.`);
    }
    headers[name] = value;
  }
  used.delete(API_KEY_PLACEHOLDER);

  // Rule 3: fixed parameters unchanged plus every unmatched dynamic parameter.
  const unmatched = Object.entries(args).filter(([name]) => !used.has(name));
  const fixed = definition.fixed_parameters ?? {};
  const payload: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of unmatched) payload[name] = value;
  for (const [name, value] of Object.entries(fixed)) payload[name] = value;
  const body = { ...payload };

  if (BODYLESS.has(method)) {
    // Rule 6; with unmatched dynamic parameters a GET has no body to carry
    // them, so they go to the query string together with the fixed ones.
    if (unmatched.length === 0) {
      return { method, url, headers };
    }
    return { method, url: appendQuery(url, body), headers };
  }
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  return { method, url, headers, body };
}

function appendQuery(url: string, params: Record<string, unknown>): string {
  const query = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(asText(v))}`)
    .join('&');
  const [base, fragment] = splitFragment(url);
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${query}${fragment}`;
}

function splitFragment(url: string): [string, string] {
  const hash = url.indexOf('#');
  return hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
}
