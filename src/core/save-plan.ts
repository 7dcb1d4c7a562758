/**
 * What a save sends, and what it must refuse before sending anything:
 * pure, so every rule is unit-tested without VS Code.
 */
import { editableFields } from './resources';
import type { ResourceKind } from './resource-kind';
import { canonical, isJsonObject, own, valueAt, type Json, type JsonObject } from './json';

export interface FieldProblem {
  path: Array<string | number>;
  message: string;
  keyword: string;
}

/** The fields of an agent's configuration prompt element that an update sends (section 2.5). */
const AGENT_PROMPT_REQUEST_FIELDS = ['name', 'prompt', 'initial_response', 'voice'];

/** Equal as JSON, whatever the order of an object's keys. */
function same(a: Json | undefined, b: Json | undefined): boolean {
  return canonical(a) === canonical(b);
}

/** A service-owned field whose value the user changed: the save is refused, naming the field. */
export function ownedFieldChanges(kind: ResourceKind, base: JsonObject, edited: JsonObject): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, spec] of Object.entries(kind.fields)) {
    if (!spec.serviceOwned) continue;
    const after = own(edited, field);
    if (after === undefined) continue;
    const before = own(base, field);
    if (!same(before, after)) {
      problems.push({
        path: [field],
        keyword: 'readOnly',
        message: `${field}: owned by the service and cannot be changed; put back ${JSON.stringify(before ?? null)}`,
      });
    }
  }
  return problems;
}

/**
 * Whether a schema problem lies in what the user changed. What the service
 * itself sent (an extra field, a looser value) must not block saving an
 * unrelated edit; the user's own additions and changes are checked in full.
 */
export function isCausedByEdit(base: Json | undefined, edited: Json | undefined, problem: FieldProblem): boolean {
  return !same(valueAt(base, problem.path), valueAt(edited, problem.path));
}

function agentConfiguration(configuration: Json | undefined): Json | undefined {
  if (!isJsonObject(configuration)) return configuration;
  const prompts = own(configuration, 'prompt');
  if (!Array.isArray(prompts)) return configuration;
  return {
    prompt: prompts.map((element) =>
      isJsonObject(element)
        ? Object.fromEntries(
            AGENT_PROMPT_REQUEST_FIELDS.filter((f) => own(element, f) !== undefined).map((f) => [
              f,
              element[f] as Json,
            ]),
          )
        : element,
    ),
  };
}

/** The fields inside the wrapper key of the PUT: the editable fields the document holds. */
export function updateBody(kind: ResourceKind, edited: JsonObject): JsonObject {
  const body: JsonObject = {};
  for (const field of editableFields(kind)) {
    const value = own(edited, field);
    if (value === undefined) continue;
    body[field] = kind.id === 'agent' && field === 'configuration' ? (agentConfiguration(value) ?? null) : value;
  }
  return body;
}

/**
 * The fields among `sends` that changed on the service since `base` was read
 * to something other than what the save sends (`edited`): what the save would
 * overwrite. Fields the save does not send (read-only or derived ones, an
 * `updated_at`, another part's field) are no conflict, nor is a field the
 * service already holds as edited (an earlier save of this text whose answer
 * was lost).
 */
export function conflictingFields(
  kind: ResourceKind,
  sends: readonly string[],
  base: JsonObject,
  current: JsonObject,
  edited: JsonObject,
): string[] {
  const before = updateBody(kind, base);
  const now = updateBody(kind, current);
  const saved = updateBody(kind, edited);
  return sends.filter(
    (field) => !same(own(before, field), own(now, field)) && !same(own(now, field), own(saved, field)),
  );
}

/** The update body of a view: the fields it sends, as the service takes them. */
export function sentBody(kind: ResourceKind, edited: JsonObject, sends: readonly string[]): JsonObject {
  const body = updateBody(kind, edited);
  return Object.fromEntries(Object.entries(body).filter(([field]) => sends.includes(field)));
}

/**
 * Whether the update answer lacks a key the detail had, so the detail must be
 * fetched for the document to equal what the service holds. Services answer
 * shorter than their detail in ways the spec does not list (an `updated_at`).
 */
export function answerLacksDetail(answer: JsonObject, detail: JsonObject): boolean {
  return Object.keys(detail).some((key) => !Object.prototype.hasOwnProperty.call(answer, key));
}
