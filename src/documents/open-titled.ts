/**
 * Opening a resource's document under its name and kind: the contract fixes its URI as `<id>.json`, which VS Code would
 * show as the tab's title, so a prompt and an integration of the same id would both read "1.json".
 */
import * as vscode from 'vscode';
import { documentTitle } from '../core/labels';
import { plainText } from '../core/plain-text';

/** `vscode.open`'s arguments that title the tab; options (even none) are what makes VS Code take a title. */
export function titledOpenArguments(
  uri: vscode.Uri,
  kindLabel: string,
  name: string,
  options: vscode.TextDocumentShowOptions = {},
): unknown[] {
  // The name is the service's text: a right-to-left override in it would reverse the kind after it.
  return [uri, options, documentTitle(kindLabel, plainText(name))];
}

export async function openTitled(
  uri: vscode.Uri,
  kindLabel: string,
  name: string,
  options?: vscode.TextDocumentShowOptions,
): Promise<void> {
  await vscode.commands.executeCommand('vscode.open', ...titledOpenArguments(uri, kindLabel, name, options));
}
