/** What the map's drawings share: the marks a caller adds, what a node reads as, and the nodes a dangling reference needs. */
import { inertLine } from '../plain-text';
import { kindOfSegment } from '../resources';
import type { FlowMap, FlowNode } from './model';

export interface MapMarks {
  /** Node ids to stand out: the resources a folder's plan would change. */
  changed?: ReadonlySet<string>;
}

/**
 * `Order Triage (AI Prompt)`: the name, and the kind, which a drawing shows no other way. A label is one line of
 * inert text: a name's line breaks would break the drawing's syntax, and its controls and bidirectional overrides
 * would reorder what it shows, so they are written as escapes (`\n`, `\u202E`); each drawing then escapes its own syntax.
 */
export function nodeLabel(node: FlowNode): string {
  return inertLine(`${node.name} (${kindOfSegment(node.segment).label})`);
}

export function missingLabel(target: string): string {
  return inertLine(`missing: ${target}`);
}

/** The targets of dangling references, once each, in the order the problems name them. */
export function missingTargets(map: FlowMap): string[] {
  return [...new Set(map.problems.flatMap((p) => (p.kind === 'dangling' ? [p.target] : [])))];
}
