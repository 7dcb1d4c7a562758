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
/** Methods that send no body (rule 6 and the query-string choice). */
export const BODYLESS = new Set(['GET', 'HEAD']);
const METHOD = /^[A-Z][A-Z-]*$/;
/** RFC 9110 token: what a header name may hold. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Characters that would end a header line or that fetch refuses in a value. */
export const HEADER_BREAK = /[\r\n\0]/;

export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string);
}

export interface PlaceholderToken {
  /** Index of the opening `{{`. */
  start: number;
  /** Index after the closing `}}`; for an unclosed one, after the partial name. */
  end: number;
  /** The name between the braces, trimmed. */
  name: string;
  /** Why the builder would leave it unreplaced: no name, no `}}`, or characters a name cannot hold. */
  fault?: 'empty' | 'unclosed' | 'name';
}

const PLACEHOLDER_AT = new RegExp(PLACEHOLDER.source, 'y');

/**
 * Every `{{` of a text as the builder reads it: the placeholders it fills and
 * the malformed ones it would send as they are, for diagnostics.
 */
export function scanPlaceholders(text: string): PlaceholderToken[] {
  const tokens: PlaceholderToken[] = [];
  let at = text.indexOf('{{');
  while (at >= 0) {
    PLACEHOLDER_AT.lastIndex = at;
    const match = PLACEHOLDER_AT.exec(text);
    if (match) {
      tokens.push({ start: at, end: at + match[0].length, name: match[1] as string });
      at = text.indexOf('{{', at + match[0].length);
    } else if (text[at + 2] === '{') {
      // `{{{name}}}`: the builder's placeholder starts one brace later.
      at += 1;
    } else {
      const close = text.indexOf('}}', at + 2);
      const next = text.indexOf('{{', at + 2);
      if (close < 0 || (next >= 0 && next < close)) {
        const partial = (/^\s*[\w.-]*/.exec(text.slice(at + 2)) as RegExpExecArray)[0];
        tokens.push({ start: at, end: at + 2 + partial.length, name: partial.trim(), fault: 'unclosed' });
        at = next;
      } else {
        const name = text.slice(at + 2, close).trim();
        tokens.push({ start: at, end: close + 2, name, fault: name === '' ? 'empty' : 'name' });
        at = text.indexOf('{{', close + 2);
      }
    }
  }
  return tokens;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Replaces each placeholder; `lookup` gives undefined for a name without a value, which is refused. */
function fill(
  text: string,
  lookup: (name: string) => unknown,
  missing: (name: string) => string,
  encode: (text: string, name: string) => string,
): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = lookup(name);
    if (value === undefined) {
      throw new RequestBuildError(missing(name));
    }
    return encode(asText(value), name);
  });
}

function percentEncode(text: string, name: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate has no UTF-8 form.
    throw new RequestBuildError(`URL placeholder {{${name}}}: the value is not valid Unicode text.`);
  }
}

export function buildRequest(
  definition: RequestDefinition,
  args: Record<string, unknown>,
  apiKey?: string,
): BuiltRequest {
  const method = definition.method.trim().toUpperCase();
  if (!METHOD.test(method)) {
    throw new RequestBuildError(
      `method "${definition.method}" is not an HTTP method: use GET, POST, PUT, DELETE or another token.`,
    );
  }
  // The dynamic parameters that filled a placeholder; the API Key is not one of them.
  const used = new Set<string>();
  const argument = (name: string): unknown => {
    // null is no value either: "null" in a URL or header is never what the AI meant.
    const value = Object.hasOwn(args, name) && args[name] !== null ? args[name] : undefined;
    if (value !== undefined) used.add(name);
    return value;
  };
  const noArgument = (where: string, name: string): string =>
    `${where} placeholder {{${name}}} has no value: pass an argument named "${name}".`;

  // Rules 1 and 4: URL placeholders take dynamic parameters only, percent-encoded.
  const url = fill(definition.url, argument, (n) => noArgument('URL', n), percentEncode);

  // Rule 2: in headers, {{api_key}} is the API Key; others are dynamic parameters.
  const headers: Record<string, string> = {};
  for (const [name, template] of Object.entries(definition.headers ?? {})) {
    if (!HEADER_NAME.test(name)) {
      throw new RequestBuildError(
        `Header name "${name}" is not valid: use letters, digits and - (no spaces or colons).`,
      );
    }
    const value = fill(
      String(template),
      (n) => (n === API_KEY_PLACEHOLDER ? apiKey || undefined : argument(n)),
      (n) =>
        n === API_KEY_PLACEHOLDER
          ? `Header "${name}" placeholder {{api_key}} has no value: set the definition's "api_key".`
          : noArgument(`Header "${name}"`, n),
      (t) => t,
    );
    if (HEADER_BREAK.test(value)) {
      throw new RequestBuildError(`Header "${name}" would contain a line break; remove it from the value or argument.`);
    }
    headers[name] = value;
  }

  // Rule 3: fixed parameters unchanged plus every unmatched dynamic parameter;
  // a fixed parameter wins over a dynamic one of the same name.
  const unmatched = Object.entries(args).filter(([name]) => !used.has(name));
  const body: Record<string, unknown> = Object.fromEntries([
    ...unmatched,
    ...Object.entries(definition.fixed_parameters ?? {}),
  ]);

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
    .map(([k, v]) => `${queryEncode(k, k)}=${queryEncode(asText(v), k)}`)
    .join('&');
  const [base, fragment] = splitFragment(url);
  const joiner = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${joiner}${query}${fragment}`;
}

function queryEncode(text: string, name: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate has no UTF-8 form.
    throw new RequestBuildError(`Query parameter "${name}": the name or value is not valid Unicode text.`);
  }
}

function splitFragment(url: string): [string, string] {
  const hash = url.indexOf('#');
  return hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
}
