/**
 * What the extension needs of the flow map, in one module that its bundle
 * keeps in a file of its own (dist/flow-map.js), required at the first map:
 * an extension host that never opens one never loads it (docs/performance.md).
 */
export { buildFlowMap } from './build';
export { folderFlowMap } from './folder';
export { mermaidFlowMap } from './mermaid';
export { tenantFlowMap } from './tenant';
