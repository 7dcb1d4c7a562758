/** A node of the map: a resource, or one a dangling reference names, drawn in its kind's outline. */
import type { ViewNode } from '../messages';
import { svg, text } from './svg';

export const NODE = { width: 200, height: 46 };
/** Characters of a name that fit a node; the whole name is the node's tooltip and accessible name. */
const NAME_FITS = 26;

export interface Placed {
  x: number;
  y: number;
}

/** A resource that a dangling reference names and the tenant does not hold. */
export interface MissingNode {
  id: string;
  segment: 'missing';
  name: string;
  kind: string;
}

/**
 * The node that stands for a resource a dangling reference names: its id cannot be a resource's, which starts with a
 * segment.
 */
export function missingId(target: string): string {
  return `missing:${target}`;
}

/** Each kind's outline, so that kinds differ by more than colour (which a high-contrast theme flattens). */
function shape(segment: string, parent: Element): void {
  const { width: w, height: h } = NODE;
  const polygon = (points: Array<[number, number]>): void =>
    void svg('polygon', { class: 'shape', points: points.map((p) => p.join(',')).join(' ') }, parent);
  switch (segment) {
    case 'ai_prompts':
      svg('rect', { class: 'shape', width: w, height: h, rx: 6 }, parent);
      return;
    case 'ai_functions':
      svg('rect', { class: 'shape', width: w, height: h, rx: h / 2 }, parent);
      return;
    case 'ai_actions':
      polygon([
        [0, 0],
        [w - 14, 0],
        [w, h / 2],
        [w - 14, h],
        [0, h],
        [14, h / 2],
      ]);
      return;
    case 'agents':
      polygon([
        [12, 0],
        [w - 12, 0],
        [w, h / 2],
        [w - 12, h],
        [12, h],
        [0, h / 2],
      ]);
      return;
    case 'intents':
      polygon([
        [14, 0],
        [w, 0],
        [w - 14, h],
        [0, h],
      ]);
      return;
    case 'integrations':
      svg('rect', { class: 'shape', width: w, height: h }, parent);
      svg('rect', { class: 'shape inner', x: 4, y: 4, width: w - 8, height: h - 8 }, parent);
      return;
    case 'datasources': {
      const d = `M0,6 A${w / 2},6 0 0 1 ${w},6 V${h - 6} A${w / 2},6 0 0 1 0,${h - 6} Z M0,6 A${w / 2},6 0 0 0 ${w},6`;
      svg('path', { class: 'shape', d }, parent);
      return;
    }
    default:
      svg('rect', { class: 'shape', width: w, height: h, rx: 2 }, parent);
  }
}

function fitted(name: string): string {
  return name.length > NAME_FITS ? `${name.slice(0, NAME_FITS - 1)}…` : name;
}

export function drawNode(node: ViewNode | MissingNode, place: Placed, parent: Element): SVGGElement {
  const role = 'role' in node ? node.role : undefined;
  const group = svg(
    'g',
    {
      class: `node kind-${node.segment}${role ? ` role-${role.name}` : ''}`,
      transform: `translate(${place.x - NODE.width / 2},${place.y - NODE.height / 2})`,
      'data-id': node.id,
    },
    parent,
  );
  text('title', `${node.name} (${node.kind})${role ? `\n${role.text}` : ''}`, {}, group);
  shape(node.segment, group);
  text('text', fitted(node.name), { class: 'name', x: NODE.width / 2, y: 20 }, group);
  text('text', role ? `${node.kind} · ${role.name}` : node.kind, { class: 'kind', x: NODE.width / 2, y: 36 }, group);
  // Said beside the name, as coverage is: the name is what people search and click by.
  if (role) group.setAttribute('aria-description', role.text);
  if (node.segment !== 'missing') {
    // A resource opens: it is a button to the keyboard and to a screen reader, named as the tooltip reads.
    const button = { tabindex: '0', role: 'button', 'aria-label': `${node.name}, ${node.kind}` };
    Object.entries(button).forEach(([name, value]) => group.setAttribute(name, value));
  }
  return group;
}
