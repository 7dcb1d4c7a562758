import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import type { Connections } from '../connections/registry';
import { parseUri } from '../shared/locations';

/** Says why a ConvAI editor is read-only while it is the active one. */
export function readOnlyIndicator(connections: Connections): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('convai.readOnly', vscode.StatusBarAlignment.Left, 100);
  item.name = 'ConvAI read-only connection';
  const update = (): void => {
    const location = vscode.window.activeTextEditor && parseUri(vscode.window.activeTextEditor.document.uri);
    const connection = location && connections.get(location.connection);
    if (connection?.readOnly) {
      item.text = plain`$(lock) ${connection.name}: read-only`;
      item.tooltip = plain`The connection "${connection.name}" is read-only (readOnly in convai.connections): its documents cannot be saved, and creates, deletes and actions are refused.`;
      item.show();
    } else {
      item.hide();
    }
  };
  update();
  return [item, vscode.window.onDidChangeActiveTextEditor(update), connections.onDidChange(update)];
}
