import * as vscode from 'vscode';
import type { Json, JsonObject } from '../core/json';
import { placeholderBeingTyped, placeholderSpans, placeholdersOf, PROMPT_TEXT_FIELDS } from '../core/prompt-text';
import { agentElements } from '../core/document-views';
import { SCHEME, type PartLocation } from '../core/uri';
import type { ConvaiFileSystem } from '../documents/filesystem';
import { parseUri, toUri } from '../shared/locations';
import { registerPlaceholderMarks } from './placeholder-marks';

/**
 * Only the text parts of `convai:` documents: a TextMate injection into
 * Markdown would colour `{{…}}` in the user's own Markdown files too.
 */
const TEXT_PARTS: vscode.DocumentSelector = { scheme: SCHEME, language: 'markdown' };

/** A token type of our own (package.json `semanticTokenTypes`), styled like a variable by themes that know no better. */
const LEGEND = new vscode.SemanticTokensLegend(['convaiPlaceholder']);

class PlaceholderTokens implements vscode.DocumentSemanticTokensProvider {
  provideDocumentSemanticTokens(document: vscode.TextDocument): vscode.SemanticTokens {
    const builder = new vscode.SemanticTokensBuilder(LEGEND);
    for (const span of placeholderSpans(document.getText())) {
      const start = document.positionAt(span.start);
      const end = document.positionAt(span.end);
      // A placeholder cannot span lines (its name holds no white space but around it).
      if (start.line === end.line) builder.push(new vscode.Range(start, end), 'convaiPlaceholder');
    }
    return builder.build();
  }
}

/** The text of a part as the user sees it: its open document (perhaps unsaved), else the service's value. */
function currentText(location: PartLocation, serviceValue: Json | undefined): string | undefined {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === toUri(location).toString());
  return open ? open.getText() : typeof serviceValue === 'string' ? serviceValue : undefined;
}

/** The texts whose placeholders a part offers: the prompt's (or agent's) other texts, as the user sees them. */
function siblingTexts(document: vscode.TextDocument, files: ConvaiFileSystem): string[] {
  const location = parseUri(document.uri);
  const service: JsonObject | undefined = files.serviceObject(document.uri);
  if (!service || (location?.type !== 'part' && location?.type !== 'agentPrompt')) return [];
  if (location.type === 'part') {
    return PROMPT_TEXT_FIELDS.filter((field) => field !== location.part)
      .map((field) => currentText({ ...location, part: field }, service[field]))
      .filter((t): t is string => t !== undefined);
  }
  return (agentElements(service) ?? []).flatMap((e) => {
    if (typeof e.name !== 'string' || e.name === location.element) return [];
    const text = currentText({ ...location, element: e.name }, e.prompt);
    return text === undefined ? [] : [text];
  });
}

/** Inside `{{`: the placeholders the prompt's texts already use, so a name is written the same way everywhere. */
class PlaceholderCompletion implements vscode.CompletionItemProvider {
  constructor(private readonly files: ConvaiFileSystem) {}

  provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): vscode.CompletionItem[] | undefined {
    const before = document.lineAt(position.line).text.slice(0, position.character);
    const typing = placeholderBeingTyped(before);
    if (!typing) return undefined;
    const range = new vscode.Range(position.line, typing.nameStart, position.line, position.character);
    const after = document.lineAt(position.line).text.slice(position.character);
    const closes = /^\s*\}\}/.test(after);
    // This document's own placeholders, except the one being typed.
    const own =
      document.getText().slice(0, document.offsetAt(range.start)) +
      document.getText().slice(document.offsetAt(range.end));
    return placeholdersOf([...siblingTexts(document, this.files), own]).map((name) => {
      const item = new vscode.CompletionItem(name, vscode.CompletionItemKind.Variable);
      item.range = range;
      item.insertText = closes ? name : `${name}}}`;
      item.detail = 'placeholder used in this prompt';
      return item;
    });
  }
}

export function registerPlaceholders(files: ConvaiFileSystem): vscode.Disposable[] {
  return [
    ...registerPlaceholderMarks(),
    vscode.languages.registerDocumentSemanticTokensProvider(TEXT_PARTS, new PlaceholderTokens(), LEGEND),
    vscode.languages.registerCompletionItemProvider(TEXT_PARTS, new PlaceholderCompletion(files), '{'),
  ];
}
