/**
 * The service's own reason for a failure, read from a response body of any
 * shape (`{error}`, `{errors: {field: [...]}}`, `{message}`, plain text) and
 * cut to a length a message can carry.
 */
import { isJsonObject } from './json';
import { LIMITS } from './limits';

/** The longest service reason put in a message (core/limits.ts). */
export const MAX_MESSAGE = LIMITS.serviceMessage.value;

/** A service's text as one line no longer than MAX_MESSAGE. */
export function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_MESSAGE) return flat;
  // Cutting between the halves of a surrogate pair would leave invalid text.
  const end = /[\ud800-\udbff]/.test(flat.charAt(MAX_MESSAGE - 1)) ? MAX_MESSAGE - 1 : MAX_MESSAGE;
  return `${flat.slice(0, end)}…`;
}

const MAX_NESTING = LIMITS.serviceMessageNesting.value;

function textOf(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isJsonObject(value) && depth < MAX_NESTING) {
    for (const key of ['message', 'detail', 'title', 'error']) {
      const inner = textOf(value[key], depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => textOf(item)).filter((t): t is string => !!t);
}

export interface ExtractedMessage {
  message?: string;
  fieldErrors?: Record<string, string[]>;
}

/**
 * The spec leaves the error body open, so accept the shapes services use:
 * a plain string, `{error}`, `{message}`, `{errors: {field: [..]}}`,
 * `{errors: [..]}`; HTML pages and empty bodies give nothing. Never throws,
 * and the message is at most MAX_MESSAGE characters and an ellipsis.
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
  if (!isJsonObject(parsed)) return {};
  const errors = parsed.errors;
  if (isJsonObject(errors)) {
    // fromEntries defines each field as its own property: a field named
    // "__proto__" stays a field instead of replacing the object's prototype.
    const fieldErrors: Record<string, string[]> = Object.fromEntries(
      Object.entries(errors).map(([field, messages]) => [field, listOf(messages)]),
    );
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
