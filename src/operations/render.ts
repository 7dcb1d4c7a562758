/**
 * The results panel's HTML. Pure (no `vscode`), so it is tested in plain Node.
 *
 * Every value shown is escaped by `html` (html.ts). The page's buttons carry
 * only run and form ids and field names, never service text
 * (panel-messages.ts says what the page may send back).
 */
import type { Json, JsonObject } from '../core/json';
import { responseOf, type Operation, type RunOutcome, type RunRecord } from '../core/history';
import type { InputsForm } from '../core/inputs-form';
import { isServiceOperation } from '../core/run-inputs';
import { button, formatTime, html, time, type Html } from './html';
import { inputsForm } from './render-form';
import { conversationSection } from './render-conversation';
import { nextStep } from '../core/run-conversations';
import { FIELDS, type RunField } from './run-fields';

export interface PanelModel {
  /** The resource's `convai:` URI. */
  resource: string;
  resourceLabel: string;
  /** The run shown in full; absent when there is none yet. */
  selected?: RunRecord;
  /** The resource's runs, newest first. */
  runs: RunRecord[];
  /** A run in progress: shown in place of the selected run, with a Cancel button. */
  running?: { operation: Operation; startedAt: string; inputs: JsonObject };
  /** Names of the prompts the runs lead to (`next_prompt_id`), where known. */
  promptNames?: Readonly<Record<number, string>>;
  /** The inputs form of a new run, shown first. */
  form?: InputsForm;
  /** The turns of the selected run's conversation, oldest first, when it continued another run. */
  conversation?: RunRecord[];
}

export interface PanelAssets {
  nonce: string;
  cspSource: string;
  scriptUri: string;
  styleUri: string;
}

const PREVIEW_LENGTH = 80;

// ---- Text of runs --------------------------------------------------------------

/** How a value is shown and copied: strings as they are, anything else as JSON. */
function textOf(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** A one-line preview of at most PREVIEW_LENGTH characters (cut before escaping, so no entity is split). */
function preview(text: string): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH - 1).join('')}…` : chars.join('');
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function outcomeText(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'ok':
      return 'Succeeded';
    case 'failed-status':
      return `Failed: status "${textOf(outcome.response.status ?? null)}"`;
    case 'error':
      return outcome.status === undefined
        ? `Failed: ${outcome.message}`
        : `HTTP error ${outcome.status}: ${outcome.message}`;
    case 'cancelled':
      return 'Cancelled';
  }
}

function inputPreview(run: RunRecord): string {
  const main = run.inputs[FIELDS[run.operation].inputs[0]];
  return main === undefined ? '' : preview(textOf(main));
}

function responsePreview(run: RunRecord): string {
  const response = responseOf(run.outcome);
  const main = response?.[FIELDS[run.operation].outputs[0]];
  if (main !== undefined) return preview(textOf(main));
  return run.outcome.kind === 'error' ? preview(run.outcome.message) : '';
}

// ---- Markup ----------------------------------------------------------------------

/** One input or output: its name, Copy (for a recorded run), and the text in a wrapping <pre> that scrolls with the keyboard too. */
function field(
  runId: string | undefined,
  name: RunField,
  value: Json | undefined,
  missing: string,
  extra?: Html,
): Html {
  const id = `field-${name}`;
  const body =
    value === undefined
      ? html`<p class="absent">${missing}</p>`
      : // The parser drops a newline right after <pre>: this one, not the value's own.
        html`<pre tabindex="0" aria-labelledby="${id}">\n${textOf(value)}</pre>`;
  const copy =
    value !== undefined &&
    runId !== undefined &&
    button('Copy', { action: 'copy', run: runId, field: name }, { ariaLabel: `Copy ${name}` });
  return html`<div class="field">
<div class="field-head"><h4 id="${id}">${name}</h4>${copy}${extra}</div>
${body}
</div>`;
}

function inputFields(operation: Operation, inputs: JsonObject, runId: string | undefined): Html {
  const names: readonly RunField[] = FIELDS[operation].inputs;
  return html`<h3>Inputs</h3>
${names.map((name) => field(runId, name, inputs[name], 'None.'))}`;
}

function outputs(run: RunRecord, promptNames: PanelModel['promptNames']): Html {
  const response = responseOf(run.outcome);
  if (!response) {
    return html`<p class="absent">No outputs: ${run.outcome.kind === 'cancelled' ? 'the run was cancelled' : 'the request failed'}.</p>`;
  }
  const names: readonly RunField[] = FIELDS[run.operation].outputs;
  const shown = names.map((name) => {
    const value = response[name];
    const next = name === 'next_prompt_id' && typeof value === 'number' ? value : undefined;
    const nextName = next === undefined ? undefined : promptNames?.[next];
    const open =
      next !== undefined
        ? button(nextName === undefined ? `Open prompt ${next}` : `Open "${nextName}" (prompt ${next})`, {
            action: 'openPrompt',
            run: run.id,
          })
        : undefined;
    return field(run.id, name, value, 'Not in the response.', open);
  });
  const others = Object.entries(response).filter(([key]) => !names.some((name) => name === key));
  const rest =
    others.length > 0 &&
    html`<div class="field">
<h4 id="field-other">Other fields</h4>
<pre tabindex="0" aria-labelledby="field-other">\n${textOf(Object.fromEntries(others))}</pre>
</div>`;
  return html`${shown}${rest}`;
}

function versionText(run: RunRecord): Html {
  if (run.version.trial) return html`Ran your unsaved version as a trial; nothing was saved.`;
  const saved =
    run.version.savedHash === undefined
      ? html`the saved version`
      : html`saved version <code>${run.version.savedHash}</code>`;
  return html`Ran ${saved}${run.version.unsavedChanges && html`; the editor had unsaved changes that did not run`}.`;
}

/** The panel's one announced line: how the run shown ended, or that it is running (with Cancel). */
function status(text: Html | string, kind: RunOutcome['kind'] | 'running' | 'none', cancel = false): Html {
  return html`<div class="status-bar">
<p class="status outcome-${kind}" role="status" aria-live="polite">${text}</p>
${cancel && button('Cancel', { action: 'cancel' }, { ariaLabel: 'Cancel the run' })}
</div>`;
}

function runHeading(operation: Operation, startedAt: string): Html {
  return html`<h2 id="run-heading">${operation} run of ${time(startedAt)}</h2>`;
}

function runningRun(running: NonNullable<PanelModel['running']>): Html {
  return html`<section aria-labelledby="run-heading">
${runHeading(running.operation, running.startedAt)}
${status(`Running ${running.operation}…`, 'running', true)}
${inputFields(running.operation, running.inputs, undefined)}
<h3>Outputs</h3>
<p class="absent">Waiting for the answer.</p>
</section>`;
}

function selectedRun(
  run: RunRecord,
  promptNames: PanelModel['promptNames'],
  conversation: PanelModel['conversation'],
): Html {
  const edit = isServiceOperation(run.operation) && button('Edit and Run', { action: 'edit', run: run.id });
  const save =
    run.operation !== 'send_request' &&
    responseOf(run.outcome) !== undefined &&
    button('Save as Test Case', { action: 'saveAsTestCase', run: run.id });
  const next = nextStep(run);
  const proceed =
    next !== undefined && button('Continue Conversation', { action: 'continueConversation', run: run.id });
  const saveTurns =
    run.conversation !== undefined &&
    button('Save as Conversation Case', { action: 'saveAsConversationCase', run: run.id });
  return html`<section aria-labelledby="run-heading">
${runHeading(run.operation, run.startedAt)}
${status(`${outcomeText(run.outcome)} (${formatDuration(run.durationMs)})`, run.outcome.kind)}
<p class="meta">${versionText(run)}</p>
<div class="actions">${button('Run again', { action: 'rerun', run: run.id }, { primary: true })}${edit}${save}${proceed}${saveTurns}</div>
${conversation && conversation.length > 1 && conversationSection(conversation, promptNames)}
${inputFields(run.operation, run.inputs, run.id)}
<h3>Outputs</h3>
${outputs(run, promptNames)}
</section>`;
}

function historyRow(run: RunRecord, selected: boolean, running: boolean): Html {
  const when = formatTime(run.startedAt);
  return html`<tr${selected && html` class="selected" aria-current="true"`}>
<td><input type="checkbox" data-role="pick" data-run="${run.id}" aria-label="Compare the run of ${when}"></td>
<td>${time(run.startedAt)}</td>
<td class="outcome outcome-${run.outcome.kind}">${preview(outcomeText(run.outcome))}</td>
<td class="preview">${inputPreview(run)}</td>
<td class="preview">${responsePreview(run)}</td>
<td>${button('Show', { action: 'select', run: run.id }, { ariaLabel: `Show the run of ${when}`, disabled: running })}</td>
</tr>`;
}

function history(model: PanelModel): Html {
  const running = model.running !== undefined;
  const compare =
    model.runs.length >= 2 &&
    html`<div class="actions">
${button('Compare selected', { action: 'compare' }, { disabled: true })}
<span class="hint">Tick two runs to compare their outputs.</span>
</div>`;
  return html`<section aria-labelledby="history-heading">
<h2 id="history-heading">History</h2>
<table>
<thead><tr><th scope="col"><span class="visually-hidden">Compare</span></th><th scope="col">Time</th><th scope="col">Outcome</th><th scope="col">Input</th><th scope="col">Response</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${model.runs.map((run) => historyRow(run, !running && run.id === model.selected?.id, running))}
</tbody>
</table>
${compare}
</section>`;
}

/** The run in progress, else the selected run; the status line goes with it. */
function shownRun(model: PanelModel): Html {
  if (model.running) return runningRun(model.running);
  if (model.selected) return selectedRun(model.selected, model.promptNames, model.conversation);
  if (model.runs.length > 0) return status('Choose a run in the history to see it in full.', 'none');
  // A form that continues a conversation shows its turns: "No runs yet" would deny them.
  if (model.form?.continues) return html``;
  return html`${status('No runs yet.', 'none')}
<p class="empty">Results of test_prompt and execute_action on this resource appear here, with their history.</p>`;
}

/** The panel's whole document. */
export function renderResults(model: PanelModel, assets: PanelAssets): string {
  const { nonce, cspSource } = assets;
  // Built with `html` so the policy's own quotes stay readable while the sources are escaped.
  const csp = html`default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src ${cspSource}; font-src ${cspSource}`;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${assets.styleUri}">
<title>Results: ${model.resourceLabel}</title>
</head>
<body data-resource="${model.resource}">
<main>
<h1>${model.resourceLabel}</h1>
${model.form && inputsForm(model.form, model.promptNames)}
${shownRun(model)}
${model.runs.length > 0 && history(model)}
</main>
<script nonce="${nonce}" src="${assets.scriptUri}"></script>
</body>
</html>
`.markup;
}
