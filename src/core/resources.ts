/**
 * The resource kinds as the rest of the code asks for them: by segment or id, the tenant's segments, the fields a
 * request may send, and the spec's named enumerations of field values. The kinds' rows are in resource-table.ts.
 */
import type { KindId, ResourceKind, Segment, TenantSegment } from './resource-kind';
import { KINDS } from './resource-table';

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

const bySegment = new Map<string, ResourceKind>(KINDS.map((k) => [k.segment, k]));
const byId = new Map<string, ResourceKind>(KINDS.map((k) => [k.id, k]));

export const TENANT_SEGMENTS: readonly TenantSegment[] = KINDS.filter(
  (k): k is ResourceKind & { segment: TenantSegment } => k.segment !== 'tenants',
).map((k) => k.segment);

export function isTenantSegment(segment: string): segment is TenantSegment {
  return (TENANT_SEGMENTS as readonly string[]).includes(segment);
}

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
