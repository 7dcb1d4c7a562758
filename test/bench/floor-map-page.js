// The floor of the bench's map-drawing row: a page in the map page's frame that answers a map with "drawn" after the
// frames the real page waits (one before it draws, two after) and draws nothing, so the figure beside it is the time
// no page can save: delivering the message and painting.
/* global acquireVsCodeApi, window, requestAnimationFrame, setTimeout */
'use strict';
const vscode = acquireVsCodeApi();
window.addEventListener('message', (event) => {
  const { type, seq, view } = event.data;
  if (type !== 'show') return;
  requestAnimationFrame(() =>
    setTimeout(() => {
      requestAnimationFrame(() =>
        requestAnimationFrame(() => vscode.postMessage({ type: 'drawn', seq, nodes: view.nodes.length })),
      );
    }),
  );
});
vscode.postMessage({ type: 'ready' });
