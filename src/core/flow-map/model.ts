/**
 * The flow map of a tenant (extension-contract.md, "Flow map"): its resources
 * as nodes, the references between them as edges, and what is wrong with
 * them. One model for the panel, the command's answer and `convai map`.
 */
import type { JsonObject } from '../json';
import type { Segment, TenantSegment } from '../resource-kind';
import type { PromptRole } from './prompt-roles';

/** What a reference means, in the contract's order, which is also the order of one resource's edges. */
export const EDGE_KINDS = ['next', 'exit', 'intent', 'parent', 'action', 'integration', 'function'] as const;
export type EdgeKind = (typeof EDGE_KINDS)[number];

export interface FlowNode {
  /** `<segment>/<id>`; a folder's resource without an id (created by the next push) `<segment>/<file name>`. */
  id: string;
  segment: TenantSegment;
  name: string;
  /** A prompt the tenant's tests give a part (prompt-roles.ts): never unreachable. Absent for the rest. */
  role?: PromptRole;
}

/** From the resource that holds the field to the one it names. */
export interface FlowEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

/** A reference to a resource the tenant does not hold: `target` is the node it would be (`ai_prompts/99`), or the file named. */
export interface DanglingProblem {
  kind: 'dangling';
  from: string;
  /** Where the reference sits in the resource, e.g. `next_prompt_id` or `configuration.prompt[0].integration.id`. */
  field: string;
  target: string;
}

/** A prompt no intent, agent or other prompt leads to, in a tenant that has intents or agents, and which has no role. */
export interface UnreachableProblem {
  kind: 'unreachable';
  node: string;
}

export type FlowProblem = DanglingProblem | UnreachableProblem;

export interface FlowMap {
  nodes: FlowNode[];
  edges: FlowEdge[];
  problems: FlowProblem[];
}

/** A resource as the map reads it, from a folder's files or from the service's details alike. */
export interface MapResource {
  segment: Segment;
  id?: number;
  /** The folder's JSON file (`ai_prompts/welcome.json`), where there is one: references may name it. */
  file?: string;
  name: string;
  /** The resource's fields. */
  values: JsonObject;
}

/** The node id of a resource: by its id, else by its file (a folder's resource the service does not hold yet). */
export function nodeId(resource: Pick<MapResource, 'segment' | 'id' | 'file'>): string {
  if (resource.id !== undefined) return `${resource.segment}/${resource.id}`;
  if (resource.file === undefined)
    throw new Error(`a ${resource.segment} resource has neither an id nor a file, so the map cannot name it`);
  // The file is already `<segment>/<file name>`.
  return resource.file;
}
