/** The model as the page draws it: kinds and problems in words, so the page's script knows no resource table. */
import type { Coverage } from '../core/flow-map/coverage';
import type { FlowMap, FlowNode, FlowProblem } from '../core/flow-map/model';
import { ROLE_TEXT } from '../core/flow-map/prompt-roles';
import { kindOfSegment } from '../core/resources';
import type { MapView, ViewNode, ViewProblem } from './messages';

function problemView(problem: FlowProblem, nameOf: (id: string) => string): ViewProblem {
  if (problem.kind === 'unreachable') {
    return { node: problem.node, text: `${nameOf(problem.node)}: unreachable, no intent, agent or prompt leads to it` };
  }
  return {
    node: problem.from,
    text: `${nameOf(problem.from)}: ${problem.field} names ${problem.target}, which the tenant does not hold`,
  };
}

function nodeView({ id, segment, name, role }: FlowNode): ViewNode {
  const kind = kindOfSegment(segment).label;
  return { id, segment, name, kind, ...(role ? { role: { name: role, text: ROLE_TEXT[role] } } : {}) };
}

export function mapView(map: FlowMap, title: string, focus?: string, coverage?: Coverage): MapView {
  const names = new Map(map.nodes.map((n) => [n.id, n.name]));
  const nameOf = (id: string): string => names.get(id) ?? id;
  return {
    title,
    nodes: map.nodes.map(nodeView),
    edges: map.edges,
    dangling: map.problems.flatMap((p) =>
      p.kind === 'dangling' ? [{ from: p.from, field: p.field, target: p.target }] : [],
    ),
    problems: map.problems.map((p) => problemView(p, nameOf)),
    ...(focus !== undefined && names.has(focus) ? { focus } : {}),
    ...(coverage ? { coverage } : {}),
  };
}
