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

function edgePath(parent: Element, points: Array<Placed>, label: string, dangling: boolean): SVGGElement | undefined {
  if (points.length === 0) return undefined;
  const group = svg('g', { class: dangling ? 'edge dangling' : `edge edge-${label}` }, parent);
  const d = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  svg('path', { d, 'marker-end': `url(#${dangling ? 'arrow-missing' : 'arrow'})` }, group);
  const middle = points[Math.floor(points.length / 2)] ?? points[0];
  if (middle) text('text', label, { class: 'edge-label', x: middle.x, y: middle.y - 4 }, group);
  return group;
}

/** The graph dagre lays out: what references link, and a node for each resource a dangling reference names. */
function graphOf(view: MapView, linked: ReadonlySet<string>, missing: readonly string[]): graphlib.Graph {
  const graph = new graphlib.Graph({ multigraph: true });
  graph.setGraph({
    rankdir: 'LR',
    ranker: 'tight-tree',
    nodesep: 18,
    ranksep: 70,
    edgesep: 10,
    marginx: 20,
    marginy: 20,
  });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of view.nodes) if (linked.has(node.id)) graph.setNode(node.id, { ...NODE });
  for (const target of missing) graph.setNode(missingId(target), { ...NODE });
  view.edges.forEach((edge, i) => graph.setEdge(edge.from, edge.to, {}, `e${i}`));
  view.dangling.forEach((d, i) => graph.setEdge(d.from, missingId(d.target), {}, `d${i}`));
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
  const graph = graphOf(view, linked, missing);
  const { root, viewport } = frame();
  const edgeLayer = svg('g', { class: 'edges' }, viewport);
  const nodeLayer = svg('g', { class: 'nodes' }, viewport);
  const edgeNames = new Map(graph.edges().map((e) => [e.name ?? '', e]));
  const pointsOf = (name: string): Placed[] => {
    const edge = edgeNames.get(name);
    return edge ? graph.edge(edge).points : [];
  };
  view.edges.forEach((edge, i) =>
    edgePath(edgeLayer, pointsOf(`e${i}`), edge.kind, false)?.setAttribute('data-edge', `${edge.from} -> ${edge.to}`),
  );
  view.dangling.forEach((d, i) => edgePath(edgeLayer, pointsOf(`d${i}`), d.field, true));

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
