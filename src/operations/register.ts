import * as vscode from 'vscode';
import { InputsForms } from '../core/inputs-form';
import { isJsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Drafts } from '../documents/drafts';
import type { Log } from '../log';
import { registerCodeLenses } from './codelens';
import { registerOperationCommands } from './commands';
import { registerConversationCommands } from './conversation';
import { HistoryStore } from '../shared/history-store';
import type { Runs } from '../shared/runs';
import { ResultsPanel } from './panel';
import { handlePanelRequests } from './panel-requests';
import { Runner } from './runner';

/** Test Prompt and Execute Action, the results panel and its runner, which other features run their jobs through. */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    listings,
    drafts,
  }: { log: Log; connections: Connections; listings: ListingCache; drafts: Drafts },
): { runs: Runs; history: HistoryStore } {
  const history = new HistoryStore(context.globalState);
  const panel = new ResultsPanel(context.extensionUri, log);
  const forms = new InputsForms();
  const runner = new Runner(connections, history, panel, log, listings, forms, drafts);
  context.subscriptions.push(
    panel,
    // A form that is no longer shown runs nothing.
    panel.onDidClose(() => forms.close()),
    registerCodeLenses(),
    ...registerOperationCommands(log, connections, runner, history, listings, drafts),
    ...registerConversationCommands(log, runner, history, listings),
    ...handlePanelRequests(log, panel, runner, history, forms),
    vscode.window.registerWebviewPanelSerializer('convai.results', {
      deserializeWebviewPanel: async (restored: vscode.WebviewPanel, state: unknown) => {
        const resource = isJsonObject(state) ? state.resource : undefined;
        // A page closed before it had saved its state shows the newest run of all.
        const newest = (typeof resource === 'string' ? history.runs(resource)[0] : undefined) ?? history.newest();
        if (!newest) {
          restored.dispose();
          return;
        }
        panel.adopt(restored);
        runner.show(newest.resource, newest.resourceLabel);
      },
    }),
  );
  return { runs: runner, history };
}
