/** What the map's drawings share: the marks a caller adds, what a node reads as, and the nodes a dangling reference needs. */
import { kindOfSegment } from '../resources';
import type { FlowMap, FlowNode } from './model';

export interface MapMarks {
  /** Node ids to stand out: the resources a folder's plan would change. */
  changed?: ReadonlySet<string>;
}

/** A label holds one line: a name's line breaks and control characters would break the drawing's syntax. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}

/** `Order Triage (AI Prompt)`: the name, and the kind, which a drawing shows no other way. */
export function nodeLabel(node: FlowNode): string {
  return oneLine(`${node.name} (${kindOfSegment(node.segment).label})`);
}

export function missingLabel(target: string): string {
  return oneLine(`missing: ${target}`);
}

/** The targets of dangling references, once each, in the order the problems name them. */
export function missingTargets(map: FlowMap): string[] {
  return [...new Set(map.problems.flatMap((p) => (p.kind === 'dangling' ? [p.target] : [])))];
}
