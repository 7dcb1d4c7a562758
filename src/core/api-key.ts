/**
 * The API Key of a request definition (service-api.md section 2.9): a literal,
 * or a reference to an environment variable or a VS Code secret, so the key
 * itself need not be written into a workspace file.
 */
import { isJsonObject } from './json';

export type ApiKeyRef =
  | { kind: 'none' }
  | { kind: 'literal'; value: string }
  | { kind: 'env'; name: string }
  | { kind: 'secret'; name: string };

/** `${env:NAME}` or `${secret:NAME}`, the whole value. */
const REFERENCE = /^\$\{(env|secret):([A-Za-z_][A-Za-z0-9_.-]*)\}$/;

/** Shown in place of a secret in previews. */
export const MASK = '••••••';

/**
 * What `api_key` asks for. A missing, empty or blank value is none: a blank
 * key could never authorise anything, so it should read as "not set". Only
 * strings are keys; other values (a schema problem) count as none.
 */
export function parseApiKey(value: unknown): ApiKeyRef {
  if (typeof value !== 'string' || value.trim() === '') {
    return { kind: 'none' };
  }
  const reference = REFERENCE.exec(value);
  if (reference) {
    const name = reference[2] as string;
    return reference[1] === 'env' ? { kind: 'env', name } : { kind: 'secret', name };
  }
  return { kind: 'literal', value };
}

/** A value that looks like a reference (`${...}`) but is not a valid one, which would otherwise be sent as a literal key. */
export function isMalformedReference(value: unknown): boolean {
  return typeof value === 'string' && value.trimStart().startsWith('${') && parseApiKey(value).kind === 'literal';
}

/**
 * A deep copy of `value` with every occurrence of `secret` inside its strings
 * replaced by MASK, for showing a built request. Any non-empty secret is
 * masked, however short: a garbled preview is better than a leaked key. The
 * percent-encoded form is masked too, in case the key reached a URL. Object
 * keys are left alone (they are names, not values); the value is JSON-like,
 * so it holds no cycles.
 */
export function maskSecret<T>(value: T, secret: string | undefined): T {
  if (secret === undefined || secret === '') {
    return mapStrings(value, (text) => text) as T;
  }
  const forms = [...new Set([secret, safeEncode(secret)])].filter((form): form is string => form !== undefined);
  return mapStrings(value, (text) => forms.reduce((masked, form) => masked.split(form).join(MASK), text)) as T;
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') {
    return map(value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => mapStrings(item, map));
  }
  if (isJsonObject(value)) {
    // fromEntries defines own properties, so a `__proto__` key stays a key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  }
  return value;
}

/** A secret holding a lone surrogate has no percent-encoded form. */
function safeEncode(text: string): string | undefined {
  try {
    return encodeURIComponent(text);
  } catch {
    return undefined;
  }
}
