/* global acquireVsCodeApi, document, Element, HTMLButtonElement, HTMLInputElement */
// The results panel's only script. It posts what the buttons ask for and
// never builds markup: the extension renders the whole page again for every
// change, and the page state kept here (ticked runs, the focused button)
// carries over into the next page.
'use strict';

const vscode = acquireVsCodeApi();
const saved = vscode.getState() || {};
/** @type {{ picked: string[], focus?: { action?: string, run?: string, field?: string }, resource?: string }} */
const state = { picked: Array.isArray(saved.picked) ? saved.picked : [], focus: saved.focus };

function pickBoxes() {
  return Array.from(document.querySelectorAll('input[data-role="pick"]')).filter((box) => box instanceof HTMLInputElement);
}

function pickedRuns() {
  return pickBoxes().filter((box) => box.checked).map((box) => box.dataset.run);
}

/** Compare works on exactly two runs. */
function updateCompare() {
  const compare = document.querySelector('button[data-action="compare"]');
  if (compare instanceof HTMLButtonElement) compare.disabled = pickedRuns().length !== 2;
}

function requestOf(button) {
  const { action, run, field } = button.dataset;
  switch (action) {
    case 'cancel':
      return { type: 'cancel' };
    case 'select':
    case 'rerun':
    case 'openPrompt':
    case 'saveAsTestCase':
      return { type: action, runId: run };
    case 'copy':
      return { type: 'copy', runId: run, field };
    case 'compare': {
      const runs = pickedRuns();
      return runs.length === 2 ? { type: 'compare', runIds: runs } : undefined;
    }
    default:
      return undefined;
  }
}

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  const request = requestOf(button);
  if (!request) return;
  // Most requests re-render the page; the same button gets the focus back there.
  state.focus = { action: button.dataset.action, run: button.dataset.run, field: button.dataset.field };
  vscode.setState(state);
  vscode.postMessage(request);
});

document.addEventListener('change', (event) => {
  if (!(event.target instanceof HTMLInputElement) || event.target.dataset.role !== 'pick') return;
  state.picked = pickedRuns();
  vscode.setState(state);
  updateCompare();
});

function restore() {
  for (const box of pickBoxes()) box.checked = state.picked.includes(box.dataset.run);
  updateCompare();
  const focus = state.focus;
  // Runs no longer listed (another resource, dropped from the history) stay unticked.
  state.picked = pickedRuns();
  state.focus = undefined;
  // Which resource this page shows, so VS Code can bring the panel back after a reload.
  state.resource = document.body.dataset.resource;
  vscode.setState(state);
  // Only while the page has focus, so a page rendered while the user works elsewhere never takes it.
  if (!focus || !document.hasFocus()) return;
  const target = Array.from(document.querySelectorAll('button[data-action]')).find((b) =>
    b.dataset.action === focus.action && b.dataset.run === focus.run && b.dataset.field === focus.field);
  if (target instanceof HTMLButtonElement && !target.disabled) target.focus();
}

restore();
vscode.postMessage({ type: 'ready' });
