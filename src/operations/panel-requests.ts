import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import { responseOf, type RunRecord } from '../core/history';
import type { FormPlace, InputsForms } from '../core/inputs-form';
import { parseResourcePath, toResourceUriString } from '../core/uri';
import { COMMANDS } from '../commands';
import { ReadOnlyDocuments } from '../shared/read-only-documents';
import type { Log } from '../log';
import { showFailure } from '../ui/notify';
import type { HistoryStore } from '../shared/history-store';
import type { PanelRequest, ResultsPanel } from './panel';
import type { Runner } from './runner';

const RUN_SCHEME = 'convai-run';

/** A run's response as a read-only document, one side of a comparison of two runs. */
function runUri(run: RunRecord): vscode.Uri {
  return vscode.Uri.from({ scheme: RUN_SCHEME, path: `/${run.id}.json`, query: run.resource });
}

/** Read from the history when shown, which holds the runs already: nothing is stored twice. */
function runText(history: HistoryStore, uri: vscode.Uri): string {
  const id = uri.path.replace(/^\//, '').replace(/\.json$/, '');
  const run = history.find(uri.query, id);
  if (!run) return '';
  const shown = responseOf(run.outcome) ?? run.outcome;
  return `${JSON.stringify(shown, null, 2)}\n`;
}

function field(run: RunRecord, name: string): string | undefined {
  const response = responseOf(run.outcome) ?? {};
  const value = name in response ? response[name] : run.inputs[name];
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * Acts on what the results panel asks for. From the webview come run ids and
 * field names, whose values are looked up in the history, and the texts of
 * the inputs form, which are checked again before anything runs.
 */
export function handlePanelRequests(
  log: Log,
  panel: ResultsPanel,
  runner: Runner,
  history: HistoryStore,
  forms: InputsForms,
): vscode.Disposable[] {
  const find = (runId: string): RunRecord | undefined => {
    const resource = runner.shownResource;
    return resource ? history.find(resource, runId) : undefined;
  };
  // The form answered (its problem shown) or closed: the page shows what is left.
  const showAgain = (place: FormPlace | undefined): void => {
    if (place) runner.show(place.resource, place.label);
  };
  const act = async (request: PanelRequest): Promise<void> => {
    switch (request.type) {
      case 'ready':
        return;
      case 'cancel':
        runner.cancel();
        return;
      case 'select': {
        const run = find(request.runId);
        if (run) runner.show(run.resource, run.resourceLabel, run.id);
        return;
      }
      case 'copy': {
        const run = find(request.runId);
        const text = run && field(run, request.field);
        if (text === undefined) return;
        await vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage(plain`$(copy) Copied ${request.field}`, 3000);
        return;
      }
      case 'rerun': {
        const run = find(request.runId);
        if (run) await runner.rerun(run);
        return;
      }
      case 'edit': {
        const run = find(request.runId);
        if (run) await runner.edit(run);
        return;
      }
      case 'runInputs':
        showAgain(forms.answer(request.formId, { text: request.text, json: request.json }));
        return;
      case 'closeInputs':
        showAgain(forms.close(request.formId));
        return;
      case 'compare': {
        const [a, b] = request.runIds.map(find);
        if (!a || !b) return;
        const [older, newer] = a.startedAt <= b.startedAt ? [a, b] : [b, a];
        await vscode.commands.executeCommand(
          'vscode.diff',
          runUri(older),
          runUri(newer),
          `${older.resourceLabel}: run of ${new Date(older.startedAt).toLocaleString()} ↔ ${new Date(newer.startedAt).toLocaleString()}`,
        );
        return;
      }
      case 'saveAsTestCase':
      case 'continueConversation':
      case 'saveAsConversationCase': {
        const run = find(request.runId);
        // A class instance: the command treats it as a user's, showing what it did (or why not).
        if (run) await vscode.commands.executeCommand(COMMANDS[request.type], new RunRef(run.resource, run.id));
        return;
      }
      case 'openPrompt': {
        const run = find(request.runId);
        const next = run?.outcome.kind === 'ok' ? run.outcome.response.next_prompt_id : undefined;
        const uri = run && vscode.Uri.parse(run.resource);
        const location = uri && parseResourcePath(uri.authority, uri.path);
        if (typeof next !== 'number' || location?.type !== 'resource') return;
        const target = toResourceUriString({ ...location, segment: 'ai_prompts', id: next });
        await vscode.commands.executeCommand('vscode.open', vscode.Uri.parse(target), {
          viewColumn: vscode.ViewColumn.One,
        });
        return;
      }
    }
  };
  return [
    new ReadOnlyDocuments(RUN_SCHEME, (uri) => runText(history, uri)),
    // A button's failure (a run refused, a connection gone) is said as a command's would be.
    panel.onDidRequest(
      (request) =>
        void act(request).catch((error: unknown) => {
          log.for('operations').error(error instanceof Error ? error : String(error));
          showFailure(log, error);
        }),
    ),
  ];
}

/** Names a recorded run to a command started from the results panel. */
export class RunRef {
  constructor(
    readonly resource: string,
    readonly runId: string,
  ) {}
}
