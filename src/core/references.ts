/**
 * Which resources of a tenant refer to one about to be deleted, so the
 * confirmation can list what the delete would leave dangling.
 */
import type { JsonObject } from './client';
import type { TenantSegment } from './resources';

export interface Reference {
  segment: TenantSegment;
  id: number;
  name: string;
  /** The field that holds the reference, e.g. `ai_prompt_id`. */
  field: string;
}

/** Reference fields per kind: which kind they point at. Prompt links are detail-only fields. */
const REFERENCE_FIELDS: ReadonlyArray<{ from: TenantSegment; field: string; to: TenantSegment }> = [
  { from: 'intents', field: 'ai_prompt_id', to: 'ai_prompts' },
  { from: 'intents', field: 'parent_id', to: 'intents' },
  { from: 'ai_prompts', field: 'next_prompt_id', to: 'ai_prompts' },
  { from: 'ai_prompts', field: 'exit_prompt_id', to: 'ai_prompts' },
  { from: 'ai_actions', field: 'integration_id', to: 'integrations' },
];

/** The kinds whose objects must be read to find references to a resource of `target` (prompts need details). */
export function referringKinds(target: TenantSegment): TenantSegment[] {
  return [...new Set(REFERENCE_FIELDS.filter((r) => r.to === target).map((r) => r.from))];
}

export function findReferences(
  target: { segment: TenantSegment; id: number },
  objects: Partial<Record<TenantSegment, readonly JsonObject[]>>,
): Reference[] {
  const references: Reference[] = [];
  for (const { from, field, to } of REFERENCE_FIELDS) {
    if (to !== target.segment) continue;
    for (const object of objects[from] ?? []) {
      if (object[field] !== target.id || typeof object.id !== 'number') continue;
      if (from === target.segment && object.id === target.id) continue;
      references.push({ segment: from, id: object.id, name: typeof object.name === 'string' ? object.name : `#${object.id}`, field });
    }
  }
  return references;
}
