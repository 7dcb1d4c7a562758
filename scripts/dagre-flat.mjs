// @ts-check
// dagre (1.1.8, pinned in package.json for this) looks for "type 2" conflicts in every layout: edges that cross a
// cluster's border. Its scan of a layer restarts at every node of the layer, so it costs the square of the layer's
// size, and on a flow map of 1,000 resources (layers of some 400 nodes and bends) it was a fifth of the layout's
// time. The map has no clusters, so there is never one to find (dagre's issue #519, open): this plugin makes the
// webview's bundle skip the search for a graph without border nodes. A dagre whose code no longer reads as expected
// fails the build rather than losing the fix unseen.
import { readFile } from 'node:fs/promises';

const call = 'findType2Conflicts(g, layering))';
const skipped = '(g.nodes().some((v) => g.node(v).dummy === "border") ? findType2Conflicts(g, layering) : {}))';

/** @type {import('esbuild').Plugin} */
export const dagreFlatGraphs = {
  name: 'dagre-flat-graphs',
  setup(b) {
    b.onLoad({ filter: /[\\/]@dagrejs[\\/]dagre[\\/]lib[\\/]position[\\/]bk\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (source.split(call).length !== 2)
        throw new Error(
          `${args.path} no longer calls ${call} once: check whether dagre still needs scripts/dagre-flat.mjs`,
        );
      return { contents: source.replace(call, skipped), loader: 'js' };
    });
  },
};
