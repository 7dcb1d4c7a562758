/**
 * The flow map in Graphviz's DOT language. Ids and labels are quoted strings
 * with `\` and `"` escaped, so a name cannot end one early or read as a
 * label escape such as `\N`. HTML tags mean nothing in a quoted string, but
 * Graphviz decodes its entities there (`&lt;b&gt;` would show as `<b>`), so
 * `&` is written `&amp;`.
 */
import { missingLabel, missingTargets, nodeLabel, type MapMarks } from './drawing';
import type { FlowMap } from './model';

function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/&/g, '&amp;')}"`;
}

const DANGLING = 'style=dashed, color=red, fontcolor=red';

/** A node's id never starts with `missing:` (it starts with its segment), so a missing node cannot be taken for one. */
const missingId = (target: string): string => quoted(`missing:${target}`);

export function dotFlowMap(map: FlowMap, marks: MapMarks = {}): string {
  const lines = ['digraph "flow map" {', '  rankdir=LR;', '  node [shape=box];'];
  for (const node of map.nodes) {
    const bold = marks.changed?.has(node.id) ? ', style=bold, penwidth=3' : '';
    lines.push(`  ${quoted(node.id)} [label=${quoted(nodeLabel(node))}${bold}];`);
  }
  for (const target of missingTargets(map))
    lines.push(`  ${missingId(target)} [label=${quoted(missingLabel(target))}, ${DANGLING}];`);
  for (const edge of map.edges)
    lines.push(`  ${quoted(edge.from)} -> ${quoted(edge.to)} [label=${quoted(edge.kind)}];`);
  for (const problem of map.problems) {
    if (problem.kind === 'dangling')
      lines.push(
        `  ${quoted(problem.from)} -> ${missingId(problem.target)} [label=${quoted(problem.field)}, ${DANGLING}];`,
      );
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
