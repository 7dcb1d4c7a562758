/**
 * The eight resource kinds of the service (service-api.md sections 2 and 4.1).
 * Every other module reads these facts from here instead of repeating them.
 */

export type KindId =
  | 'integration'
  | 'prompt'
  | 'function'
  | 'action'
  | 'agent'
  | 'intent'
  | 'datasource'
  | 'tenant';

export type TenantSegment =
  | 'integrations'
  | 'ai_prompts'
  | 'ai_functions'
  | 'ai_actions'
  | 'agents'
  | 'intents'
  | 'datasources';

export type Segment = TenantSegment | 'tenants';

export function isTenantSegment(segment: string): segment is TenantSegment {
  return (TENANT_SEGMENTS as readonly string[]).includes(segment);
}

export type FieldType = 'string' | 'integer' | 'number' | 'object' | 'array';

export interface FieldSpec {
  readonly type: FieldType;
  /** The service assigns or derives it; a client never changes it. */
  readonly serviceOwned?: true;
  /** Sent on create but never returned (a tenant's admin e-mail and package). */
  readonly requestOnly?: true;
  /** Required in the body of a create request. */
  readonly requiredOnCreate?: true;
}

export interface ResourceKind {
  readonly id: KindId;
  readonly segment: Segment;
  /** The key that wraps the fields in create and update bodies. */
  readonly wrapperKey: string;
  readonly label: string;
  readonly pluralLabel: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Fields of a list (summary) object, in the service's order. */
  readonly summaryFields: readonly string[];
  /** Fields of a detail object, in the service's order. */
  readonly detailFields: readonly string[];
  readonly createResponseFields: readonly string[];
  readonly updateResponseFields: readonly string[];
  /** Extra constant fields of the create response (a prompt's `status: "created"`). */
  readonly createResponseExtras?: Readonly<Record<string, string>>;
  /** Status text of a successful delete. */
  deleteStatus(id: number): string;
  /** Whether requests carry `tenant_id`, and whether the service insists on it. */
  readonly tenantQuery: 'none' | 'required' | 'optional';
}

const VOICES = ['alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse'] as const;
export type Voice = (typeof VOICES)[number];
export const VOICE_OPTIONS: readonly Voice[] = VOICES;

/** Named enumerations of the spec, with their readable names. */
export const ENUMS = {
  promptType: { 1: 'Standard', 2: 'Group', 3: 'API', 4: 'Data analysis', 5: 'Data summary' },
  promptMode: { 1: 'Activated', 2: 'Deactivated', 3: 'Simulated' },
  actionType: { 1: 'Standard', 2: 'Forward', 3: 'Integration', 4: 'Custom' },
  intentType: { 1: 'Standard', 2: 'Group' },
  bookedPackage: { 1: 'standard', 2: 'voice' },
} as const;

export const DATASOURCE_TYPES = ['webpage', 'text', 'file', 'database'] as const;

const owned = { serviceOwned: true } as const;
const str: FieldSpec = { type: 'string' };
const int: FieldSpec = { type: 'integer' };
const obj: FieldSpec = { type: 'object' };
const requiredStr: FieldSpec = { type: 'string', requiredOnCreate: true };
const ownedId: FieldSpec = { type: 'integer', ...owned };

function without(list: readonly string[], ...drop: string[]): string[] {
  return list.filter((f) => !drop.includes(f));
}

const integrationDetail = ['id', 'name', 'system', 'technical_id', 'mode', 'url', 'tec_params', 'tenant_id'];
const promptDetail = [
  'id', 'name', 'description', 'prompt_type', 'group', 'mode', 'user_prompt', 'system', 'assistant',
  'user_name', 'temparature', 'max_tokens', 'ai_model', 'settings', 'function_defs', 'next_prompt_id',
  'exit_prompt_id', 'prompt_mode', 'voice', 'initial_announcement', 'initial_response', 'tenant_id',
];
const functionDetail = ['id', 'name', 'description', 'parameters', 'tenant_id'];
const actionSummary = [
  'id', 'name', 'action_type', 'initial_announcement', 'initial_response', 'voice', 'speak',
  'forward_number', 'integration_id',
];
const actionDetail = [...actionSummary, 'say_before', 'result_prompt', 'tenant_id'];
const agentDetail = ['id', 'name', 'number', 'description', 'configuration', 'tenant_id'];
const intentSummary = [
  'id', 'name', 'display_name', 'intent_type', 'parent_id', 'ai_prompt_id', 'forward_number', 'speak',
];
const intentDetail = [...intentSummary, 'ai_actions', 'tenant_id'];
const datasourceDetail = ['id', 'name', 'type', 'url', 'content', 'status', 'metadata', 'tenant_id'];

export const KINDS: readonly ResourceKind[] = [
  {
    id: 'integration', segment: 'integrations', wrapperKey: 'integration',
    label: 'Integration', pluralLabel: 'Integrations',
    fields: {
      id: ownedId, name: requiredStr, system: requiredStr, technical_id: requiredStr,
      mode: str, url: str, tec_params: obj, tenant_id: ownedId,
    },
    summaryFields: ['id', 'name', 'system', 'technical_id', 'mode'],
    detailFields: integrationDetail,
    createResponseFields: integrationDetail,
    updateResponseFields: integrationDetail,
    deleteStatus: (id) => `Integration ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'prompt', segment: 'ai_prompts', wrapperKey: 'prompt',
    label: 'AI Prompt', pluralLabel: 'AI Prompts',
    fields: {
      id: ownedId, name: requiredStr, description: str, prompt_type: int, group: str, mode: int,
      user_prompt: str, system: str, assistant: str, user_name: str, temparature: { type: 'number' },
      max_tokens: int, ai_model: str, settings: str, function_defs: str, next_prompt_id: int,
      exit_prompt_id: int, prompt_mode: int, voice: str, initial_announcement: str,
      initial_response: str, tenant_id: ownedId,
    },
    summaryFields: ['name', 'id', 'description', 'prompt_type', 'group', 'mode'],
    detailFields: promptDetail,
    createResponseFields: ['id', 'name'],
    createResponseExtras: { status: 'created' },
    updateResponseFields: promptDetail,
    deleteStatus: () => 'Prompt deleted successfully',
    tenantQuery: 'optional',
  },
  {
    id: 'function', segment: 'ai_functions', wrapperKey: 'ai_function',
    label: 'AI Function', pluralLabel: 'AI Functions',
    fields: { id: ownedId, name: requiredStr, description: str, parameters: obj, tenant_id: ownedId },
    summaryFields: ['id', 'name', 'description', 'parameters'],
    detailFields: functionDetail,
    createResponseFields: functionDetail,
    updateResponseFields: functionDetail,
    deleteStatus: (id) => `Function ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'action', segment: 'ai_actions', wrapperKey: 'ai_action',
    label: 'AI Action', pluralLabel: 'AI Actions',
    fields: {
      id: ownedId, name: requiredStr, action_type: { type: 'integer', requiredOnCreate: true },
      initial_announcement: str, initial_response: str, voice: str, speak: str, forward_number: str,
      integration_id: int, say_before: str, result_prompt: str, tenant_id: ownedId,
    },
    summaryFields: actionSummary,
    detailFields: actionDetail,
    createResponseFields: without(actionDetail, 'say_before', 'result_prompt'),
    updateResponseFields: without(actionDetail, 'say_before', 'result_prompt'),
    deleteStatus: (id) => `Action ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'agent', segment: 'agents', wrapperKey: 'agent',
    label: 'Agent', pluralLabel: 'Agents',
    fields: {
      id: ownedId, name: requiredStr, number: { type: 'string', ...owned }, description: str,
      configuration: obj, tenant_id: ownedId,
    },
    summaryFields: ['id', 'name', 'number', 'description'],
    detailFields: agentDetail,
    createResponseFields: ['id', 'name', 'number', 'description', 'tenant_id'],
    updateResponseFields: agentDetail,
    deleteStatus: (id) => `Agent ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'intent', segment: 'intents', wrapperKey: 'intent',
    label: 'Intent', pluralLabel: 'Intents',
    fields: {
      id: ownedId, name: requiredStr, display_name: str,
      intent_type: { type: 'integer', requiredOnCreate: true }, parent_id: int, ai_prompt_id: int,
      forward_number: str, speak: str, ai_actions: { type: 'array', ...owned }, tenant_id: ownedId,
    },
    summaryFields: intentSummary,
    detailFields: intentDetail,
    createResponseFields: without(intentDetail, 'ai_actions'),
    updateResponseFields: without(intentDetail, 'ai_actions'),
    deleteStatus: (id) => `Intent ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'datasource', segment: 'datasources', wrapperKey: 'datasource',
    label: 'Datasource', pluralLabel: 'Datasources',
    fields: {
      id: ownedId, name: requiredStr, type: requiredStr, url: str, content: str,
      status: { type: 'string', ...owned }, metadata: obj, tenant_id: ownedId,
    },
    summaryFields: ['id', 'name', 'type', 'url', 'status'],
    detailFields: datasourceDetail,
    createResponseFields: without(datasourceDetail, 'content'),
    updateResponseFields: without(datasourceDetail, 'content'),
    deleteStatus: (id) => `Datasource ${id} deleted`,
    tenantQuery: 'required',
  },
  {
    id: 'tenant', segment: 'tenants', wrapperKey: 'tenant',
    label: 'Tenant', pluralLabel: 'Tenants',
    fields: {
      id: ownedId, name: requiredStr, auth_token: { type: 'string', ...owned },
      booked_package: { type: 'integer', ...owned },
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

const bySegment = new Map<string, ResourceKind>(KINDS.map((k) => [k.segment, k]));
const byId = new Map<string, ResourceKind>(KINDS.map((k) => [k.id, k]));

export const TENANT_SEGMENTS: readonly TenantSegment[] = KINDS.filter(
  (k): k is ResourceKind & { segment: TenantSegment } => k.segment !== 'tenants',
).map((k) => k.segment);

/** The kind of a segment read from text, which may name none. */
export function kindBySegment(segment: string): ResourceKind | undefined {
  return bySegment.get(segment);
}

/** The kind of a segment the types already vouch for. */
export function kindOfSegment(segment: Segment): ResourceKind {
  const kind = bySegment.get(segment);
  if (!kind) throw new Error(`unknown resource segment ${segment}`);
  return kind;
}

export function kindById(id: KindId): ResourceKind {
  const kind = byId.get(id);
  if (!kind) {
    throw new Error(`unknown resource kind ${id}`);
  }
  return kind;
}

/** Fields a client may send in an update body: the detail fields it does not own. */
const editable = new WeakMap<ResourceKind, readonly string[]>();

export function editableFields(kind: ResourceKind): readonly string[] {
  // Asked once per resource by a pull or plan of thousands: computed once per kind.
  let fields = editable.get(kind);
  if (!fields) {
    fields = kind.detailFields.filter((f) => !kind.fields[f]?.serviceOwned);
    editable.set(kind, fields);
  }
  return fields;
}

/** Fields a client may send in a create body. */
export function createFields(kind: ResourceKind): string[] {
  return Object.keys(kind.fields).filter((f) => !kind.fields[f]?.serviceOwned);
}

export function serviceOwnedFields(kind: ResourceKind): string[] {
  return Object.keys(kind.fields).filter((f) => kind.fields[f]?.serviceOwned);
}

export function requiredOnCreate(kind: ResourceKind): string[] {
  return Object.keys(kind.fields).filter((f) => kind.fields[f]?.requiredOnCreate);
}
