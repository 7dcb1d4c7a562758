/**
 * The flow map page's script, bundled apart (dist/webview/flow-map.js) with
 * its layout library and loaded only by the map's webview. Every name it
 * shows is set as text (`textContent`, SVG text nodes): names are the
 * service's or the folder's text and never become markup.
 */
import { graphlib, layout } from '@dagrejs/dagre';
import { orderLayers } from '../layer-order';
import type { HostMessage, MapView, PageMessage, ViewNode } from '../messages';
import { coverageToggle, markCoverage } from './coverage';

declare function acquireVsCodeApi(): { postMessage(message: PageMessage): void };

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
const NODE = { width: 200, height: 46 };
/** Characters of a name that fit a node; the whole name is the node's tooltip and accessible name. */
const NAME_FITS = 26;
const ZOOM = { min: 0.05, max: 4, step: 1.25 };
const PAN_STEP = 60;

function element<K extends keyof HTMLElementTagNameMap>(id: string, tag: K): HTMLElementTagNameMap[K] {
  const found = document.getElementById(id);
  if (!found || found.tagName.toLowerCase() !== tag) throw new Error(`The flow map page lacks its #${id}.`);
  return found as HTMLElementTagNameMap[K];
}

const canvas = element('canvas', 'div');
const status = element('status', 'p');
const search = element('search', 'input');
const searchStatus = element('search-status', 'span');
const problemsList = element('problems', 'ul');
const offerCoverage = coverageToggle(element('coverage', 'button'), element('coverage-legend', 'span'), canvas);

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const made = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  parent?.appendChild(made);
  return made;
}

function text(tag: 'text' | 'title', content: string, attributes: Record<string, string | number>, parent: Element): SVGElement {
  const made = svg(tag, attributes, parent);
  made.textContent = content;
  return made;
}

/** Each kind's outline, so that kinds differ by more than colour (which a high-contrast theme flattens). */
function shape(segment: string, parent: Element): void {
  const { width: w, height: h } = NODE;
  const polygon = (points: Array<[number, number]>): void => void svg('polygon', { class: 'shape', points: points.map((p) => p.join(',')).join(' ') }, parent);
  switch (segment) {
    case 'ai_prompts':
      svg('rect', { class: 'shape', width: w, height: h, rx: 6 }, parent);
      return;
    case 'ai_functions':
      svg('rect', { class: 'shape', width: w, height: h, rx: h / 2 }, parent);
      return;
    case 'ai_actions':
      polygon([[0, 0], [w - 14, 0], [w, h / 2], [w - 14, h], [0, h], [14, h / 2]]);
      return;
    case 'agents':
      polygon([[12, 0], [w - 12, 0], [w, h / 2], [w - 12, h], [12, h], [0, h / 2]]);
      return;
    case 'intents':
      polygon([[14, 0], [w, 0], [w - 14, h], [0, h]]);
      return;
    case 'integrations':
      svg('rect', { class: 'shape', width: w, height: h }, parent);
      svg('rect', { class: 'shape inner', x: 4, y: 4, width: w - 8, height: h - 8 }, parent);
      return;
    case 'datasources':
      svg('path', { class: 'shape', d: `M0,6 A${w / 2},6 0 0 1 ${w},6 V${h - 6} A${w / 2},6 0 0 1 0,${h - 6} Z M0,6 A${w / 2},6 0 0 0 ${w},6` }, parent);
      return;
    default:
      svg('rect', { class: 'shape', width: w, height: h, rx: 2 }, parent);
  }
}

function fitted(name: string): string {
  return name.length > NAME_FITS ? `${name.slice(0, NAME_FITS - 1)}…` : name;
}

/** The node that stands for a resource a dangling reference names: its id cannot be a resource's, which starts with a segment. */
function missingId(target: string): string {
  return `missing:${target}`;
}

interface Placed {
  x: number;
  y: number;
}

interface Drawing {
  view: MapView;
  svg: SVGSVGElement;
  viewport: SVGGElement;
  nodes: Map<string, SVGGElement>;
  placed: Map<string, Placed>;
  width: number;
  height: number;
}

let drawing: Drawing | undefined;
const at = { x: 0, y: 0, k: 1 };

function applyTransform(): void {
  drawing?.viewport.setAttribute('transform', `translate(${at.x},${at.y}) scale(${at.k})`);
}

function zoomBy(factor: number, around = { x: canvas.clientWidth / 2, y: canvas.clientHeight / 2 }): void {
  const k = Math.min(ZOOM.max, Math.max(ZOOM.min, at.k * factor));
  at.x = around.x - ((around.x - at.x) * k) / at.k;
  at.y = around.y - ((around.y - at.y) * k) / at.k;
  at.k = k;
  applyTransform();
}

function fit(): void {
  if (!drawing) return;
  const k = Math.min(1, Math.max(ZOOM.min, Math.min(canvas.clientWidth / (drawing.width + 40), canvas.clientHeight / (drawing.height + 40))));
  Object.assign(at, { k, x: (canvas.clientWidth - drawing.width * k) / 2, y: (canvas.clientHeight - drawing.height * k) / 2 });
  applyTransform();
}

/** Puts a node in the middle of the window, at a zoom where its name reads. */
function centre(id: string): void {
  const place = drawing?.placed.get(id);
  if (!place) return;
  at.k = Math.max(at.k, 0.8);
  at.x = canvas.clientWidth / 2 - place.x * at.k;
  at.y = canvas.clientHeight / 2 - place.y * at.k;
  applyTransform();
}

function open(id: string): void {
  vscode.postMessage({ type: 'open', node: id });
}

function drawNode(node: ViewNode | { id: string; segment: 'missing'; name: string; kind: string }, place: Placed, parent: Element): SVGGElement {
  const group = svg('g', {
    class: `node kind-${node.segment}`,
    transform: `translate(${place.x - NODE.width / 2},${place.y - NODE.height / 2})`,
    'data-id': node.id,
  }, parent);
  text('title', `${node.name} (${node.kind})`, {}, group);
  shape(node.segment, group);
  text('text', fitted(node.name), { class: 'name', x: NODE.width / 2, y: 20 }, group);
  text('text', node.kind, { class: 'kind', x: NODE.width / 2, y: 36 }, group);
  if (node.segment !== 'missing') {
    // A resource opens: it is a button to the keyboard and to a screen reader, named as the tooltip reads.
    Object.entries({ tabindex: '0', role: 'button', 'aria-label': `${node.name}, ${node.kind}` }).forEach(([name, value]) => group.setAttribute(name, value));
  }
  return group;
}

/** dagre's ordering step (`customOrder`), done by orderLayers on the graph dagre has split into layers. */
function orderByLayer(layered: graphlib.Graph): void {
  const rankOf = new Map(layered.nodes().map((v) => [v, layered.node(v).rank as number]));
  const layers = orderLayers(rankOf, layered.edges().map((e) => [e.v, e.w] as const));
  layers.forEach((layer) => layer.forEach((v, order) => Object.assign(layered.node(v), { order })));
}

function draw(view: MapView, keepView: boolean): void {
  const graph = new graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', ranker: 'tight-tree', nodesep: 18, ranksep: 70, edgesep: 10, marginx: 20, marginy: 20 });
  graph.setDefaultEdgeLabel(() => ({}));
  // Resources nothing links go in rows below the graph: in the layout they would all stack in its first column.
  const linked = new Set([...view.edges.flatMap((e) => [e.from, e.to]), ...view.dangling.map((d) => d.from)]);
  for (const node of view.nodes) if (linked.has(node.id)) graph.setNode(node.id, { ...NODE });
  const missing = [...new Set(view.dangling.map((d) => d.target))];
  for (const target of missing) graph.setNode(missingId(target), { ...NODE });
  view.edges.forEach((edge, i) => graph.setEdge(edge.from, edge.to, {}, `e${i}`));
  view.dangling.forEach((d, i) => graph.setEdge(d.from, missingId(d.target), {}, `d${i}`));
  // A map of loose resources alone has nothing to lay out.
  if (graph.nodeCount() > 0) layout(graph, { customOrder: orderByLayer });

  const root = svg('svg', { id: 'map', width: '100%', height: '100%' });
  const defs = svg('defs', {}, root);
  for (const id of ['arrow', 'arrow-missing']) {
    const marker = svg('marker', { id, class: id, viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse' }, defs);
    svg('path', { d: 'M0,0 L10,5 L0,10 Z' }, marker);
  }
  const viewport = svg('g', { id: 'viewport' }, root);
  const edgeLayer = svg('g', { class: 'edges' }, viewport);
  const nodeLayer = svg('g', { class: 'nodes' }, viewport);
  const edgeNames = new Map(graph.edges().map((e) => [e.name ?? '', e]));
  const pointsOf = (name: string): Array<{ x: number; y: number }> => {
    const edge = edgeNames.get(name);
    return edge ? graph.edge(edge).points : [];
  };
  view.edges.forEach((edge, i) => edgePath(edgeLayer, pointsOf(`e${i}`), edge.kind, false)?.setAttribute('data-edge', `${edge.from} -> ${edge.to}`));
  view.dangling.forEach((d, i) => edgePath(edgeLayer, pointsOf(`d${i}`), d.field, true));

  const laidOut = graph.nodeCount() > 0 ? graph.graph() : {};
  const placed = new Map<string, Placed>(graph.nodes().map((id) => [id, { x: graph.node(id).x, y: graph.node(id).y }]));
  const unlinked = view.nodes.filter((n) => !linked.has(n.id));
  const gap = { x: NODE.width + 24, y: NODE.height + 18 };
  const top = graph.nodeCount() > 0 ? (laidOut.height ?? 0) + gap.y / 2 : 20;
  const perRow = Math.max(4, Math.floor((laidOut.width ?? 0) / gap.x));
  // In the model's order, which is the kinds' order: each kind's loose resources sit together.
  unlinked.forEach((node, i) => placed.set(node.id, { x: 20 + NODE.width / 2 + (i % perRow) * gap.x, y: top + NODE.height / 2 + Math.floor(i / perRow) * gap.y }));
  const nodes = new Map<string, SVGGElement>();
  const placeOf = (id: string): Placed => placed.get(id) ?? { x: 0, y: 0 };
  for (const node of view.nodes) nodes.set(node.id, drawNode(node, placeOf(node.id), nodeLayer));
  for (const target of missing) drawNode({ id: missingId(target), segment: 'missing', name: target, kind: 'missing' }, placeOf(missingId(target)), nodeLayer);

  const rows = Math.ceil(unlinked.length / perRow);
  const width = Math.max(laidOut.width ?? 0, 40 + Math.min(unlinked.length, perRow) * gap.x);
  const height = rows === 0 ? laidOut.height ?? 0 : top + rows * gap.y;
  drawing?.svg.remove();
  markCoverage(root, nodes, view.coverage);
  const kept = keepView && drawing !== undefined;
  drawing = { view, svg: root, viewport, nodes, placed, width, height };
  // Placed before the drawing joins the page: fitting reads the canvas's size, which with the drawing in it would
  // make the browser lay out thousands of elements there and then, and again for the transform that follows.
  if (kept) applyTransform();
  else fit();
  if (view.focus !== undefined && !kept) {
    nodes.get(view.focus)?.classList.add('focus');
    centre(view.focus);
  }
  status.hidden = true;
  canvas.appendChild(root);
}

function edgePath(parent: Element, points: Array<{ x: number; y: number }>, label: string, dangling: boolean): SVGGElement | undefined {
  if (points.length === 0) return undefined;
  const group = svg('g', { class: dangling ? 'edge dangling' : `edge edge-${label}` }, parent);
  svg('path', { d: points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' '), 'marker-end': `url(#${dangling ? 'arrow-missing' : 'arrow'})` }, group);
  const middle = points[Math.floor(points.length / 2)] ?? points[0];
  if (middle) text('text', label, { class: 'edge-label', x: middle.x, y: middle.y - 4 }, group);
  return group;
}

function listProblems(view: MapView): void {
  problemsList.replaceChildren();
  if (view.problems.length === 0) {
    const item = document.createElement('li');
    item.textContent = 'No problems: every reference leads to a resource the tenant holds.';
    problemsList.appendChild(item);
    return;
  }
  for (const problem of view.problems) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'problem';
    button.textContent = problem.text;
    button.addEventListener('click', () => {
      centre(problem.node);
      drawing?.nodes.get(problem.node)?.focus();
    });
    item.appendChild(button);
    problemsList.appendChild(item);
  }
}

let matchAt = -1;

function matches(): string[] {
  const query = search.value.trim().toLowerCase();
  if (!drawing || query === '') return [];
  return drawing.view.nodes.filter((n) => n.name.toLowerCase().includes(query)).map((n) => n.id);
}

function highlight(): void {
  const found = new Set(matches());
  for (const [id, group] of drawing?.nodes ?? []) {
    group.classList.toggle('match', found.has(id));
    group.classList.remove('current');
  }
  matchAt = -1;
  searchStatus.textContent = search.value.trim() === '' ? '' : found.size === 1 ? '1 match' : `${found.size} matches`;
}

function nextMatch(): void {
  const found = matches();
  if (found.length === 0) return;
  matchAt = (matchAt + 1) % found.length;
  const id = found[matchAt] as string;
  for (const group of drawing?.nodes.values() ?? []) group.classList.remove('current');
  drawing?.nodes.get(id)?.classList.add('current');
  centre(id);
  searchStatus.textContent = `${matchAt + 1} of ${found.length}`;
}

/** Colours come from the theme's variables, which mean nothing outside VS Code: the export carries the values they had. */
const PAINT = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-family', 'font-size', 'font-weight', 'opacity', 'text-anchor'] as const;

function exportSvg(): void {
  if (!drawing) return;
  const copy = drawing.svg.cloneNode(true) as SVGSVGElement;
  const originals = drawing.svg.querySelectorAll('*');
  const copies = copy.querySelectorAll('*');
  originals.forEach((original, i) => {
    const target = copies[i];
    if (!target || !(original instanceof SVGGraphicsElement || original instanceof SVGPathElement)) return;
    const computed = getComputedStyle(original);
    for (const property of PAINT) target.setAttribute(property, computed.getPropertyValue(property));
  });
  copy.querySelector('#viewport')?.removeAttribute('transform');
  copy.querySelectorAll('title').forEach((title) => title.remove());
  Object.entries({ xmlns: SVG, width: drawing.width, height: drawing.height, viewBox: `0 0 ${drawing.width} ${drawing.height}` }).forEach(([name, value]) => copy.setAttribute(name, String(value)));
  copy.insertBefore(svg('rect', { width: '100%', height: '100%', fill: getComputedStyle(document.body).backgroundColor }), copy.firstChild);
  vscode.postMessage({ type: 'exportSvg', svg: new XMLSerializer().serializeToString(copy) });
}

function nodeOf(target: EventTarget | null): SVGGElement | undefined {
  const group = target instanceof Element ? target.closest('g.node[data-id]') : null;
  return group instanceof SVGGElement && group.hasAttribute('tabindex') ? group : undefined;
}

let drag: { x: number; y: number; moved: boolean } | undefined;

canvas.addEventListener('pointerdown', (event) => {
  drag = { x: event.clientX, y: event.clientY, moved: false };
  canvas.setPointerCapture(event.pointerId);
});
canvas.addEventListener('pointermove', (event) => {
  if (!drag) return;
  const [dx, dy] = [event.clientX - drag.x, event.clientY - drag.y];
  if (!drag.moved && Math.hypot(dx, dy) < 4) return;
  Object.assign(drag, { x: event.clientX, y: event.clientY, moved: true });
  at.x += dx;
  at.y += dy;
  applyTransform();
});
canvas.addEventListener('pointerup', (event) => {
  const wasDrag = drag?.moved === true;
  drag = undefined;
  canvas.releasePointerCapture(event.pointerId);
  // Pointer capture retargets the release to the canvas: the node is the one under the pointer.
  const node = wasDrag ? undefined : nodeOf(document.elementFromPoint(event.clientX, event.clientY));
  if (node?.dataset.id !== undefined) open(node.dataset.id);
});
canvas.addEventListener('wheel', (event) => {
  event.preventDefault();
  const box = canvas.getBoundingClientRect();
  zoomBy(Math.exp(-event.deltaY * 0.002), { x: event.clientX - box.left, y: event.clientY - box.top });
}, { passive: false });
canvas.addEventListener('keydown', (event) => {
  const pan: Readonly<Record<string, [number, number]>> = { ArrowLeft: [PAN_STEP, 0], ArrowRight: [-PAN_STEP, 0], ArrowUp: [0, PAN_STEP], ArrowDown: [0, -PAN_STEP] };
  const move = pan[event.key];
  const node = nodeOf(event.target);
  if (move) {
    at.x += move[0];
    at.y += move[1];
    applyTransform();
  } else if (event.key === '+' || event.key === '=') zoomBy(ZOOM.step);
  else if (event.key === '-') zoomBy(1 / ZOOM.step);
  else if (event.key === '0') fit();
  else if ((event.key === 'Enter' || event.key === ' ') && node?.dataset.id !== undefined) open(node.dataset.id);
  else return;
  event.preventDefault();
});
canvas.addEventListener('focusin', (event) => {
  // A node reached by Tab comes into view.
  const id = nodeOf(event.target)?.dataset.id;
  const place = id === undefined ? undefined : drawing?.placed.get(id);
  if (!place) return;
  const [x, y] = [at.x + place.x * at.k, at.y + place.y * at.k];
  if (x < 0 || y < 0 || x > canvas.clientWidth || y > canvas.clientHeight) centre(id as string);
});
search.addEventListener('input', highlight);
search.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter') return;
  event.preventDefault();
  nextMatch();
});
element('zoom-in', 'button').addEventListener('click', () => zoomBy(ZOOM.step));
element('zoom-out', 'button').addEventListener('click', () => zoomBy(1 / ZOOM.step));
element('fit', 'button').addEventListener('click', fit);
element('export-svg', 'button').addEventListener('click', exportSvg);
element('copy-mermaid', 'button').addEventListener('click', () => vscode.postMessage({ type: 'copyMermaid' }));

/** After the next paint; a hidden page paints nothing, and its caller should not wait for the tab to come back. */
function afterPaint(then: () => void): void {
  if (document.hidden) setTimeout(then, 0);
  else requestAnimationFrame(() => then());
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message.type !== 'show') return;
  const { view, seq, keepView = false } = message;
  element('title', 'h1').textContent = view.title;
  // A map read again after a change is drawn over the one on show, without a status in between.
  status.hidden = keepView;
  status.textContent = `Laying out ${view.nodes.length} resources…`;
  // One frame first, so the status shows before the layout holds the page.
  afterPaint(() => setTimeout(() => {
    if (view.nodes.length === 0) {
      drawing?.svg.remove();
      drawing = undefined;
      status.textContent = 'This tenant holds no resources of the seven kinds.';
    } else draw(view, keepView);
    listProblems(view);
    offerCoverage(view);
    highlight();
    // Two frames: the first paints what was just drawn, the second starts after that paint.
    afterPaint(() => afterPaint(() => vscode.postMessage({ type: 'drawn', seq, nodes: view.nodes.length })));
  }));
});

vscode.postMessage({ type: 'ready' });
