/**
 * What a resource kind of the service is: its path segment, the key that wraps its fields in a body, its fields and
 * the order the service answers them in, and whether its requests carry the tenant. The kinds themselves are the rows
 * of resource-table.ts.
 */

export type KindId = 'integration' | 'prompt' | 'function' | 'action' | 'agent' | 'intent' | 'datasource' | 'tenant';

export type TenantSegment =
  | 'integrations'
  | 'ai_prompts'
  | 'ai_functions'
  | 'ai_actions'
  | 'agents'
  | 'intents'
  | 'datasources';

export type Segment = TenantSegment | 'tenants';

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
