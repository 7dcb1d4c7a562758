/**
 * The conversation a run belongs to, in the results panel: its turns in order, each the text sent, the prompt that
 * answered and the answer. Pure (no `vscode`); every value is escaped by `html`.
 */
import { promptIdOf } from '../core/run-conversations';
import { responseOf, type RunRecord } from '../core/history';
import { html, type Html } from './html';

/** A prompt by its name from the listing where known, else by its id. */
export function promptLabel(resource: string, promptNames: Readonly<Record<number, string>> | undefined): string {
  const id = promptIdOf(resource);
  if (id === undefined) return resource;
  const name = promptNames?.[id];
  return name === undefined ? `prompt ${id}` : `"${name}" (prompt ${id})`;
}

function answerOf(run: RunRecord): string {
  const response = responseOf(run.outcome)?.response;
  if (typeof response === 'string') return response;
  return run.outcome.kind === 'error' ? `(failed: ${run.outcome.message})` : `(${run.outcome.kind})`;
}

/** `heading` titles the list; its id is unique on the page (a form may show one conversation, the run shown another). */
export function conversationSection(
  turns: readonly RunRecord[],
  promptNames: Readonly<Record<number, string>> | undefined,
  heading: { id: string; title: Html | string } = { id: 'conversation-heading', title: 'Conversation' },
): Html {
  const firstTurn = turns[0]?.conversation?.turn ?? 1;
  return html`<h3 id="${heading.id}">${heading.title}</h3>
<ol class="conversation" start="${String(firstTurn)}" aria-labelledby="${heading.id}">
${turns.map(
  (run) => html`<li class="turn">
<p class="turn-sent"><span class="turn-label">Sent:</span> ${String(run.inputs.prompt_text ?? '')}</p>
<p class="turn-prompt"><span class="turn-label">Answered by:</span> ${promptLabel(run.resource, promptNames)}</p>
<pre class="turn-answer" tabindex="0">\n${answerOf(run)}</pre>
</li>`,
)}
</ol>`;
}
