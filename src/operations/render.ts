/**
 * The results panel's HTML and the messages its page may send back. Pure (no
 * `vscode`), so both are tested in plain Node.
 *
 * Everything shown comes from the service, the AI, the user's inputs or the
 * history in storage, so it is text: the `html` template escapes every value
 * it is given, and only fragments built by `html` itself pass through. The
 * page's buttons carry only run ids and field names, never service text.
 */
import type { Json, JsonObject } from '../core/client';
import type { Operation, RunOutcome, RunRecord } from '../core/history';

export interface PanelModel {
  /** The resource's `convai:` URI. */
  resource: string;
  resourceLabel: string;
  /** The run shown in full; absent when there is none yet. */
  selected?: RunRecord;
  /** The resource's runs, newest first. */
  runs: RunRecord[];
  /** A run in progress: shown with a Cancel button. */
  running?: { operation: Operation; startedAt: string };
  /** Names of the prompts the runs lead to (`next_prompt_id`), where known. */
  promptNames?: Readonly<Record<number, string>>;
}

export interface PanelAssets {
  nonce: string;
  cspSource: string;
  scriptUri: string;
  styleUri: string;
}

/** The inputs and outputs of each operation (service API 4.2 and 4.3), in the order shown. */
const FIELDS = {
  test_prompt: { inputs: ['prompt_text', 'prompt_params'], outputs: ['response', 'altered_prompt', 'next_prompt_id', 'next_prompt_params'] },
  execute_action: { inputs: ['action', 'params'], outputs: ['result', 'status'] },
  send_request: { inputs: ['arguments'], outputs: ['status', 'headers', 'body', 'request'] },
} as const satisfies Record<Operation, { inputs: readonly string[]; outputs: readonly string[] }>;

type OperationFields = (typeof FIELDS)[Operation];
/** A field the page may ask to copy. */
export type RunField = OperationFields['inputs'][number] | OperationFields['outputs'][number];

const RUN_FIELDS: ReadonlySet<string> = new Set(Object.values(FIELDS).flatMap((f) => [...f.inputs, ...f.outputs]));

/** What the page's buttons post; `parsePanelRequest` lets nothing else through. */
export type PanelRequest =
  | { type: 'ready' }
  | { type: 'cancel' }
  | { type: 'select'; runId: string }
  | { type: 'rerun'; runId: string }
  | { type: 'copy'; runId: string; field: RunField }
  | { type: 'compare'; runIds: [string, string] }
  | { type: 'openPrompt'; runId: string }
  | { type: 'saveAsTestCase'; runId: string };

const MAX_RUN_ID = 100;
const PREVIEW_LENGTH = 80;

// ---- Messages from the page ------------------------------------------------

function isRunId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_RUN_ID;
}

function isRunField(value: unknown): value is RunField {
  return typeof value === 'string' && RUN_FIELDS.has(value);
}

/**
 * The request a message from the page stands for, or undefined. The page is
 * the least trusted part of the extension (it shows service text), so a
 * message must match one shape exactly: no unknown type, no extra keys.
 */
export function parsePanelRequest(message: unknown): PanelRequest | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  const keys = Object.keys(m);
  const only = (...allowed: string[]): boolean => keys.every((key) => allowed.includes(key));
  switch (m.type) {
    case 'ready':
    case 'cancel':
      return only('type') ? { type: m.type } : undefined;
    case 'select':
    case 'rerun':
    case 'openPrompt':
    case 'saveAsTestCase':
      return only('type', 'runId') && isRunId(m.runId) ? { type: m.type, runId: m.runId } : undefined;
    case 'copy':
      return only('type', 'runId', 'field') && isRunId(m.runId) && isRunField(m.field) ? { type: 'copy', runId: m.runId, field: m.field } : undefined;
    case 'compare': {
      if (!only('type', 'runIds') || !Array.isArray(m.runIds) || m.runIds.length !== 2) return undefined;
      const [a, b] = m.runIds as unknown[];
      return isRunId(a) && isRunId(b) && a !== b ? { type: 'compare', runIds: [a, b] } : undefined;
    }
    default:
      return undefined;
  }
}

// ---- Escaping ----------------------------------------------------------------

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** Markup built by `html`: the only thing inserted without escaping. */
class Html {
  constructor(readonly markup: string) {}
}

type Part = Html | string | number | false | undefined | readonly Part[];

function markupOf(part: Part): string {
  if (part instanceof Html) return part.markup;
  if (part === false || part === undefined) return '';
  if (typeof part === 'string' || typeof part === 'number') return escapeHtml(String(part));
  return part.map(markupOf).join('');
}

function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(strings.reduce((out, literal, i) => out + markupOf(parts[i - 1]) + literal));
}

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

/** Local date and time, to the second; the stored text when it is not a date. */
function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
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
      return outcome.status === undefined ? `Failed: ${outcome.message}` : `HTTP error ${outcome.status}: ${outcome.message}`;
    case 'cancelled':
      return 'Cancelled';
  }
}

function responseOf(outcome: RunOutcome): JsonObject | undefined {
  return outcome.kind === 'ok' || outcome.kind === 'failed-status' ? outcome.response : undefined;
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

function time(iso: string): Html {
  return html`<time datetime="${iso}">${formatTime(iso)}</time>`;
}

function button(label: string, data: Record<string, string>, options: { primary?: boolean; disabled?: boolean; ariaLabel?: string } = {}): Html {
  const attributes = Object.entries(data).map(([name, value]) => html` data-${name}="${value}"`);
  return html`<button type="button" class="${options.primary ? 'primary' : 'secondary'}"${attributes}${options.ariaLabel !== undefined && html` aria-label="${options.ariaLabel}"`}${options.disabled && html` disabled`}>${label}</button>`;
}

/** One input or output: its name, Copy, and the text in a wrapping <pre> that scrolls with the keyboard too. */
function field(run: RunRecord, name: RunField, value: Json | undefined, missing: string, extra?: Html): Html {
  const id = `field-${name}`;
  const body = value === undefined
    ? html`<p class="absent">${missing}</p>`
    // The parser drops a newline right after <pre>: this one, not the value's own.
    : html`<pre tabindex="0" aria-labelledby="${id}">\n${textOf(value)}</pre>`;
  return html`<div class="field">
<div class="field-head"><h4 id="${id}">${name}</h4>${value !== undefined && button('Copy', { action: 'copy', run: run.id, field: name }, { ariaLabel: `Copy ${name}` })}${extra}</div>
${body}
</div>`;
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
    const open = next !== undefined
      ? button(nextName === undefined ? `Open prompt ${next}` : `Open "${nextName}" (prompt ${next})`, { action: 'openPrompt', run: run.id })
      : undefined;
    return field(run, name, value, 'Not in the response.', open);
  });
  const others = Object.entries(response).filter(([key]) => !names.some((name) => name === key));
  const rest = others.length > 0 && html`<div class="field">
<h4 id="field-other">Other fields</h4>
<pre tabindex="0" aria-labelledby="field-other">\n${textOf(Object.fromEntries(others))}</pre>
</div>`;
  return html`${shown}${rest}`;
}

function versionText(run: RunRecord): Html {
  const saved = run.version.savedHash === undefined ? html`the saved version` : html`saved version <code>${run.version.savedHash}</code>`;
  return html`Ran ${saved}${run.version.unsavedChanges && html`; the editor had unsaved changes that did not run`}.`;
}

function selectedRun(run: RunRecord, running: boolean, promptNames: PanelModel['promptNames']): Html {
  const inputs: readonly RunField[] = FIELDS[run.operation].inputs;
  return html`<section aria-labelledby="run-heading">
<h2 id="run-heading">${run.operation} run of ${time(run.startedAt)}</h2>
<p class="outcome outcome-${run.outcome.kind}">${outcomeText(run.outcome)}</p>
<p class="meta">Started ${time(run.startedAt)}, took ${formatDuration(run.durationMs)}. ${versionText(run)}</p>
<div class="actions">${button('Run again', { action: 'rerun', run: run.id }, { primary: true, disabled: running })}${run.operation !== 'send_request' && responseOf(run.outcome) !== undefined && button('Save as Test Case', { action: 'saveAsTestCase', run: run.id })}</div>
<h3>Inputs</h3>
${inputs.map((name) => field(run, name, run.inputs[name], 'None.'))}
<h3>Outputs</h3>
${outputs(run, promptNames)}
</section>`;
}

function historyRow(run: RunRecord, selected: boolean): Html {
  const when = formatTime(run.startedAt);
  return html`<tr${selected && html` class="selected" aria-current="true"`}>
<td><input type="checkbox" data-role="pick" data-run="${run.id}" aria-label="Compare the run of ${when}"></td>
<td>${time(run.startedAt)}</td>
<td class="outcome outcome-${run.outcome.kind}">${preview(outcomeText(run.outcome))}</td>
<td class="preview">${inputPreview(run)}</td>
<td class="preview">${responsePreview(run)}</td>
<td>${button('Show', { action: 'select', run: run.id }, { ariaLabel: `Show the run of ${when}` })}</td>
</tr>`;
}

function history(model: PanelModel): Html {
  const compare = model.runs.length >= 2 && html`<div class="actions">
${button('Compare selected', { action: 'compare' }, { disabled: true })}
<span class="hint">Tick two runs to compare their outputs.</span>
</div>`;
  return html`<section aria-labelledby="history-heading">
<h2 id="history-heading">History</h2>
<table>
<thead><tr><th scope="col"><span class="visually-hidden">Compare</span></th><th scope="col">Time</th><th scope="col">Outcome</th><th scope="col">Input</th><th scope="col">Response</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>
${model.runs.map((run) => historyRow(run, run.id === model.selected?.id))}
</tbody>
</table>
${compare}
</section>`;
}

/** The announced line: the run in progress, else how the newest run ended. */
function status(model: PanelModel): Html {
  const newest = model.runs[0];
  const text = model.running
    ? html`Running ${model.running.operation}… (started ${time(model.running.startedAt)})`
    : newest
      ? html`Last run, ${time(newest.startedAt)}: ${outcomeText(newest.outcome)}`
      : html`No runs yet.`;
  return html`<div class="status-bar">
<p class="status" role="status" aria-live="polite">${text}</p>
${model.running && button('Cancel', { action: 'cancel' })}
</div>`;
}

function body(model: PanelModel): Html {
  if (model.runs.length === 0 && !model.selected) {
    return html`<p class="empty">Results of test_prompt and execute_action on this resource appear here, with their history.</p>`;
  }
  const selected = model.selected
    ? selectedRun(model.selected, model.running !== undefined, model.promptNames)
    : html`<p class="empty">Choose a run in the history to see it in full.</p>`;
  return html`${selected}${model.runs.length > 0 && history(model)}`;
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
${status(model)}
${body(model)}
</main>
<script nonce="${nonce}" src="${assets.scriptUri}"></script>
</body>
</html>
`.markup;
}
