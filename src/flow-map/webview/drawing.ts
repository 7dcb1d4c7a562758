/**
 * A map view laid out and drawn as SVG: dagre places what references link, in layers ordered by orderLayers, and
 * the resources nothing links go in rows below.
 */
import { graphlib, layout } from '@dagrejs/dagre';
import { orderLayers } from '../layer-order';
import type { MapView } from '../messages';
import { drawNode, missingId, NODE, type Placed } from './nodes';
import { svg, text } from './svg';

export interface Drawing {
  view: MapView;
  svg: SVGSVGElement;
  viewport: SVGGElement;
  nodes: Map<string, SVGGElement>;
  placed: Map<string, Placed>;
  width: number;
  height: number;
}

/** dagre's ordering step (`customOrder`), done by orderLayers on the graph dagre has split into layers. */
function orderByLayer(layered: graphlib.Graph): void {
  const rankOf = new Map(layered.nodes().map((v) => [v, layered.node(v).rank as number]));
  const layers = orderLayers(
    rankOf,
    layered.edges().map((e) => [e.v, e.w] as const),
  );
  layers.forEach((layer) => layer.forEach((v, order) => Object.assign(layered.node(v), { order })));
}

/** An edge's label as the layout places it: dagre keeps a box of this size free for it, so no two labels meet. */
export const LABEL = { height: 16, charWidth: 6.8, padding: 8 };

function labelWidth(label: string): number {
  return Math.ceil(label.length * LABEL.charWidth + LABEL.padding);
}

/** The references from one resource to another, one edge however many kinds: its label names them all. */
interface Drawn {
  from: string;
  to: string;
  label: string;
  dangling: boolean;
}

/** The view's edges folded by their two ends (a prompt's `next` and `exit` to one prompt read `next, exit`), and its dangling references. */
function drawnEdges(view: MapView): Drawn[] {
  const folded = new Map<string, Drawn>();
  for (const { from, to, kind } of view.edges) {
    const key = `${from} -> ${to}`;
    const had = folded.get(key);
    if (had) had.label = `${had.label}, ${kind}`;
    else folded.set(key, { from, to, label: kind, dangling: false });
  }
  const dangling = view.dangling.map((d) => ({
    from: d.from,
    to: missingId(d.target),
    label: d.field,
    dangling: true,
  }));
  return [...folded.values(), ...dangling];
}

function edgePath(parent: Element, edge: Drawn, laidOut: { points: Placed[]; x?: number; y?: number }): SVGGElement {
  const kind = edge.label.split(', ')[0] ?? '';
  const group = svg('g', { class: edge.dangling ? 'edge dangling' : `edge edge-${kind}` }, parent);
  const d = laidOut.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  svg('path', { d, 'marker-end': `url(#${edge.dangling ? 'arrow-missing' : 'arrow'})` }, group);
  if (laidOut.x !== undefined && laidOut.y !== undefined) {
    const width = labelWidth(edge.label);
    const box = { x: laidOut.x - width / 2, y: laidOut.y - LABEL.height / 2, width, height: LABEL.height, rx: 3 };
    svg('rect', { class: 'edge-label-box', ...box }, group);
    text('text', edge.label, { class: 'edge-label', x: laidOut.x, y: laidOut.y + 4 }, group);
  }
  if (!edge.dangling) group.setAttribute('data-edge', `${edge.from} -> ${edge.to}`);
  return group;
}

/** The graph dagre lays out: what references link, and a node for each resource a dangling reference names. */
function graphOf(
  view: MapView,
  edges: readonly Drawn[],
  linked: ReadonlySet<string>,
  missing: readonly string[],
): graphlib.Graph {
  const graph = new graphlib.Graph({ multigraph: true });
  graph.setGraph({
    rankdir: 'LR',
    ranker: 'tight-tree',
    nodesep: 18,
    ranksep: 60,
    edgesep: 10,
    marginx: 20,
    marginy: 20,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of view.nodes) if (linked.has(node.id)) graph.setNode(node.id, { ...NODE });
  for (const target of missing) graph.setNode(missingId(target), { ...NODE });
  edges.forEach((edge, i) =>
    graph.setEdge(edge.from, edge.to, { width: labelWidth(edge.label), height: LABEL.height, labelpos: 'c' }, `e${i}`),
  );
  // A map of loose resources alone has nothing to lay out.
  if (graph.nodeCount() > 0) layout(graph, { customOrder: orderByLayer });
  return graph;
}

/** The SVG root with the edges' arrowheads, and the group that pans and zooms. */
function frame(): { root: SVGSVGElement; viewport: SVGGElement } {
  const root = svg('svg', { id: 'map', width: '100%', height: '100%' });
  const defs = svg('defs', {}, root);
  for (const id of ['arrow', 'arrow-missing']) {
    const marker = svg(
      'marker',
      {
        id,
        class: id,
        viewBox: '0 0 10 10',
        refX: 10,
        refY: 5,
        markerWidth: 8,
        markerHeight: 8,
        orient: 'auto-start-reverse',
      },
      defs,
    );
    svg('path', { d: 'M0,0 L10,5 L0,10 Z' }, marker);
  }
  return { root, viewport: svg('g', { id: 'viewport' }, root) };
}

/** `view` laid out and drawn, not yet on the page. */
export function drawMap(view: MapView): Drawing {
  // Resources nothing links go in rows below the graph: in the layout they would all stack in its first column.
  const linked = new Set([...view.edges.flatMap((e) => [e.from, e.to]), ...view.dangling.map((d) => d.from)]);
  const missing = [...new Set(view.dangling.map((d) => d.target))];
  const edges = drawnEdges(view);
  const graph = graphOf(view, edges, linked, missing);
  const { root, viewport } = frame();
  const edgeLayer = svg('g', { class: 'edges' }, viewport);
  const nodeLayer = svg('g', { class: 'nodes' }, viewport);
  const edgeNames = new Map(graph.edges().map((e) => [e.name ?? '', e]));
  edges.forEach((edge, i) => {
    const named = edgeNames.get(`e${i}`);
    if (named) edgePath(edgeLayer, edge, graph.edge(named));
  });

  const laidOut = graph.nodeCount() > 0 ? graph.graph() : {};
  const placed = new Map<string, Placed>(graph.nodes().map((id) => [id, { x: graph.node(id).x, y: graph.node(id).y }]));
  const unlinked = view.nodes.filter((n) => !linked.has(n.id));
  const gap = { x: NODE.width + 24, y: NODE.height + 18 };
  const top = graph.nodeCount() > 0 ? (laidOut.height ?? 0) + gap.y / 2 : 20;
  const perRow = Math.max(4, Math.floor((laidOut.width ?? 0) / gap.x));
  // In the model's order, which is the kinds' order: each kind's loose resources sit together.
  unlinked.forEach((node, i) =>
    placed.set(node.id, {
      x: 20 + NODE.width / 2 + (i % perRow) * gap.x,
      y: top + NODE.height / 2 + Math.floor(i / perRow) * gap.y,
    }),
  );
  const nodes = new Map<string, SVGGElement>();
  const placeOf = (id: string): Placed => placed.get(id) ?? { x: 0, y: 0 };
  for (const node of view.nodes) nodes.set(node.id, drawNode(node, placeOf(node.id), nodeLayer));
  for (const target of missing) {
    drawNode(
      { id: missingId(target), segment: 'missing', name: target, kind: 'missing' },
      placeOf(missingId(target)),
      nodeLayer,
    );
  }

  const rows = Math.ceil(unlinked.length / perRow);
  const width = Math.max(laidOut.width ?? 0, 40 + Math.min(unlinked.length, perRow) * gap.x);
  const height = rows === 0 ? (laidOut.height ?? 0) : top + rows * gap.y;
  return { view, svg: root, viewport, nodes, placed, width, height };
}
