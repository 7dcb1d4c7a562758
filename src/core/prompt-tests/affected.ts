/**
 * Which suites a push of a tenant folder could change the answers of: those
 * whose prompt or integration has a planned change, and those whose prompt
 * hands a conversation on (next_prompt_id, exit_prompt_id), however many
 * hops away, to a prompt that changed. Pure over the plan and the folder's
 * resources, so CI and VS Code pick the same suites.
 */
import type { Json, JsonObject } from '../json';
import { refersTo, type Suite } from './suite';

/** A planned change, as the tenant plan lists it. */
export interface ChangedResource {
  segment: string;
  id?: number;
  name: string;
}

/** A resource of the pulled folder, with the fields that link prompts. */
export interface FolderResource {
  segment: string;
  id?: number;
  values: JsonObject;
}

const LINKS = ['next_prompt_id', 'exit_prompt_id'] as const;

function nameOf(resource: FolderResource): string | undefined {
  return typeof resource.values.name === 'string' ? resource.values.name : undefined;
}

function linkIds(values: JsonObject): number[] {
  return LINKS.map((field): Json | undefined => values[field]).filter((v): v is number => typeof v === 'number');
}

/** The ids of the folder's prompts that changed or reach a changed prompt through their links. */
function affectedPromptIds(changes: readonly ChangedResource[], resources: readonly FolderResource[]): Set<number> {
  const prompts = resources.filter((r) => r.segment === 'ai_prompts' && r.id !== undefined);
  const affected = new Set<number>(changes.filter((c) => c.segment === 'ai_prompts' && c.id !== undefined).map((c) => c.id as number));
  for (const prompt of prompts) {
    if (changes.some((c) => c.segment === 'ai_prompts' && c.name === nameOf(prompt))) affected.add(prompt.id as number);
  }
  // To a fixed point: each pass lets the effect travel one more link back, and cycles end it as nothing grows.
  let grew = true;
  while (grew) {
    grew = false;
    for (const prompt of prompts) {
      const id = prompt.id as number;
      if (!affected.has(id) && linkIds(prompt.values).some((target) => affected.has(target))) {
        affected.add(id);
        grew = true;
      }
    }
  }
  return affected;
}

/** A predicate over suites: true for those the planned changes can affect. */
export function affectedBy(changes: readonly ChangedResource[], resources: readonly FolderResource[]): (suite: Pick<Suite, 'resource'>) => boolean {
  const prompts = affectedPromptIds(changes, resources);
  return ({ resource: { segment, ref } }) => {
    if (changes.some((c) => c.segment === segment && refersTo(ref, c))) return true;
    if (segment !== 'ai_prompts') return false;
    return resources.some((r) => r.segment === segment && r.id !== undefined && prompts.has(r.id) && refersTo(ref, { id: r.id, name: nameOf(r) }));
  };
}
