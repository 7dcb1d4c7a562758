/**
 * A background behind each `{{placeholder}}` of a prompt text, in a colour of
 * the extension's own (package.json `colors`, with defaults for dark, light
 * and high-contrast themes): the token colour alone is close to the text's in
 * the default themes, and a person must see at a glance what the service fills.
 */
import * as vscode from 'vscode';
import { placeholderSpans } from '../core/prompt-text';
import { SCHEME } from '../core/uri';

const BACKGROUND = new vscode.ThemeColor('convai.placeholderBackground');

function isPromptText(document: vscode.TextDocument): boolean {
  return document.uri.scheme === SCHEME && document.languageId === 'markdown';
}

export function registerPlaceholderMarks(): vscode.Disposable[] {
  const marks = vscode.window.createTextEditorDecorationType({ backgroundColor: BACKGROUND, borderRadius: '3px' });
  const mark = (editor: vscode.TextEditor): void => {
    if (!isPromptText(editor.document)) return;
    const { document } = editor;
    editor.setDecorations(
      marks,
      placeholderSpans(document.getText()).map(
        (span) => new vscode.Range(document.positionAt(span.start), document.positionAt(span.end)),
      ),
    );
  };
  vscode.window.visibleTextEditors.forEach(mark);
  return [
    marks,
    vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach(mark)),
    vscode.workspace.onDidChangeTextDocument(({ document }) => {
      if (isPromptText(document))
        vscode.window.visibleTextEditors.filter((editor) => editor.document === document).forEach(mark);
    }),
  ];
}
