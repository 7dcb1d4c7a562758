import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { parseResourcePath, SCHEME, wholeOf } from '../core/uri';

/** "Test Prompt" and "Execute Action" above the documents they apply to, with the run history beside them. */
class OperationLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const parsed = parseResourcePath(document.uri.authority, document.uri.path);
    // A prompt's part holds its text: Test Prompt belongs above it too.
    const location = parsed?.type === 'part' ? wholeOf(parsed) : parsed;
    if (location?.type !== 'resource') return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const run =
      location.segment === 'ai_prompts'
        ? { title: '$(play) Test Prompt', command: COMMANDS.testPrompt }
        : location.segment === 'integrations'
          ? { title: '$(play) Execute Action', command: COMMANDS.executeAction }
          : undefined;
    if (!run) return [];
    return [
      new vscode.CodeLens(top, { ...run, arguments: [document.uri] }),
      new vscode.CodeLens(top, {
        title: '$(history) Run History',
        command: COMMANDS.showRunHistory,
        arguments: [document.uri],
      }),
    ];
  }
}

export function registerCodeLenses(): vscode.Disposable {
  return vscode.languages.registerCodeLensProvider(
    [
      { scheme: SCHEME, pattern: '**/ai_prompts/*.json' },
      { scheme: SCHEME, pattern: '**/ai_prompts/*/*' },
      { scheme: SCHEME, pattern: '**/integrations/*.json' },
    ],
    new OperationLenses(),
  );
}
