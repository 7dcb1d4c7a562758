/**
 * The flow map page's script, bundled apart (dist/webview/flow-map.js) with
 * its layout library and loaded only by the map's webview. Every name it
 * shows is set as text (`textContent`, SVG text nodes): names are the
 * service's or the folder's text and never become markup.
 */
import type { HostMessage, PageMessage } from '../messages';
import { followInput } from './canvas-input';
import { coverageToggle, markCoverage } from './coverage';
import { drawMap } from './drawing';
import { svgFile } from './export-svg';
import { problemsList } from './problems';
import { showRoles } from './roles';
import { NodeSearch } from './search';
import { Viewport, ZOOM } from './viewport';

declare function acquireVsCodeApi(): { postMessage(message: PageMessage): void };

const vscode = acquireVsCodeApi();

function element<K extends keyof HTMLElementTagNameMap>(id: string, tag: K): HTMLElementTagNameMap[K] {
  const found = document.getElementById(id);
  if (!found || found.tagName.toLowerCase() !== tag) throw new Error(`The flow map page lacks its #${id}.`);
  return found as HTMLElementTagNameMap[K];
}

const canvas = element('canvas', 'div');
const status = element('status', 'p');
const listProblems = problemsList(
  element('problems', 'ul'),
  element('problems-toggle', 'button'),
  element('problems-count', 'span'),
);
const rolesLegend = element('roles-legend', 'span');
const offerCoverage = coverageToggle(element('coverage', 'button'), element('coverage-legend', 'span'), canvas);
const viewport = new Viewport(canvas);
const search = new NodeSearch(element('search', 'input'), element('search-status', 'span'), viewport);

followInput(canvas, viewport, (node) => vscode.postMessage({ type: 'open', node }));
element('zoom-in', 'button').addEventListener('click', () => viewport.zoomBy(ZOOM.step));
element('zoom-out', 'button').addEventListener('click', () => viewport.zoomBy(1 / ZOOM.step));
element('fit', 'button').addEventListener('click', () => viewport.fit());
element('export-svg', 'button').addEventListener('click', () => {
  if (viewport.drawing) vscode.postMessage({ type: 'exportSvg', svg: svgFile(viewport.drawing) });
});
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
  afterPaint(() =>
    setTimeout(() => {
      if (view.nodes.length === 0) {
        viewport.clear();
        status.textContent = 'This tenant holds no resources of the seven kinds.';
      } else {
        const drawing = drawMap(view);
        markCoverage(drawing.svg, drawing.nodes, view.coverage);
        viewport.show(drawing, keepView);
        status.hidden = true;
      }
      listProblems(view, viewport);
      showRoles(rolesLegend, view);
      offerCoverage(view);
      search.highlight();
      // Two frames: the first paints what was just drawn, the second starts after that paint.
      afterPaint(() => afterPaint(() => vscode.postMessage({ type: 'drawn', seq, nodes: view.nodes.length })));
    }),
  );
});

vscode.postMessage({ type: 'ready' });
