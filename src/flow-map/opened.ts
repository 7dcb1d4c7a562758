/**
 * What the extension needs once a map opens, kept by its bundle in a file of
 * its own (dist/flow-map.js) that register.ts requires at the first map: the
 * panel, reading a map and the map's core. An extension host that never opens
 * a map never loads it (docs/performance.md). The modules it shares with the
 * rest of the extension it takes from dist/extension.js (scripts/build.mjs).
 */
export { FlowMapPanel } from './panel';
export { showFlowMap } from './show';
export { programmaticRequest, requestOf } from './request';
