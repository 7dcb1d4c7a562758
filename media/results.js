/* global acquireVsCodeApi, document, Element, HTMLButtonElement, HTMLFormElement, HTMLInputElement, HTMLTextAreaElement */
// The results panel's only script. It posts what the buttons and the inputs form ask for and never builds markup:
// the extension renders the whole page again for every change, and the page state kept here (ticked runs, the
// focused button, what is typed in the form) carries over into the next page.
'use strict';

const vscode = acquireVsCodeApi();
const saved = vscode.getState() || {};
/**
 * @typedef {{ form: string, text: string, json: string, field?: string, start?: number, end?: number }} Draft
 * @type {{ picked: string[], focus?: { action?: string, run?: string, field?: string }, resource?: string, draft?: Draft }}
 */
const state = { picked: Array.isArray(saved.picked) ? saved.picked : [], focus: saved.focus, draft: saved.draft };

function pickBoxes() {
  return Array.from(document.querySelectorAll('input[data-role="pick"]')).filter(
    (box) => box instanceof HTMLInputElement,
  );
}

function pickedRuns() {
  return pickBoxes()
    .filter((box) => box.checked)
    .map((box) => box.dataset.run);
}

/** Compare works on exactly two runs. */
function updateCompare() {
  const compare = document.querySelector('button[data-action="compare"]');
  if (compare instanceof HTMLButtonElement) compare.disabled = pickedRuns().length !== 2;
}

function requestOf(button) {
  const { action, run, field, form } = button.dataset;
  switch (action) {
    case 'cancel':
      return { type: 'cancel' };
    case 'select':
    case 'rerun':
    case 'edit':
    case 'openPrompt':
    case 'saveAsTestCase':
    case 'continueConversation':
    case 'saveAsConversationCase':
      return { type: action, runId: run };
    case 'copy':
      return { type: 'copy', runId: run, field };
    case 'compare': {
      const runs = pickedRuns();
      return runs.length === 2 ? { type: 'compare', runIds: runs } : undefined;
    }
    case 'closeInputs':
      return { type: 'closeInputs', formId: form };
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

// ---- The inputs form ---------------------------------------------------------------

function inputsForm() {
  const form = document.querySelector('form[data-form]');
  return form instanceof HTMLFormElement ? form : undefined;
}

/** The form's field `name` ("text" or "json"). */
function fieldOf(form, name) {
  const field = form.querySelector(`[data-input="${name}"]`);
  return field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement ? field : undefined;
}

/** Why the object's JSON would be refused, in the extension's words (core/json-object.ts checks it again). */
function jsonProblem(form) {
  const json = fieldOf(form, 'json').value;
  if (json.trim() === '') return undefined;
  const name = form.dataset.object;
  let value;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return {
      field: 'json',
      message: `${name} must be a JSON object: ${error instanceof Error ? error.message : String(error)}.`,
    };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { field: 'json', message: `${name} must be a JSON object such as {"name": "value"}.` };
  }
  return undefined;
}

/** Everything the extension would refuse, in its order: the text first, then the object. */
function formProblem(form) {
  if (fieldOf(form, 'text').value.trim() === '') return { field: 'text', message: form.dataset.empty };
  return jsonProblem(form);
}

function showProblem(form, problem) {
  const line = form.querySelector('.problem');
  if (line) line.textContent = problem ? problem.message : '';
  for (const name of ['text', 'json']) {
    const field = fieldOf(form, name);
    if (problem && problem.field === name) field.setAttribute('aria-invalid', 'true');
    else field.removeAttribute('aria-invalid');
  }
}

/** What is typed, and where, so that a page rendered again (or shown again) holds it. */
function saveDraft(form) {
  const active = document.activeElement;
  const field = active instanceof Element && form.contains(active) && active.dataset.input ? active : undefined;
  state.draft = {
    form: form.dataset.form,
    text: fieldOf(form, 'text').value,
    json: fieldOf(form, 'json').value,
    field: field && field.dataset.input,
    start: field ? field.selectionStart : undefined,
    end: field ? field.selectionEnd : undefined,
  };
  vscode.setState(state);
}

function formOf(target) {
  const form = target instanceof Element ? target.closest('form[data-form]') : null;
  return form instanceof HTMLFormElement ? form : undefined;
}

document.addEventListener('input', (event) => {
  const form = formOf(event.target);
  if (!form) return;
  saveDraft(form);
  // The object is checked while typing; an empty text only once the user asks to run.
  showProblem(form, jsonProblem(form));
});

document.addEventListener('focusin', (event) => {
  const form = formOf(event.target);
  if (form) saveDraft(form);
});

document.addEventListener('submit', (event) => {
  const form = formOf(event.target);
  if (!form) return;
  event.preventDefault();
  const problem = formProblem(form);
  showProblem(form, problem);
  if (problem) {
    fieldOf(form, problem.field).focus();
    return;
  }
  vscode.postMessage({
    type: 'runInputs',
    formId: form.dataset.form,
    text: fieldOf(form, 'text').value,
    json: fieldOf(form, 'json').value,
  });
});

document.addEventListener('keydown', (event) => {
  const form = formOf(event.target);
  if (!form) return;
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    form.requestSubmit();
  } else if (event.key === 'Escape') {
    event.preventDefault();
    vscode.postMessage({ type: 'closeInputs', formId: form.dataset.form });
  }
});

/** Brings back what was typed in this form; a new form takes the focus, its text selected to be typed over. */
function restoreForm() {
  const form = inputsForm();
  const draft = form && state.draft && state.draft.form === form.dataset.form ? state.draft : undefined;
  if (!form) {
    state.draft = undefined;
    return false;
  }
  if (draft) {
    fieldOf(form, 'text').value = draft.text;
    fieldOf(form, 'json').value = draft.json;
    // The extension's own problem stays; otherwise the restored object is checked as typed.
    if (!form.querySelector('.problem').textContent) showProblem(form, jsonProblem(form));
    const field = draft.field && fieldOf(form, draft.field);
    if (!field || !document.hasFocus()) return false;
    field.focus();
    if (draft.start !== undefined && draft.end !== undefined) field.setSelectionRange(draft.start, draft.end);
    return true;
  }
  // Opened by the user's command or button, so it may take the focus.
  const text = fieldOf(form, 'text');
  text.focus();
  text.select();
  saveDraft(form);
  return true;
}

function restore() {
  for (const box of pickBoxes()) box.checked = state.picked.includes(box.dataset.run);
  updateCompare();
  const focus = state.focus;
  // Runs no longer listed (another resource, dropped from the history) stay unticked.
  state.picked = pickedRuns();
  state.focus = undefined;
  // Which resource this page shows, so VS Code can bring the panel back after a reload.
  state.resource = document.body.dataset.resource;
  const focused = restoreForm();
  vscode.setState(state);
  // Only while the page has focus, so a page rendered while the user works elsewhere never takes it.
  if (focused || !focus || !document.hasFocus()) return;
  const target = Array.from(document.querySelectorAll('button[data-action]')).find(
    (b) => b.dataset.action === focus.action && b.dataset.run === focus.run && b.dataset.field === focus.field,
  );
  if (target instanceof HTMLButtonElement && !target.disabled) target.focus();
}

restore();
vscode.postMessage({ type: 'ready' });
