/**
 * A plan's problems as rows of a Source Control list, where a person looks
 * for what stands in the way of a push: each names its file, opens it at its
 * place, and says the problem in its tooltip.
 */
import * as vscode from 'vscode';
import { problemOfText } from '../../core/tenant/folder-problems';

export function problemState(root: vscode.Uri, text: string): vscode.SourceControlResourceState {
  const { file, line = 1, column = 1, message } = problemOfText(text);
  const uri = file === '' ? root : vscode.Uri.joinPath(root, ...file.replace(/\/$/, '').split('/'));
  const at = new vscode.Position(line - 1, column - 1);
  return {
    resourceUri: uri,
    decorations: { tooltip: message, iconPath: new vscode.ThemeIcon('warning') },
    command: { title: 'Open File', command: 'vscode.open', arguments: [uri, { selection: new vscode.Range(at, at) }] },
  };
}
