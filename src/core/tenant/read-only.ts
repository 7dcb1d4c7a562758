/**
 * The read-only references a folder keeps so that its flow map equals the
 * service's (extension-contract.md, "Flow map"): an intent's `ai_actions`, an
 * agent prompt element's `function_ids` and `integration`. The service sets
 * them and a push never sends them, so a folder keeps them apart from the
 * editable fields, in one `readOnly` block a plan compares with the pull and
 * reports when edited, rather than sending or ignoring it. An agent's elements
 * in the block carry their names: the service keeps an element's references
 * by its name across updates, so that is how they are placed back.
 */
import { isJsonObject, own, type Json, type JsonObject } from '../json';
import type { KindId, ResourceKind } from '../resource-kind';

export const READ_ONLY = 'readOnly';

/** What each kind's block holds, as a plan's message names it. */
const HELD: Partial<Record<KindId, string>> = {
  intent: "an intent's ai_actions",
  agent: "an agent prompt element's function_ids and integration",
};

/** What a kind's `readOnly` block holds; undefined for a kind that has none. */
export function readOnlyHeld(kind: ResourceKind): string | undefined {
  return HELD[kind.id];
}

function elements(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** An agent element's references: its functions, and its integration by id and name (never its server or token). */
function elementReferences(element: JsonObject): JsonObject | undefined {
  const functions = elements(own(element, 'function_ids'));
  const integration = own(element, 'integration');
  const id = isJsonObject(integration) ? own(integration, 'id') : undefined;
  const name = isJsonObject(integration) ? own(integration, 'name') : undefined;
  if (functions.length === 0 && id === undefined) return undefined;
  return {
    name: own(element, 'name') ?? null,
    ...(functions.length > 0 ? { function_ids: functions } : {}),
    ...(id === undefined ? {} : { integration: { id, ...(name === undefined ? {} : { name }) } }),
  };
}

/** The block a folder keeps of a detail's read-only references; undefined when it holds none. */
export function readOnlyBlock(kind: ResourceKind, detail: JsonObject): JsonObject | undefined {
  if (kind.id === 'intent') {
    const actions = elements(own(detail, 'ai_actions'));
    return actions.length > 0 ? { ai_actions: actions } : undefined;
  }
  if (kind.id === 'agent') {
    const configuration = own(detail, 'configuration');
    const prompt = (isJsonObject(configuration) ? elements(own(configuration, 'prompt')) : []).flatMap((element) => {
      const references = isJsonObject(element) ? elementReferences(element) : undefined;
      return references ? [references] : [];
    });
    return prompt.length > 0 ? { configuration: { prompt } } : undefined;
  }
  return undefined;
}

/** An agent's elements with each one's references from the block, matched by name in order as the service matches them. */
function placedElements(prompts: Json[], held: Json[]): Json[] {
  const unused = held.filter(isJsonObject);
  return prompts.map((element) => {
    if (!isJsonObject(element)) return element;
    const index = unused.findIndex((r) => own(r, 'name') === own(element, 'name'));
    if (index < 0) return element;
    // The names are equal: the element takes the references, and its own name stays.
    return { ...element, ...unused.splice(index, 1)[0] };
  });
}

/** A folder's values with the block's references where the service holds them, the shape its detail has. */
export function withReadOnly(values: JsonObject): JsonObject {
  const block = own(values, READ_ONLY);
  if (!isJsonObject(block)) return values;
  const out: JsonObject = { ...values };
  const actions = own(block, 'ai_actions');
  if (actions !== undefined) out.ai_actions = actions;
  const heldConfiguration = own(block, 'configuration');
  const held = isJsonObject(heldConfiguration) ? elements(own(heldConfiguration, 'prompt')) : [];
  const configuration = own(values, 'configuration');
  if (held.length > 0 && isJsonObject(configuration)) {
    out.configuration = { ...configuration, prompt: placedElements(elements(own(configuration, 'prompt')), held) };
  }
  return out;
}
