import * as vscode from 'vscode';
import { parameterNames, parseDefinition, placeholderAt } from '../core/request-definition';
import { COMMANDS } from '../commands';
import { Debouncer } from '../core/debounce';

const LANGUAGE = 'convai-apirequest';
/** Definitions are the user's files, saved or not yet; naming the schemes keeps VS Code from warning at activation. */
const DEFINITIONS: vscode.DocumentSelector = ['file', 'untitled'].map((scheme) => ({ scheme, language: LANGUAGE }));

/** Problems the JSON schema cannot see (placeholders and the rules of section 2.9), where they are, while typing. */
function diagnostics(): vscode.Disposable[] {
  const collection = vscode.languages.createDiagnosticCollection(LANGUAGE);
  const update = (document: vscode.TextDocument): void => {
    if (document.languageId !== LANGUAGE) return;
    const { problems } = parseDefinition(document.getText());
    collection.set(
      document.uri,
      problems.map((problem) => {
        const range = new vscode.Range(
          document.positionAt(problem.offset),
          document.positionAt(problem.offset + Math.max(problem.length, 1)),
        );
        const diagnostic = new vscode.Diagnostic(
          range,
          problem.message,
          problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'ConvAI';
        return diagnostic;
      }),
    );
  };
  // After activation, not during it: checking compiles the definition schema.
  const initial = setTimeout(() => vscode.workspace.textDocuments.forEach(update), 0);
  // While typing, a check waits for a pause: each one parses the whole definition.
  const checks = new Debouncer();
  return [
    new vscode.Disposable(() => clearTimeout(initial)),
    checks,
    collection,
    vscode.workspace.onDidOpenTextDocument(update),
    vscode.workspace.onDidChangeTextDocument(({ document }) => {
      if (document.languageId === LANGUAGE) checks.schedule(document.uri.toString(), () => update(document));
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      checks.cancel(document.uri.toString());
      collection.delete(document.uri);
    }),
  ];
}

/** Inside `{{`, the function's parameter names (and api_key). */
class PlaceholderCompletions implements vscode.CompletionItemProvider {
  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
    const text = document.getText();
    const { inPlaceholder, prefix } = placeholderAt(text, document.offsetAt(position));
    if (!inPlaceholder) return [];
    const range = new vscode.Range(position.translate(0, -prefix.length), position);
    const closed = text.slice(document.offsetAt(position)).startsWith('}}');
    const names = [...parameterNames(text), 'api_key'];
    return [...new Set(names)].map((name) => {
      const item = new vscode.CompletionItem(
        name,
        name === 'api_key' ? vscode.CompletionItemKind.Constant : vscode.CompletionItemKind.Variable,
      );
      item.detail = name === 'api_key' ? 'the API Key (in headers)' : 'function parameter';
      item.insertText = closed ? name : `${name}}}`;
      item.range = range;
      return item;
    });
  }
}

class RequestLenses implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title: '$(eye) Preview Request',
        command: COMMANDS.previewRequest,
        arguments: [document.uri],
      }),
      new vscode.CodeLens(top, {
        title: '$(send) Send Request',
        command: COMMANDS.sendRequest,
        arguments: [document.uri],
      }),
    ];
  }
}

export function registerDefinitionEditing(): vscode.Disposable[] {
  return [
    ...diagnostics(),
    vscode.languages.registerCompletionItemProvider(DEFINITIONS, new PlaceholderCompletions(), '{'),
    vscode.languages.registerCodeLensProvider(DEFINITIONS, new RequestLenses()),
  ];
}
