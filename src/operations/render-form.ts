/**
 * The results panel's inputs form: the text and the JSON object of a new run. The page checks the object while
 * typing and posts the two texts; the extension checks them again (core/inputs-form.ts). Pure (no `vscode`).
 */
import type { RunRecord } from '../core/history';
import type { InputsForm } from '../core/inputs-form';
import { emptyTextProblem, INPUT_FIELDS, MAX_INPUT_LENGTH } from '../core/run-inputs';
import { button, html, time, type Html } from './html';
import { conversationSection } from './render-conversation';

const MIN_ROWS = 3;
const MAX_ROWS = 20;

/** Tall enough for the text shown and a line more, within bounds. */
function rows(text: string): number {
  return Math.min(MAX_ROWS, Math.max(MIN_ROWS, text.split('\n').length + 1));
}

function textField(form: InputsForm): Html {
  const { draft, suggestions } = form;
  if (form.operation === 'test_prompt') {
    // The parser drops a newline right after <textarea>: this one, not the text's own.
    return html`<textarea id="input-text" data-input="text" rows="${rows(draft.text)}" maxlength="${MAX_INPUT_LENGTH}" aria-describedby="input-problem">\n${draft.text}</textarea>`;
  }
  const recent =
    suggestions.length > 0 &&
    html`<datalist id="input-recent">${suggestions.map((value) => html`<option value="${value}">`)}</datalist>`;
  return html`<input id="input-text" data-input="text" type="text" value="${draft.text}" maxlength="${MAX_INPUT_LENGTH}" autocomplete="off"${recent && html` list="input-recent"`} aria-describedby="input-problem">${recent}`;
}

/** What a Continue Conversation form carries on: when the conversation began, how far it got, and its turns. */
function continued(turns: readonly RunRecord[], promptNames: Readonly<Record<number, string>> | undefined): Html {
  const first = turns[0];
  if (!first) return html``;
  // Counted by the last turn's number: the history may have dropped the oldest turns.
  const total = turns[turns.length - 1]?.conversation?.turn ?? turns.length;
  const count = total === 1 ? '1 turn' : `${total} turns`;
  return conversationSection(turns, promptNames, {
    id: 'continued-heading',
    title: html`Continuing the conversation of ${time(first.startedAt)}, ${count}`,
  });
}

export function inputsForm(form: InputsForm, promptNames?: Readonly<Record<number, string>>): Html {
  const { text, object } = INPUT_FIELDS[form.operation];
  return html`<section aria-labelledby="inputs-heading">
<h2 id="inputs-heading">New ${form.operation} run</h2>
${form.continues && continued(form.continues, promptNames)}
<form class="inputs" data-form="${form.id}" data-object="${object}" data-empty="${emptyTextProblem(form.operation)}" novalidate>
<label for="input-text">${text}</label>
${textField(form)}
<label for="input-json">${object} <span id="input-json-hint" class="hint">(a JSON object; empty sends none)</span></label>
<textarea id="input-json" class="json" data-input="json" rows="${rows(form.draft.json)}" maxlength="${MAX_INPUT_LENGTH}" spellcheck="false" aria-describedby="input-json-hint input-problem">\n${form.draft.json}</textarea>
<p id="input-problem" class="problem" aria-live="polite">${form.problem}</p>
<div class="actions"><button type="submit" class="primary">Run</button>${button('Cancel', { action: 'closeInputs', form: form.id })}<span class="hint">Ctrl+Enter runs, Escape cancels.</span></div>
</form>
</section>`;
}
