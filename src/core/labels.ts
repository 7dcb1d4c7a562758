/**
 * How a resource reads in the tree and in pickers, from its summary fields
 * alone (list responses), in the words of the service's domain.
 */
import type { JsonObject } from './json';
import { ENUMS } from './resources';
import type { KindId } from './resource-kind';

export interface ResourceLabel {
  label: string;
  description: string;
  /** Summary fields as `name: value` lines, for a tooltip. */
  details: string[];
}

type EnumTable = Readonly<Record<number, string>>;

function named(table: EnumTable, value: unknown): string | undefined {
  return typeof value === 'number' ? table[value] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function joined(...parts: Array<string | undefined>): string {
  return parts.filter((p): p is string => !!p).join(' · ');
}

export function packageName(bookedPackage: unknown): string {
  return named(ENUMS.bookedPackage, bookedPackage) ?? 'unknown package';
}

function describe(kind: KindId, summary: JsonObject): string {
  switch (kind) {
    case 'prompt':
      return joined(
        named(ENUMS.promptType, summary.prompt_type),
        named(ENUMS.promptMode, summary.mode),
        text(summary.group) && `group ${text(summary.group)}`,
      );
    case 'action':
      return joined(named(ENUMS.actionType, summary.action_type), text(summary.forward_number));
    case 'intent':
      return joined(
        text(summary.name) !== text(summary.display_name) ? text(summary.name) : undefined,
        named(ENUMS.intentType, summary.intent_type),
      );
    case 'agent':
      return joined(text(summary.number));
    case 'datasource':
      return joined(text(summary.type), text(summary.status));
    case 'integration':
      return joined(text(summary.system), text(summary.mode));
    case 'tenant':
      return packageName(summary.booked_package);
    case 'function':
      return joined(text(summary.description));
  }
}

/** The coded fields of each kind, read by their names where a person reads them (a tooltip too). */
const CODED: Partial<Record<KindId, Readonly<Record<string, EnumTable>>>> = {
  prompt: { prompt_type: ENUMS.promptType, mode: ENUMS.promptMode },
  action: { action_type: ENUMS.actionType },
  intent: { intent_type: ENUMS.intentType },
  tenant: { booked_package: ENUMS.bookedPackage },
};

function detail(kind: KindId, field: string, value: unknown): string {
  const table = CODED[kind]?.[field];
  const name = table ? named(table, value) : undefined;
  return `${field}: ${name === undefined ? String(value) : `${name} (${String(value)})`}`;
}

/** The name a resource shows as: an intent's display name where it has one, else its name, else its id. */
export function resourceTitle(kind: KindId, summary: JsonObject): string {
  const id = typeof summary.id === 'number' ? summary.id : undefined;
  return (kind === 'intent' ? text(summary.display_name) : undefined) ?? text(summary.name) ?? `#${id ?? '?'}`;
}

/**
 * A resource document's tab: its name and its kind ("Order Triage · AI Prompt"), where its URI's file name would say
 * "2.json", the same for a prompt and an integration.
 */
export function documentTitle(kindLabel: string, name: string): string {
  return `${name} · ${kindLabel}`;
}

export function resourceLabel(kind: KindId, summary: JsonObject): ResourceLabel {
  const title = resourceTitle(kind, summary);
  const details = Object.entries(summary)
    .filter(([, value]) => value !== null && value !== '' && typeof value !== 'object')
    .map(([field, value]) => detail(kind, field, value));
  return { label: title, description: describe(kind, summary), details };
}

/**
 * Intents nested under their `parent_id`. An intent whose parent is missing
 * (or that sits in a cycle) is shown at the top rather than lost.
 */
export function nestByParent(items: readonly JsonObject[]): Map<number | undefined, JsonObject[]> {
  const ids = new Set(items.map((i) => i.id));
  const children = new Map<number | undefined, JsonObject[]>();
  const parentOf = (item: JsonObject): number | undefined =>
    typeof item.parent_id === 'number' && item.parent_id !== item.id && ids.has(item.parent_id) && !inCycle(item)
      ? item.parent_id
      : undefined;
  const byId = new Map(items.map((i) => [i.id, i]));
  function inCycle(item: JsonObject): boolean {
    const seen = new Set<unknown>([item.id]);
    let current = byId.get(item.parent_id ?? undefined);
    while (current) {
      if (seen.has(current.id)) return true;
      seen.add(current.id);
      current = typeof current.parent_id === 'number' ? byId.get(current.parent_id) : undefined;
    }
    return false;
  }
  for (const item of items) {
    const parent = parentOf(item);
    const siblings = children.get(parent) ?? [];
    siblings.push(item);
    children.set(parent, siblings);
  }
  return children;
}
