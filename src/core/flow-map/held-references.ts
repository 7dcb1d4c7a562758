/**
 * The references a resource holds, read from its fields as the service
 * returns them or as a pulled folder keeps them (where a reference may name
 * the file of a resource the next push creates, and a prompt's
 * `function_defs` is parsed JSON rather than its text).
 */
import { parseDocument } from '../json-document';
import { isJsonObject, own, type Json, type JsonObject } from '../json';
import { isResourceId, REFERENCE_FIELDS } from '../references';
import type { Segment, TenantSegment } from '../resource-kind';
import type { EdgeKind } from './model';

/** What a reference names: an id, a folder's file, or (a prompt's function definition) an AI function's name. */
export type ReferenceTarget = { id: number } | { file: string } | { name: string };

export interface HeldReference {
  kind: EdgeKind;
  /** Where it sits in the resource: `next_prompt_id`, `ai_actions[0].id`, `configuration.prompt[1].function_ids[0]`. */
  field: string;
  to: TenantSegment;
  target: ReferenceTarget;
}

/** The edge each plain reference field draws (references.ts lists the fields and the kinds they point at). */
const EDGE_OF_FIELD: Readonly<Record<string, EdgeKind>> = {
  ai_prompt_id: 'intent',
  parent_id: 'parent',
  next_prompt_id: 'next',
  exit_prompt_id: 'exit',
  integration_id: 'integration',
};

/** An id, or in a folder the file of a resource not created yet; anything else (null, a fraction) names nothing. */
function targetOf(value: Json | undefined): ReferenceTarget | undefined {
  if (isResourceId(value)) return { id: value };
  return typeof value === 'string' && value !== '' ? { file: value } : undefined;
}

function fieldReferences(segment: Segment, values: JsonObject): HeldReference[] {
  return REFERENCE_FIELDS.filter((r) => r.from === segment).flatMap(({ field, to }) => {
    const kind = EDGE_OF_FIELD[field];
    const target = targetOf(own(values, field));
    return kind && target ? [{ kind, field, to, target }] : [];
  });
}

function elements(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** An intent's `ai_actions`: elements `{ id, name, action_type }`, read-only on the service. */
function actionReferences(values: JsonObject): HeldReference[] {
  return elements(own(values, 'ai_actions')).flatMap((element, index) => {
    const id = isJsonObject(element) ? own(element, 'id') : undefined;
    return isResourceId(id)
      ? [{ kind: 'action' as const, field: `ai_actions[${index}].id`, to: 'ai_actions' as const, target: { id } }]
      : [];
  });
}

/** An agent's prompt elements: the integration each uses and the AI functions it may call. */
function agentReferences(values: JsonObject): HeldReference[] {
  const configuration = own(values, 'configuration');
  const prompts = isJsonObject(configuration) ? elements(own(configuration, 'prompt')) : [];
  return prompts.flatMap((element, index): HeldReference[] => {
    if (!isJsonObject(element)) return [];
    const at = `configuration.prompt[${index}]`;
    const integration = own(element, 'integration');
    const integrationId = isJsonObject(integration) ? own(integration, 'id') : undefined;
    const functions = elements(own(element, 'function_ids')).flatMap((id, i) =>
      isResourceId(id)
        ? [
            {
              kind: 'function' as const,
              field: `${at}.function_ids[${i}]`,
              to: 'ai_functions' as const,
              target: { id },
            },
          ]
        : [],
    );
    return [
      ...(isResourceId(integrationId)
        ? [
            {
              kind: 'integration' as const,
              field: `${at}.integration.id`,
              to: 'integrations' as const,
              target: { id: integrationId },
            },
          ]
        : []),
      ...functions,
    ];
  });
}

/** The definitions of a prompt's `function_defs`: the service's JSON text, or the array a folder holds. */
function functionDefinitions(value: Json | undefined): Json[] {
  if (typeof value !== 'string') return elements(value);
  const parsed = parseDocument(value).value;
  return Array.isArray(parsed) ? (parsed as Json[]) : [];
}

/** A prompt's function definitions by name: an AI function of that name is what the prompt calls. */
function functionReferences(values: JsonObject): HeldReference[] {
  return functionDefinitions(own(values, 'function_defs')).flatMap((definition, index) => {
    const name = isJsonObject(definition) ? own(definition, 'name') : undefined;
    return typeof name === 'string' && name !== ''
      ? [
          {
            kind: 'function' as const,
            field: `function_defs[${index}].name`,
            to: 'ai_functions' as const,
            target: { name },
          },
        ]
      : [];
  });
}

/** Every reference the resource holds, in the order of its fields. */
export function heldReferences(segment: Segment, values: JsonObject): HeldReference[] {
  const plain = fieldReferences(segment, values);
  switch (segment) {
    case 'intents':
      return [...plain, ...actionReferences(values)];
    case 'ai_prompts':
      return [...plain, ...functionReferences(values)];
    case 'agents':
      return agentReferences(values);
    default:
      return plain;
  }
}
