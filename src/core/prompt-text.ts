/**
 * Prompt texts: the `{{placeholder}}` names a prompt's texts use (offered as
 * `prompt_params`, completed while writing, highlighted), in one place for
 * the parts, the operations and the test suites.
 */
import type { Json, JsonObject } from './json';
import { PLACEHOLDER } from './request-builder';

/** A prompt's fields that hold text a person writes. */
export const PROMPT_TEXT_FIELDS = ['user_prompt', 'system', 'assistant'] as const;
export type PromptTextField = (typeof PROMPT_TEXT_FIELDS)[number];

export function isPromptTextField(field: string): field is PromptTextField {
  return (PROMPT_TEXT_FIELDS as readonly string[]).includes(field);
}

export interface PlaceholderSpan {
  /** Offsets of `{{` and after `}}`. */
  start: number;
  end: number;
  /** Offsets of the name between the braces. */
  nameStart: number;
  nameEnd: number;
  name: string;
}

/** Every well-formed `{{name}}` of a text, in order. */
export function placeholderSpans(text: string): PlaceholderSpan[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => {
    const name = match[1] as string;
    const start = match.index;
    const nameStart = start + match[0].indexOf(name, 2);
    return { start, end: start + match[0].length, nameStart, nameEnd: nameStart + name.length, name };
  });
}

/** The distinct placeholder names of some texts, in order of first use. */
export function placeholdersOf(texts: Iterable<Json | undefined>): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    if (typeof text === 'string') for (const span of placeholderSpans(text)) names.add(span.name);
  }
  return [...names];
}

/** Placeholders `{{name}}` of a prompt's texts, offered as keys of prompt_params. */
export function promptPlaceholders(prompt: JsonObject): string[] {
  return placeholdersOf(PROMPT_TEXT_FIELDS.map((field) => prompt[field]));
}

/**
 * Where a placeholder name is being typed: the text before the cursor ends in
 * `{{` and a partial name. Undefined anywhere else, so completion stays quiet.
 */
export function placeholderBeingTyped(textBeforeCursor: string): { nameStart: number; partial: string } | undefined {
  const match = /\{\{\s*([A-Za-z_][\w.-]*)?$/.exec(textBeforeCursor);
  if (!match) return undefined;
  const partial = match[1] ?? '';
  return { nameStart: textBeforeCursor.length - partial.length, partial };
}
