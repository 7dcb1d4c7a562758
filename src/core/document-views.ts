/**
 * The views of a resource that open as documents: its whole detail object, a
 * prompt's text and JSON parts, an agent element's prompt text. Each says how
 * its text comes from the detail and which fields its save sends; the one
 * safe-save engine does the rest (checks, conflicts, failures, refresh).
 */
import { maskCredentials, restoreCredentials } from './credentials';
import { formatDocument, parseDocument, type SyntaxProblem } from './json-document';
import { isPromptTextField } from './prompt-text';
import { editableFields, kindById, kindOfSegment } from './resources';
import type { ResourceKind } from './resource-kind';
import { isCausedByEdit, ownedFieldChanges, type FieldProblem } from './save-plan';
import { isElementFileName, type FileLocation } from './uri';
import { validateDocument } from './validation';
import { isJsonObject, type Json, type JsonObject } from './json';

export type ViewRead =
  | {
      ok: true;
      /** The detail object as the save makes it. */
      edited: JsonObject;
      /** The fields the save sends, the only ones a change on the service can conflict with. */
      sends: string[];
    }
  | { ok: false; syntax: SyntaxProblem[]; problems: FieldProblem[] };

export interface DocumentView {
  readonly kind: ResourceKind;
  /** The document's text; throws `MissingPartError` when the detail has no such part. */
  render(detail: JsonObject, options?: { revealCredentials?: boolean }): string;
  /** The user's text as a save: what it sends, or why nothing may be sent. */
  read(text: string, base: JsonObject): ViewRead;
}

/** A part that the resource no longer holds (an agent element renamed or removed). */
export class MissingPartError extends Error {}

function refused(problems: FieldProblem[], syntax: SyntaxProblem[] = []): ViewRead {
  return { ok: false, syntax, problems };
}

/** The whole detail object, credentials masked unless revealed. */
function wholeView(kind: ResourceKind): DocumentView {
  return {
    kind,
    render: (detail, options) => formatDocument(options?.revealCredentials ? detail : maskCredentials(kind.id, detail)),
    read(text, base) {
      const { value, syntaxProblems } = parseDocument(text);
      if (syntaxProblems.length > 0) return refused([], syntaxProblems);
      if (!isJsonObject(value))
        return refused([{ path: [], keyword: 'type', message: 'the document must be a JSON object' }]);
      // Masked credentials the user left alone are the service's values.
      const edited = restoreCredentials(kind.id, value, base);
      const problems = [
        ...ownedFieldChanges(kind, base, edited),
        ...validateDocument(kind.segment, edited).filter((p) => isCausedByEdit(base, edited, p)),
      ];
      if (problems.length > 0) return refused(problems);
      return {
        ok: true,
        edited,
        sends: editableFields(kind).filter((field) => Object.prototype.hasOwnProperty.call(edited, field)),
      };
    },
  };
}

/** `system`, `user_prompt`, `assistant`: the string exactly, null as empty. */
function textPartView(kind: ResourceKind, field: string): DocumentView {
  return {
    kind,
    render: (detail) => (typeof detail[field] === 'string' ? (detail[field] as string) : ''),
    read: (text, base) => ({ ok: true, edited: { ...base, [field]: text }, sends: [field] }),
  };
}

/** The JSON a string field holds; undefined when it holds none, or holds text that does not parse. */
function heldJson(value: Json | undefined): { parsed: unknown } | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const { value: parsed, syntaxProblems } = parseDocument(value);
  return syntaxProblems.length === 0 ? { parsed } : undefined;
}

/**
 * `function_defs` (an array) and `settings` (an object): the parsed JSON
 * indented by two spaces, sent back as compact JSON text. A stored text that
 * does not parse is shown as it is, so the user can mend it.
 */
function jsonPartView(kind: ResourceKind, field: 'function_defs' | 'settings'): DocumentView {
  const empty = field === 'function_defs' ? [] : {};
  return {
    kind,
    render(detail) {
      const value = detail[field];
      if (value === null || value === undefined || (typeof value === 'string' && value.trim() === ''))
        return formatDocument(empty);
      const held = heldJson(value);
      return held ? formatDocument(held.parsed) : String(value);
    },
    read(text, base) {
      const { value, syntaxProblems } = parseDocument(text);
      if (syntaxProblems.length > 0) return refused([], syntaxProblems);
      const problems = field === 'function_defs' ? validateDocument('function_defs', value) : settingsProblems(value);
      const before = heldJson(base[field])?.parsed as Json | undefined;
      // As for whole documents, only what the user changed can block the save.
      const caused = problems.filter((p) => isCausedByEdit(before, value as Json, p));
      if (caused.length > 0) return refused(caused);
      return { ok: true, edited: { ...base, [field]: JSON.stringify(value) }, sends: [field] };
    },
  };
}

function settingsProblems(value: unknown): FieldProblem[] {
  return isJsonObject(value)
    ? []
    : [{ path: [], keyword: 'type', message: 'settings must be a JSON object, such as {"language": "en"}' }];
}

/** The elements of an agent's `configuration.prompt`; undefined when it has no such list. */
export function agentElements(detail: JsonObject): JsonObject[] | undefined {
  const configuration = detail.configuration;
  const prompts = isJsonObject(configuration) ? configuration.prompt : undefined;
  return Array.isArray(prompts) ? prompts.filter(isJsonObject) : undefined;
}

/** The names of an agent's prompt elements that can name a document of their own. */
export function agentElementNames(detail: JsonObject): string[] {
  return (agentElements(detail) ?? []).flatMap((e) =>
    typeof e.name === 'string' && isElementFileName(e.name) ? [e.name] : [],
  );
}

/** The names of an agent's prompt elements that cannot name a document of their own (agentElementNames leaves them out). */
export function agentElementsLeftOut(detail: JsonObject): string[] {
  return (agentElements(detail) ?? []).flatMap((e) =>
    typeof e.name === 'string' && !isElementFileName(e.name) ? [e.name] : [],
  );
}

/** Why the elements `names` have no document of their own, and the fix; each name quoted as JSON, so it reads as data. */
export function leftOutElementsNote(names: readonly string[]): string {
  const listed = names.map((name) => JSON.stringify(name)).join(', ');
  return `Not listed: ${names.length === 1 ? 'the prompt element' : `${names.length} prompt elements`} ${listed}. A name that is empty, "." or "..", or holds "/" cannot name a document: rename it in the agent's document (configuration.prompt) to open its text here.`;
}

/** The `prompt` text of the element of an agent's `configuration.prompt` with this name. */
function agentPromptView(kind: ResourceKind, element: string): DocumentView {
  const find = (detail: JsonObject): JsonObject => {
    const found = agentElements(detail)?.find((e) => e.name === element);
    if (!found)
      throw new MissingPartError(
        `The agent has no prompt element named "${element}" (in configuration.prompt): it was renamed or removed; the agent's configuration.prompt lists the elements it has.`,
      );
    return found;
  };
  return {
    kind,
    render: (detail) => {
      const prompt = find(detail).prompt;
      return typeof prompt === 'string' ? prompt : '';
    },
    read(text, base) {
      try {
        find(base);
      } catch (error) {
        return refused([{ path: ['configuration', 'prompt'], keyword: 'missing', message: (error as Error).message }]);
      }
      const configuration = base.configuration as JsonObject;
      const prompt = (agentElements(base) ?? []).map((e) => (e.name === element ? { ...e, prompt: text } : e));
      return { ok: true, edited: { ...base, configuration: { ...configuration, prompt } }, sends: ['configuration'] };
    },
  };
}

export function viewOf(location: FileLocation): DocumentView {
  switch (location.type) {
    case 'tenant':
      return wholeView(kindById('tenant'));
    case 'resource':
      return wholeView(kindOfSegment(location.segment));
    case 'part': {
      const kind = kindById('prompt');
      const { part } = location;
      return isPromptTextField(part) ? textPartView(kind, part) : jsonPartView(kind, part);
    }
    case 'agentPrompt':
      return agentPromptView(kindById('agent'), location.element);
  }
}
