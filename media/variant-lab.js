/* global acquireVsCodeApi, document, window, Element, HTMLButtonElement */
// The variant lab's only script. It places the extension's table as text nodes (names and figures are the service's
// and the AI's text, never markup), posts which cell or Apply was chosen, and says when a table is on the screen.
'use strict';

const vscode = acquireVsCodeApi();

/** An element with its class and text; text goes in as a text node. */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A cell's or a header's figures, one line each, the verdict word first: the colour is never the only sign. */
function figures(parent, figuresOf, verdictWord) {
  parent.append(el('span', 'verdict', verdictWord), el('span', 'rate', figuresOf.rate));
  for (const key of ['interval', 'latency', 'errors'])
    if (figuresOf[key]) parent.append(el('span', key, figuresOf[key]));
}

const VERDICT_WORDS = { pass: 'pass', flaky: 'flaky', fail: 'fail', error: 'error', skipped: 'not run' };
/** A column pools its cases: its word says how its runs went, as its colour does. */
const COLUMN_WORDS = {
  pass: 'all passed',
  flaky: 'some failed',
  fail: 'all failed',
  error: 'some errored',
  skipped: 'not run',
};

function header(column, index) {
  const th = el('th', `column verdict-${column.verdict}`);
  th.scope = 'col';
  th.append(el('span', 'name', column.name));
  figures(th, column, COLUMN_WORDS[column.verdict] || column.verdict);
  if (column.vsBase) th.append(el('span', `vs-base change-${column.vsBase.change}`, column.vsBase.text));
  if (index > 0) {
    const apply = el('button', 'apply', 'Apply');
    apply.type = 'button';
    apply.dataset.column = String(index);
    apply.title = `Write this variant's fields into the prompt's document as unsaved edits`;
    apply.setAttribute('aria-label', `Apply ${column.name}`);
    th.append(apply);
  }
  return th;
}

function row(rowOf, rowIndex, columns) {
  const tr = el('tr');
  const name = el('th', 'case', rowOf.name);
  name.scope = 'row';
  tr.append(name);
  rowOf.cells.forEach((cell, columnIndex) => {
    const td = el('td', `verdict-${cell.verdict}`);
    const button = el('button', 'cell');
    button.type = 'button';
    button.dataset.row = String(rowIndex);
    button.dataset.column = String(columnIndex);
    const word = VERDICT_WORDS[cell.verdict] || cell.verdict;
    button.setAttribute(
      'aria-label',
      [`${rowOf.name} on ${columns[columnIndex].name}: ${word}`, cell.rate, cell.interval, cell.latency, cell.errors]
        .filter(Boolean)
        .join(', '),
    );
    figures(button, cell, word);
    td.append(button);
    tr.append(td);
  });
  return tr;
}

function show({ seq, view }) {
  document.getElementById('title').textContent = view.title;
  document.getElementById('note').textContent = view.note;
  const heads = document.getElementById('heads');
  heads.replaceChildren(heads.firstElementChild, ...view.columns.map(header));
  document.getElementById('rows').replaceChildren(...view.rows.map((r, i) => row(r, i, view.columns)));
  document.getElementById('status').textContent = view.rows.length === 0 ? 'The suite has no case to show.' : '';
  document.getElementById('matrix').hidden = false;
  // Drawn once the browser has laid the table out.
  window.requestAnimationFrame(() => vscode.postMessage({ type: 'drawn', seq }));
}

window.addEventListener('message', (event) => {
  const message = event.data;
  if (message && message.type === 'show') show(message);
});

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button') : null;
  if (!(button instanceof HTMLButtonElement)) return;
  const column = Number(button.dataset.column);
  if (button.classList.contains('cell')) vscode.postMessage({ type: 'open', row: Number(button.dataset.row), column });
  else if (button.classList.contains('apply')) vscode.postMessage({ type: 'apply', column });
});

vscode.postMessage({ type: 'ready' });
