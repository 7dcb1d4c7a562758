import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import type { ConvaiFileSystem } from '../documents/filesystem';
import type { Changes } from '../documents/changes';
import { parseUri } from '../shared/locations';
import type { Log } from '../log';
import { registerPartCommands } from './commands';
import { registerPartLenses } from './lenses';
import { partOwnerIndicator } from './owner-indicator';
import { registerPlaceholders } from './placeholders';

/**
 * VS Code opens every file named settings.json as JSON with comments, which
 * the service's settings string cannot hold: a prompt's settings part is strict JSON.
 */
function strictJsonSettings(document: vscode.TextDocument): void {
  const location = parseUri(document.uri);
  const json = location?.type === 'part' && (location.part === 'settings' || location.part === 'function_defs');
  if (json && document.languageId !== 'json') void vscode.languages.setTextDocumentLanguage(document, 'json');
}

/**
 * A prompt's texts and JSON-in-a-string fields, and an agent's element texts,
 * as documents of their own (served by documents/, saved by its one engine):
 * ways to open them, whose they are while one is active, writing help for placeholders, and adding AI functions.
 */
export function register(
  context: vscode.ExtensionContext,
  { log, files, listings, changes }: { log: Log; files: ConvaiFileSystem; listings: ListingCache; changes: Changes },
): void {
  for (const document of vscode.workspace.textDocuments) strictJsonSettings(document);
  context.subscriptions.push(
    registerPartLenses(),
    ...registerPartCommands(log, files, listings),
    ...partOwnerIndicator(listings, changes.onDidChange),
    ...registerPlaceholders(files),
    vscode.workspace.onDidOpenTextDocument(strictJsonSettings),
  );
}
