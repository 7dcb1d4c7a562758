/**
 * The flow map built from a tenant's resources, wherever they were read: a
 * pulled folder's files or the service's details give the same map for the
 * same tenant. The output's order depends on the resources alone, never on
 * the order they came in, so a map in a pull request only changes when the
 * tenant does.
 */
import { isTenantSegment, TENANT_SEGMENTS } from '../resources';
import type { TenantSegment } from '../resource-kind';
import { heldReferences, type HeldReference } from './held-references';
import {
  EDGE_KINDS,
  nodeId,
  type FlowEdge,
  type FlowMap,
  type FlowNode,
  type FlowProblem,
  type MapResource,
} from './model';
import { NO_USES, promptRole, type PromptUses } from './prompt-roles';

/** Segments that lead a conversation to a prompt: while a tenant has none, no prompt can be called unreachable. */
const ENTRY_SEGMENTS: readonly TenantSegment[] = ['intents', 'agents'];

type Placed = MapResource & { segment: TenantSegment };

function isTenantKind(resource: MapResource): resource is Placed {
  return isTenantSegment(resource.segment);
}

/** Kinds in the resource table's order; within one, ids in numbers' order, then the files of resources not created yet. */
function byPlace(a: Placed, b: Placed): number {
  const kind = TENANT_SEGMENTS.indexOf(a.segment) - TENANT_SEGMENTS.indexOf(b.segment);
  if (kind !== 0) return kind;
  if (a.id !== undefined && b.id !== undefined) return a.id - b.id;
  if (a.id !== undefined || b.id !== undefined) return a.id === undefined ? 1 : -1;
  const [fa, fb] = [a.file ?? '', b.file ?? ''];
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/**
 * `unread`: the resources the tenant holds whose files could not be read, by node id and by file. A reference to one
 * is neither an edge (there is no node) nor dangling (the resource is there): the reader says the file is unreadable.
 * `uses`: what the tenant's test files make of its prompts, which gives a prompt its role.
 */
export function buildFlowMap(
  resources: readonly MapResource[],
  unread: ReadonlySet<string> = new Set(),
  uses: PromptUses = NO_USES,
): FlowMap {
  const placed = resources.filter(isTenantKind).sort(byPlace);
  const nodes: FlowNode[] = [];
  const held = new Map<string, Placed>();
  for (const resource of placed) {
    const id = nodeId(resource);
    // Two files claiming one id are the plan's problem to report; the map draws the first.
    if (held.has(id)) continue;
    held.set(id, resource);
    const role = resource.segment === 'ai_prompts' ? promptRole(resource, uses) : undefined;
    nodes.push({ id, segment: resource.segment, name: resource.name, ...(role ? { role } : {}) });
  }
  const byFile = new Map([...held].flatMap(([id, r]) => (r.file === undefined ? [] : [[r.file, id] as const])));
  const functionNamed = new Map<string, string>();
  for (const [id, r] of held)
    if (r.segment === 'ai_functions' && !functionNamed.has(r.name)) functionNamed.set(r.name, id);

  /** The node a reference leads to; undefined when the tenant holds no such resource of the kind it names. */
  const resolve = ({ to, target }: HeldReference): string | undefined => {
    const id =
      'id' in target
        ? `${to}/${target.id}`
        : 'file' in target
          ? byFile.get(target.file)
          : functionNamed.get(target.name);
    return id !== undefined && held.get(id)?.segment === to ? id : undefined;
  };

  const edges = new Map<string, FlowEdge>();
  const problems: FlowProblem[] = [];
  for (const [from, resource] of held) {
    for (const reference of heldReferences(resource.segment, resource.values)) {
      const to = resolve(reference);
      if (to !== undefined) edges.set(`${from}\n${to}\n${reference.kind}`, { from, to, kind: reference.kind });
      // A definition no AI function bears is the prompt's own function, not a broken reference.
      else if (!('name' in reference.target)) {
        const { target } = reference;
        const missing = 'id' in target ? `${reference.to}/${target.id}` : target.file;
        if (!unread.has(missing)) problems.push({ kind: 'dangling', from, field: reference.field, target: missing });
      }
    }
  }

  const rank = new Map(nodes.map((n, i) => [n.id, i]));
  const at = (id: string): number => rank.get(id) ?? -1;
  const sorted = [...edges.values()].sort(
    (a, b) => at(a.from) - at(b.from) || EDGE_KINDS.indexOf(a.kind) - EDGE_KINDS.indexOf(b.kind) || at(a.to) - at(b.to),
  );

  if (nodes.some((n) => ENTRY_SEGMENTS.includes(n.segment))) {
    // Any edge into a prompt counts (on the wire only intents and prompts name prompts); a hand-over to itself leads nowhere new.
    const reached = new Set(sorted.filter((e) => e.from !== e.to).map((e) => e.to));
    for (const node of nodes)
      if (node.segment === 'ai_prompts' && node.role === undefined && !reached.has(node.id))
        problems.push({ kind: 'unreachable', node: node.id });
  }
  return { nodes, edges: sorted, problems };
}
