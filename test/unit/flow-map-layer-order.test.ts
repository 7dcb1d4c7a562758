import * as assert from 'node:assert/strict';
import { orderLayers } from '../../src/flow-map/layer-order';

/** Crossings of a two-layer drawing: pairs of edges whose ends come in opposite orders. */
function crossings(layers: string[][], edges: ReadonlyArray<readonly [string, string]>): number {
  const at = new Map(layers.flatMap((layer) => layer.map((id, i) => [id, i] as const)));
  const ends = edges.map(([from, to]) => [at.get(from) as number, at.get(to) as number] as const);
  let count = 0;
  ends.forEach(([a, b], i) => ends.slice(i + 1).forEach(([c, d]) => (count += (a - c) * (b - d) < 0 ? 1 : 0)));
  return count;
}

const layered = (ids: Record<string, number>): Map<string, number> => new Map(Object.entries(ids));

describe('flow map: the order within layers', () => {
  it('untangles a ladder given crossed: every rung straight', () => {
    // a→z, b→y, c→x: in the first order (the layers as listed) all three rungs cross each other.
    const ranks = layered({ a: 0, b: 0, c: 0, x: 1, y: 1, z: 1 });
    const edges = [
      ['a', 'z'],
      ['b', 'y'],
      ['c', 'x'],
    ] as const;
    const layers = orderLayers(ranks, edges);
    assert.equal(crossings(layers, edges), 0);
    assert.deepEqual(
      layers.map((layer) => [...layer].sort()),
      [
        ['a', 'b', 'c'],
        ['x', 'y', 'z'],
      ],
      'every node once, in its own layer',
    );
  });

  it('leaves a node without neighbours where the first order put it, and the chains beside it uncrossed', () => {
    // Two chains, s1→m2→e1 and s2→m1→e2, and a loose node the first order puts last in the middle layer.
    const ranks = layered({ s1: 0, s2: 0, m1: 1, m2: 1, loose: 1, e1: 2, e2: 2 });
    const edges = [
      ['s1', 'm2'],
      ['s2', 'm1'],
      ['m2', 'e1'],
      ['m1', 'e2'],
    ] as const;
    const [top, middle, bottom] = orderLayers(ranks, edges) as [string[], string[], string[]];
    assert.equal(crossings([top, middle], edges.slice(0, 2)) + crossings([middle, bottom], edges.slice(2)), 0);
    assert.equal(middle[2], 'loose');
  });

  it('refuses an edge that skips a layer, which dagre splits before ordering', () => {
    assert.throws(
      () => orderLayers(layered({ a: 0, b: 2 }), [['a', 'b']]),
      /the edge a -> b does not join a layer to the next one/,
    );
  });

  it('orders an empty graph as no layers', () => {
    assert.deepEqual(orderLayers(new Map(), []), []);
  });
});
