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
  /** The folder's name (the service's, for a delete). */
  name: string;
  /** The changed fields with the service's values: a rename's `old` name is the one a suite written before it uses. */
  values?: ReadonlyArray<{ field: string; old?: Json }>;
}

/** A plan of a push, as far as choosing suites goes. */
export interface PlannedPush {
  changes: readonly ChangedResource[];
  /** What stands in the way of the push, each `file:line:column: field: message`. */
  problems: readonly string[];
  local: ReadonlyMap<string, FolderResource>;
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
  const affected = new Set<number>(
    changes.filter((c) => c.segment === 'ai_prompts' && c.id !== undefined).map((c) => c.id as number),
  );
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

/** The names a change's resource goes by: the folder's, and before a rename the service's. */
function namesOf(change: ChangedResource): string[] {
  const old = change.values?.find((v) => v.field === 'name')?.old;
  return typeof old === 'string' && old !== change.name ? [change.name, old] : [change.name];
}

export type AffectedSuites = (suite: Pick<Suite, 'resource'>) => boolean;

/** A predicate over suites: true for those the planned changes can affect. */
export function affectedBy(changes: readonly ChangedResource[], resources: readonly FolderResource[]): AffectedSuites {
  const prompts = affectedPromptIds(changes, resources);
  return ({ resource: { segment, ref } }) => {
    if (changes.some((c) => c.segment === segment && namesOf(c).some((name) => refersTo(ref, { ...c, name }))))
      return true;
    if (segment !== 'ai_prompts') return false;
    return resources.some(
      (r) =>
        r.segment === segment &&
        r.id !== undefined &&
        prompts.has(r.id) &&
        refersTo(ref, { id: r.id, name: nameOf(r) }),
    );
  };
}

/**
 * The suites a planned push affects, or the plan's problems: a folder with problems (a file that is not valid JSON, a
 * field the service would refuse) has changes the plan cannot see, so any choice made from it could leave out a suite
 * whose prompt the push changes.
 */
export function affectedByPlan(plan: PlannedPush): { affected: AffectedSuites } | { problems: readonly string[] } {
  if (plan.problems.length > 0) return { problems: plan.problems };
  return { affected: affectedBy(plan.changes, [...plan.local.values()]) };
}
