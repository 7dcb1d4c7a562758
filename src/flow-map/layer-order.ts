/**
 * The order of the nodes within each layer of the flow map's layered
 * drawing, which decides how many edges cross: the map page hands it to
 * dagre (`customOrder`) in place of dagre's own. Both are barycenter sweeps
 * that keep the order with the fewest crossings; dagre's goes through its
 * graph library for every neighbour and rebuilds a graph per layer, and on
 * a tenant of 1,000 resources (some 8,000 layered nodes with the bends of
 * long edges) took about 1 s of the page's 2 s. This one works on arrays of
 * numbers. Pure, and shared by the page's bundle, so it imports nothing.
 */

/** Sweeps without a better order before the search stops: dagre's own patience. */
const PATIENCE = 4;
/** However long it keeps improving, at most this many sweeps. */
const MAX_SWEEPS = 8;

interface Indexed {
  layerOf: Int32Array;
  /** Each node's neighbours in the layer above (`up`) and below (`down`). */
  up: number[][];
  down: number[][];
}

/** The first order: nodes as a depth-first walk from the top layer's meets them (Gansner et al.), as dagre starts. */
function firstOrder({ layerOf, down }: Indexed, layerCount: number, byLayer: number[]): number[][] {
  const layers: number[][] = Array.from({ length: layerCount }, () => []);
  const seen = new Uint8Array(layerOf.length);
  const stack: number[] = [];
  for (const start of byLayer) {
    if (seen[start] === 1) continue;
    stack.push(start);
    while (stack.length > 0) {
      const v = stack.pop() as number;
      if (seen[v] === 1) continue;
      seen[v] = 1;
      (layers[layerOf[v] as number] as number[]).push(v);
      // Reversed onto the stack, so that the first neighbour is walked first.
      const next = down[v] as number[];
      for (let i = next.length - 1; i >= 0; i--) if (seen[next[i] as number] === 0) stack.push(next[i] as number);
    }
  }
  return layers;
}

/**
 * Reorders `layer` by the mean position of each node's neighbours in the layer just swept; a node without any keeps
 * its place. Ties keep the current order, or its reverse when `biasRight`, so that alternate sweeps try both.
 */
function sortByBarycenter(
  layer: number[],
  neighbours: number[][],
  position: Float64Array,
  biasRight: boolean,
): number[] {
  const keyed: Array<{ v: number; key: number; at: number }> = [];
  const fixed: boolean[] = layer.map(() => true);
  layer.forEach((v, at) => {
    const of = neighbours[v] as number[];
    if (of.length === 0) return;
    let sum = 0;
    for (const u of of) sum += position[u] as number;
    keyed.push({ v, key: sum / of.length, at });
    fixed[at] = false;
  });
  keyed.sort((a, b) => a.key - b.key || (biasRight ? b.at - a.at : a.at - b.at));
  let next = 0;
  return layer.map((v, at) => (fixed[at] ? v : (keyed[next++] as { v: number }).v));
}

/** Crossings between two adjacent layers: inversions of the lower ends, the edges taken in the upper ends' order. */
function crossingsBetween(upper: number[], lowerSize: number, down: number[][], position: Float64Array): number {
  const ends: number[] = [];
  for (const u of upper) {
    const targets = (down[u] as number[]).map((w) => position[w] as number).sort((a, b) => a - b);
    for (const t of targets) ends.push(t);
  }
  // A Fenwick tree over the lower layer's positions: for each end, the ends already seen to its right.
  const tree = new Int32Array(lowerSize + 1);
  let crossings = 0;
  ends.forEach((end, seen) => {
    let atOrLeft = 0;
    for (let i = end + 1; i > 0; i -= i & -i) atOrLeft += tree[i] as number;
    crossings += seen - atOrLeft;
    for (let i = end + 1; i <= lowerSize; i += i & -i) tree[i] = (tree[i] as number) + 1;
  });
  return crossings;
}

function totalCrossings(layers: number[][], down: number[][], position: Float64Array): number {
  let total = 0;
  for (let i = 0; i + 1 < layers.length; i++)
    total += crossingsBetween(layers[i] as number[], (layers[i + 1] as number[]).length, down, position);
  return total;
}

function place(layers: number[][], position: Float64Array): void {
  for (const layer of layers) layer.forEach((v, at) => (position[v] = at));
}

/**
 * Each layer's nodes, left to right, for a layered graph whose edges each join a node of layer `l` to one of layer
 * `l + 1` (what dagre's graph holds once long edges are split into chains of bends). `layerOf` gives every node's
 * layer, from 0, in the order the graph lists them, which the first order follows.
 */
export function orderLayers(
  layerOf: ReadonlyMap<string, number>,
  edges: ReadonlyArray<readonly [string, string]>,
): string[][] {
  const ids = [...layerOf.keys()];
  const index = new Map(ids.map((id, i) => [id, i]));
  const indexed: Indexed = {
    layerOf: Int32Array.from(ids, (id) => layerOf.get(id) as number),
    up: ids.map(() => []),
    down: ids.map(() => []),
  };
  for (const [from, to] of edges) {
    const [u, w] = [index.get(from), index.get(to)];
    if (u === undefined || w === undefined || indexed.layerOf[w] !== (indexed.layerOf[u] as number) + 1) {
      throw new Error(`layer order: the edge ${from} -> ${to} does not join a layer to the next one`);
    }
    (indexed.down[u] as number[]).push(w);
    (indexed.up[w] as number[]).push(u);
  }
  const layerCount = ids.length === 0 ? 0 : Math.max(...indexed.layerOf) + 1;
  const byLayer = ids
    .map((_, i) => i)
    .sort((a, b) => (indexed.layerOf[a] as number) - (indexed.layerOf[b] as number) || a - b);

  let layers = firstOrder(indexed, layerCount, byLayer);
  const position = new Float64Array(ids.length);
  place(layers, position);
  let best = { layers, crossings: totalCrossings(layers, indexed.down, position) };
  for (
    let sweep = 0, sinceBest = 0;
    sweep < MAX_SWEEPS && sinceBest < PATIENCE && best.crossings > 0;
    sweep++, sinceBest++
  ) {
    // Alternately down (each layer by the one above) and up, with ties biased right every other pair of sweeps.
    const downwards = sweep % 2 === 0;
    const biasRight = sweep % 4 >= 2;
    layers = layers.map((layer) => [...layer]);
    const order = layers.map((_, i) => (downwards ? i : layers.length - 1 - i)).slice(1);
    for (const l of order) {
      layers[l] = sortByBarycenter(layers[l] as number[], downwards ? indexed.up : indexed.down, position, biasRight);
      (layers[l] as number[]).forEach((v, at) => (position[v] = at));
    }
    const crossings = totalCrossings(layers, indexed.down, position);
    if (crossings < best.crossings) {
      best = { layers, crossings };
      sinceBest = -1;
    }
  }
  return best.layers.map((layer) => layer.map((v) => ids[v] as string));
}
