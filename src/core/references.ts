/**
 * References between a tenant's resources: which fields hold them, where they
 * sit in a document's text (for links, names, completion and warnings), and
 * which known resources refer to one about to be deleted, so the delete
 * confirmation can list what it would leave dangling.
 */
import { type Node, parseTree } from './jsonc';
import type { JsonObject } from './json';
import type { TextRange } from './json-document';
import { resourceLabel } from './labels';
import { kindOfSegment } from './resources';
import type { TenantSegment } from './resource-kind';

export interface Reference {
  segment: TenantSegment;
  id: number;
  name: string;
  /** The field that holds the reference, e.g. `ai_prompt_id`. */
  field: string;
}

export interface ReferenceField {
  from: TenantSegment;
  field: string;
  to: TenantSegment;
  /** Whether null (no reference) is a valid value, as the kind's schema says. */
  nullable: boolean;
}

/** Reference fields per kind: which kind they point at. Prompt links are detail-only fields. */
export const REFERENCE_FIELDS: readonly ReferenceField[] = [
  { from: 'intents', field: 'ai_prompt_id', to: 'ai_prompts', nullable: true },
  { from: 'intents', field: 'parent_id', to: 'intents', nullable: true },
  { from: 'ai_prompts', field: 'next_prompt_id', to: 'ai_prompts', nullable: true },
  { from: 'ai_prompts', field: 'exit_prompt_id', to: 'ai_prompts', nullable: true },
  { from: 'ai_actions', field: 'integration_id', to: 'integrations', nullable: true },
];

export function referenceFieldsOf(segment: TenantSegment): ReferenceField[] {
  return REFERENCE_FIELDS.filter((r) => r.from === segment);
}

/** The kinds whose objects may hold references to a resource of `target` (a prompt's links are in its detail only). */
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
      references.push({
        segment: from,
        id: object.id,
        name: typeof object.name === 'string' ? object.name : `#${object.id}`,
        field,
      });
    }
  }
  return references;
}

/**
 * What several sources know of a tenant's resources, one object per resource: a later source's fields win
 * (a listing's summary, then a pulled folder's files, then the detail an open document was read from).
 */
export function mergeKnown(
  sources: ReadonlyArray<Partial<Record<TenantSegment, readonly JsonObject[]>>>,
): Partial<Record<TenantSegment, JsonObject[]>> {
  const merged: Partial<Record<TenantSegment, Map<number, JsonObject>>> = {};
  for (const source of sources) {
    for (const [segment, objects] of Object.entries(source) as Array<[TenantSegment, readonly JsonObject[]]>) {
      const byId = (merged[segment] ??= new Map<number, JsonObject>());
      for (const object of objects) {
        if (typeof object.id === 'number') byId.set(object.id, { ...byId.get(object.id), ...object });
      }
    }
  }
  return Object.fromEntries(Object.entries(merged).map(([segment, byId]) => [segment, [...byId.values()]]));
}

/** `AI Prompt`: how messages name a kind. */
export function kindLabel(segment: TenantSegment): string {
  return kindOfSegment(segment).label;
}

/** An id as the URIs and the service know them: a non-negative integer. */
export function isResourceId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A reference field's value in a document's text. */
export interface ReferenceValue extends TextRange {
  reference: ReferenceField;
  /** The id the value names; null for JSON null; undefined for a value that names no id (a string, a fraction). */
  id: number | null | undefined;
}

export type ReferenceToId = ReferenceValue & { id: number };

export function namesId(value: ReferenceValue): value is ReferenceToId {
  return typeof value.id === 'number';
}

/** The top-level properties of a document's object, tolerating syntax errors elsewhere, so links do not flicker while the user types. */
function topLevelProperties(text: string): Node[] {
  const root = parseTree(text);
  return root?.type === 'object' ? (root.children ?? []) : [];
}

/** The reference fields of a resource document, only at its top level: a nested object's keys are not the resource's fields. */
export function findReferenceValues(text: string, segment: TenantSegment): ReferenceValue[] {
  const fields = referenceFieldsOf(segment);
  if (fields.length === 0) return [];
  const found: ReferenceValue[] = [];
  for (const property of topLevelProperties(text)) {
    const [key, value] = property.children ?? [];
    const reference = fields.find((f) => f.field === key?.value);
    if (!reference || !value) continue;
    const id =
      value.type === 'null' ? null : value.type === 'number' && isResourceId(value.value) ? value.value : undefined;
    found.push({ reference, offset: value.offset, length: value.length, id });
  }
  return found;
}

/** Where completion on a reference field edits its value. */
export interface ReferenceEdit {
  reference: ReferenceField;
  /** What a chosen item replaces: the value, or the word typed in its place; always holds the offset. */
  range: TextRange;
  /** The text in `range`, e.g. `null`, `3`, or `Ord` typed where the value goes. */
  current: string;
}

/** The reference whose value holds `offset` (from just after the colon to the value's end), with what to replace. */
export function referenceValueAt(text: string, segment: TenantSegment, offset: number): ReferenceEdit | undefined {
  const fields = referenceFieldsOf(segment);
  for (const property of topLevelProperties(text)) {
    const [key, value] = property.children ?? [];
    const reference = fields.find((f) => f.field === key?.value);
    if (!reference || property.colonOffset === undefined || offset <= property.colonOffset) continue;
    const range = value ? valueRange(value, offset) : typedRange(text, property.colonOffset + 1, offset);
    if (range === 'outside') continue;
    if (range === undefined) return undefined;
    const current = text.slice(range.offset, range.offset + range.length);
    // VS Code takes a completion range on the cursor's line only.
    return /[\r\n]/.test(current) ? undefined : { reference, range, current };
  }
  return undefined;
}

function valueRange(value: Node, offset: number): TextRange | 'outside' | undefined {
  const end = value.offset + value.length;
  if (offset > end) return 'outside';
  if (value.type === 'object' || value.type === 'array') return undefined;
  // Before the value (just after the colon) the replacement still takes the whole value, not a part of it.
  const start = Math.min(offset, value.offset);
  return { offset: start, length: end - start };
}

/** No value parsed (nothing yet, or a word the parser skipped): the text up to the next comma, brace or line end. */
function typedRange(text: string, start: number, offset: number): TextRange | 'outside' {
  const length = text.slice(start).search(/[,}\r\n]/);
  const end = length < 0 ? text.length : start + length;
  if (offset > end) return 'outside';
  const typed = text.slice(start, end);
  const first = start + (typed.length - typed.trimStart().length);
  const last = start + typed.trimEnd().length;
  const from = first < last ? Math.min(first, offset) : offset;
  const to = first < last ? Math.max(last, offset) : offset;
  return { offset: from, length: to - from };
}

/**
 * What a completion item filters by. VS Code matches what lies between the
 * range's start and the cursor; a literal already in place (`null`, `3`) is
 * no search, so every item must match it, while a typed word searches the names.
 */
export function completionFilterText(current: string, label: string): string {
  return isLiteral(current) ? `${current} ${label}` : label;
}

/** `null` or a number in place. */
const isLiteral = (current: string): boolean => /^(null|-?\d[\d.eE+-]*)$/.test(current);

/** Whether a reference's value is a word being typed, a search of the names; not nothing, `null` or a number in place. */
export function isTypedName(current: string): boolean {
  return current.trim() !== '' && !isLiteral(current);
}

/** How a referenced resource is named in hints, hovers and completion. */
export interface TargetName {
  /** `Order Resolution` (an intent's display name where it has one). */
  name: string;
  /** `AI Prompt 3`. */
  label: string;
  /** `AI Prompt 3 · Order Resolution`. */
  heading: string;
  description?: string;
}

export function nameTarget(segment: TenantSegment, item: JsonObject): TargetName {
  const name = resourceLabel(kindOfSegment(segment).id, item).label;
  const label = `${kindLabel(segment)} ${String(item.id)}`;
  const description =
    typeof item.description === 'string' && item.description.trim() !== '' ? item.description.trim() : undefined;
  return { name, label, heading: `${label} · ${name}`, ...(description === undefined ? {} : { description }) };
}

/** The listing's item of that id. */
export function itemWithId(listing: readonly JsonObject[], id: number): JsonObject | undefined {
  return listing.find((item) => item.id === id);
}

/**
 * References to an id the tenant does not hold. `listing` gives the loaded
 * listing of a kind, undefined when it failed: no listing, no warning.
 */
export function danglingReferences(
  values: readonly ReferenceValue[],
  listing: (segment: TenantSegment) => readonly JsonObject[] | undefined,
): ReferenceToId[] {
  return values.filter(namesId).filter((value) => {
    const items = listing(value.reference.to);
    return items !== undefined && itemWithId(items, value.id) === undefined;
  });
}

export function danglingMessage(value: ReferenceToId, tenantId: number): string {
  const { field, to, nullable } = value.reference;
  const plural = kindOfSegment(to).pluralLabel;
  return `${field}: tenant ${tenantId} holds no ${kindLabel(to)} ${value.id}; choose one of its ${plural} (completion lists them)${nullable ? ' or null' : ''}`;
}

/** The `name` of one function definition in a prompt's function_defs document: the text inside its quotes. */
export interface DefinitionName extends TextRange {
  name: string;
}

/** Each element's own `name`; a `name` deeper down (a parameter called `name`) is no definition's. */
export function findFunctionDefinitionNames(text: string): DefinitionName[] {
  const root = parseTree(text);
  if (root?.type !== 'array') return [];
  const names: DefinitionName[] = [];
  for (const element of root.children ?? []) {
    if (element.type !== 'object') continue;
    for (const property of element.children ?? []) {
      const [key, value] = property.children ?? [];
      if (key?.value !== 'name' || value?.type !== 'string' || typeof value.value !== 'string') continue;
      names.push({ name: value.value, offset: value.offset + 1, length: value.length - 2 });
    }
  }
  return names;
}

/** The definitions named like one of the tenant's AI functions, with that function's id (the first, should names repeat). */
export function definedFunctions<T extends DefinitionName>(
  names: readonly T[],
  functions: readonly JsonObject[],
): Array<{ definition: T; id: number }> {
  return names.flatMap((definition) => {
    const id = functions.find((f) => f.name === definition.name && isResourceId(f.id))?.id;
    return isResourceId(id) ? [{ definition, id }] : [];
  });
}
