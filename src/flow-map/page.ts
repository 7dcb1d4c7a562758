/**
 * The flow map page's markup: a fixed frame with no service text in it. The
 * page's script (`webview/main.ts`) fills the map, the problems list and the
 * title with text nodes only, so a resource's name can never become markup.
 */
import { webviewPage, type PageResources } from '../shared/webview-page';

export function mapPage(resources: PageResources): string {
  return webviewPage(
    'Flow Map',
    `<header class="toolbar">
  <h1 id="title">Flow Map</h1>
  <div class="controls">
    <input type="search" id="search" placeholder="Find a name" aria-label="Find a resource by name (Enter: the next match)">
    <span id="search-status" role="status" aria-live="polite"></span>
    <button type="button" id="zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button>
    <button type="button" id="zoom-out" title="Zoom out (-)" aria-label="Zoom out">&minus;</button>
    <button type="button" id="fit" title="Fit the map to the window (0)">Fit</button>
    <button type="button" id="coverage" aria-pressed="false" title="Show what the workspace's prompt test suites reached" hidden>Coverage</button>
    <button type="button" id="export-svg">Export SVG</button>
    <button type="button" id="copy-mermaid">Copy as Mermaid</button>
  </div>
</header>
<div class="keys">
  <span id="roles-legend" class="legend" hidden></span>
  <span id="coverage-legend" class="legend" hidden><span class="cov-passed">passed</span> <span class="cov-failed">failed</span> <span class="cov-untested">untested</span> <span class="taken">hand-over taken</span></span>
</div>
<main class="layout">
  <div id="canvas" tabindex="0" role="region" aria-label="The map: drag or arrow keys pan, the wheel or + and - zoom, Tab moves between resources, Enter opens one">
    <p id="status" role="status">Laying out the map…</p>
  </div>
  <aside class="problems" aria-labelledby="problems-heading">
    <h2 id="problems-heading"><button type="button" id="problems-toggle" aria-expanded="true" aria-controls="problems">Problems <span id="problems-count" class="count"></span></button></h2>
    <ul id="problems"></ul>
  </aside>
</main>`,
    resources,
  );
}
