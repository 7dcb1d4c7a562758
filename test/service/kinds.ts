/**
 * The local service's own statement of its eight resource kinds, transcribed
 * from service-api.md sections 2 and 4. The extension states the same facts in
 * src/core/resource-table.ts; this file must not import them, or a wrong fact there
 * would be wrong here too and no test could fail. test/unit/service-kinds.test.ts
 * compares the two statements fact by fact.
 *
 * Where the spec says "not shown" (required fields of prompts, actions,
 * intents and datasources; whether those take `tenant_id`), the service makes
 * a choice and states it here like any other fact.
 */

import type { Json } from '../../src/core/json';

export type KindId = 'integration' | 'prompt' | 'function' | 'action' | 'agent' | 'intent' | 'datasource' | 'tenant';

export type FieldType = 'string' | 'integer' | 'number' | 'object' | 'array';

export interface Field {
  readonly type: FieldType;
  /** Assigned or derived by the service; a client's value is dropped. */
  readonly serviceOwned?: true;
  /** Accepted in a request but never rendered in an answer. */
  readonly requestOnly?: true;
  readonly requiredOnCreate?: true;
  /** The only values accepted, when the spec enumerates them. */
  readonly allowed?: readonly Json[];
}

export interface Kind {
  readonly id: KindId;
  /** The path segment `<R>` of section 4.1. */
  readonly segment: string;
  /** The body key `<K>` of section 4.1. */
  readonly wrapperKey: string;
  /** The noun of a 404 answer. */
  readonly label: string;
  readonly fields: Readonly<Record<string, Field>>;
  /** In the order each answer renders them. */
  readonly summaryFields: readonly string[];
  readonly detailFields: readonly string[];
  readonly createResponseFields: readonly string[];
  readonly updateResponseFields: readonly string[];
  readonly createResponseExtras?: Readonly<Record<string, string>>;
  deleteStatus(id: number): string;
  readonly tenantQuery: 'none' | 'required' | 'optional';
}

/** Section 2.2: also used by actions and agent prompts. */
export const VOICES: readonly string[] = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse'];

const optionalString: Field = { type: 'string' };
const optionalInteger: Field = { type: 'integer' };
const optionalObject: Field = { type: 'object' };
const requiredString: Field = { type: 'string', requiredOnCreate: true };
const assignedId: Field = { type: 'integer', serviceOwned: true };
const voice: Field = { type: 'string', allowed: VOICES };

export const KINDS: readonly Kind[] = [
  {
    id: 'integration',
    segment: 'integrations',
    wrapperKey: 'integration',
    label: 'Integration',
    fields: {
      id: assignedId,
      name: requiredString,
      system: requiredString,
      technical_id: requiredString,
      mode: optionalString,
      url: optionalString,
      tec_params: optionalObject,
      tenant_id: assignedId,
    },
    summaryFields: ['id', 'name', 'system', 'technical_id', 'mode'],
    detailFields: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
    createResponseFields: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
    updateResponseFields: ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'],
    deleteStatus: (id) => `Integration ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'prompt',
    segment: 'ai_prompts',
    wrapperKey: 'prompt',
    label: 'AI Prompt',
    fields: {
      id: assignedId,
      name: requiredString,
      description: optionalString,
      prompt_type: { type: 'integer', allowed: [1, 2, 3, 4, 5] },
      group: optionalString,
      mode: { type: 'integer', allowed: [1, 2, 3] },
      user_prompt: optionalString,
      system: optionalString,
      assistant: optionalString,
      user_name: optionalString,
      temparature: { type: 'number' },
      max_tokens: optionalInteger,
      ai_model: optionalString,
      settings: optionalString,
      function_defs: optionalString,
      next_prompt_id: optionalInteger,
      exit_prompt_id: optionalInteger,
      prompt_mode: optionalInteger,
      voice,
      initial_announcement: optionalString,
      initial_response: optionalString,
      tenant_id: assignedId,
    },
    summaryFields: ['name', 'id', 'description', 'prompt_type', 'group', 'mode'],
    detailFields: [
      'id',
      'name',
      'description',
      'prompt_type',
      'group',
      'mode',
      'user_prompt',
      'system',
      'assistant',
      'user_name',
      'temparature',
      'max_tokens',
      'ai_model',
      'settings',
      'function_defs',
      'next_prompt_id',
      'exit_prompt_id',
      'prompt_mode',
      'voice',
      'initial_announcement',
      'initial_response',
      'tenant_id',
    ],
    createResponseFields: ['id', 'name'],
    createResponseExtras: { status: 'created' },
    updateResponseFields: [
      'id',
      'name',
      'description',
      'prompt_type',
      'group',
      'mode',
      'user_prompt',
      'system',
      'assistant',
      'user_name',
      'temparature',
      'max_tokens',
      'ai_model',
      'settings',
      'function_defs',
      'next_prompt_id',
      'exit_prompt_id',
      'prompt_mode',
      'voice',
      'initial_announcement',
      'initial_response',
      'tenant_id',
    ],
    deleteStatus: () => 'Prompt deleted successfully',
    tenantQuery: 'optional',
  },
  {
    id: 'function',
    segment: 'ai_functions',
    wrapperKey: 'ai_function',
    label: 'AI Function',
    fields: {
      id: assignedId,
      name: requiredString,
      description: optionalString,
      parameters: optionalObject,
      tenant_id: assignedId,
    },
    summaryFields: ['id', 'name', 'description', 'parameters'],
    detailFields: ['id', 'name', 'description', 'parameters', 'tenant_id'],
    createResponseFields: ['id', 'name', 'description', 'parameters', 'tenant_id'],
    updateResponseFields: ['id', 'name', 'description', 'parameters', 'tenant_id'],
    deleteStatus: (id) => `Function ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'action',
    segment: 'ai_actions',
    wrapperKey: 'ai_action',
    label: 'AI Action',
    fields: {
      id: assignedId,
      name: requiredString,
      action_type: { type: 'integer', requiredOnCreate: true, allowed: [1, 2, 3, 4] },
      initial_announcement: optionalString,
      initial_response: optionalString,
      voice,
      speak: optionalString,
      forward_number: optionalString,
      integration_id: optionalInteger,
      say_before: optionalString,
      result_prompt: optionalString,
      tenant_id: assignedId,
    },
    summaryFields: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
    ],
    detailFields: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'say_before',
      'result_prompt',
      'tenant_id',
    ],
    createResponseFields: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'tenant_id',
    ],
    updateResponseFields: [
      'id',
      'name',
      'action_type',
      'initial_announcement',
      'initial_response',
      'voice',
      'speak',
      'forward_number',
      'integration_id',
      'tenant_id',
    ],
    deleteStatus: (id) => `Action ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'agent',
    segment: 'agents',
    wrapperKey: 'agent',
    label: 'Agent',
    fields: {
      id: assignedId,
      name: requiredString,
      number: { type: 'string', serviceOwned: true },
      description: optionalString,
      configuration: optionalObject,
      tenant_id: assignedId,
    },
    summaryFields: ['id', 'name', 'number', 'description'],
    detailFields: ['id', 'name', 'number', 'description', 'configuration', 'tenant_id'],
    createResponseFields: ['id', 'name', 'number', 'description', 'tenant_id'],
    updateResponseFields: ['id', 'name', 'number', 'description', 'configuration', 'tenant_id'],
    deleteStatus: (id) => `Agent ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'intent',
    segment: 'intents',
    wrapperKey: 'intent',
    label: 'Intent',
    fields: {
      id: assignedId,
      name: requiredString,
      display_name: optionalString,
      intent_type: { type: 'integer', requiredOnCreate: true, allowed: [1, 2] },
      parent_id: optionalInteger,
      ai_prompt_id: optionalInteger,
      forward_number: optionalString,
      speak: optionalString,
      ai_actions: { type: 'array', serviceOwned: true },
      tenant_id: assignedId,
    },
    summaryFields: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
    ],
    detailFields: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'ai_actions',
      'tenant_id',
    ],
    createResponseFields: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'tenant_id',
    ],
    updateResponseFields: [
      'id',
      'name',
      'display_name',
      'intent_type',
      'parent_id',
      'ai_prompt_id',
      'forward_number',
      'speak',
      'tenant_id',
    ],
    deleteStatus: (id) => `Intent ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'datasource',
    segment: 'datasources',
    wrapperKey: 'datasource',
    label: 'Datasource',
    fields: {
      id: assignedId,
      name: requiredString,
      type: { type: 'string', requiredOnCreate: true, allowed: ['webpage', 'text', 'file', 'database'] },
      url: optionalString,
      content: optionalString,
      status: { type: 'string', serviceOwned: true },
      metadata: optionalObject,
      tenant_id: assignedId,
    },
    summaryFields: ['id', 'name', 'type', 'url', 'status'],
    detailFields: ['id', 'name', 'type', 'url', 'content', 'status', 'metadata', 'tenant_id'],
    createResponseFields: ['id', 'name', 'type', 'url', 'status', 'metadata', 'tenant_id'],
    updateResponseFields: ['id', 'name', 'type', 'url', 'status', 'metadata', 'tenant_id'],
    deleteStatus: (id) => `Datasource ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'tenant',
    segment: 'tenants',
    wrapperKey: 'tenant',
    label: 'Tenant',
    fields: {
      id: assignedId,
      name: requiredString,
      auth_token: { type: 'string', serviceOwned: true },
      booked_package: { type: 'integer', serviceOwned: true },
      email: { type: 'string', requestOnly: true, requiredOnCreate: true },
      package: { type: 'string', requestOnly: true },
    },
    summaryFields: ['id', 'name', 'booked_package'],
    detailFields: ['id', 'name', 'auth_token', 'booked_package'],
    createResponseFields: ['id', 'name', 'auth_token', 'booked_package'],
    updateResponseFields: ['id', 'name', 'auth_token'],
    deleteStatus: (id) => `Tenant ${id} deleted`,
    tenantQuery: 'none',
  },
];

const bySegment = new Map<string, Kind>(KINDS.map((k) => [k.segment, k]));

export function kindBySegment(segment: string): Kind | undefined {
  return bySegment.get(segment);
}

export function kindById(id: KindId): Kind {
  const kind = KINDS.find((k) => k.id === id);
  if (!kind) {
    throw new Error(`unknown resource kind ${id}`);
  }
  return kind;
}

/** The fields a client may send on create or update: every field the service does not own. */
export function clientFields(kind: Kind): string[] {
  return Object.keys(kind.fields).filter((f) => !kind.fields[f]?.serviceOwned);
}
