import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import type { Changes } from '../documents/changes';
import { ReferenceCompletions } from './completion';
import { DanglingReferenceWarnings } from './dangling';
import { FUNCTION_DEFS_DOCUMENTS, REFERRING_DOCUMENTS } from './documents';
import { FunctionDefinitionLinks, ReferenceLinks } from './links';
import { ReferenceNameHints, ReferenceNameHovers } from './names';

/**
 * References inside resource documents (contract: "References inside
 * documents"): links to the referenced documents, the targets' names,
 * warnings on ids the tenant does not hold, and completion of the ids by name.
 */
export function register(
  context: vscode.ExtensionContext,
  { listings, changes }: { listings: ListingCache; changes: Changes },
): void {
  const hints = new ReferenceNameHints(listings, changes.onDidChange);
  context.subscriptions.push(
    vscode.languages.registerDocumentLinkProvider(REFERRING_DOCUMENTS, new ReferenceLinks()),
    vscode.languages.registerDocumentLinkProvider(FUNCTION_DEFS_DOCUMENTS, new FunctionDefinitionLinks(listings)),
    hints,
    vscode.languages.registerInlayHintsProvider(REFERRING_DOCUMENTS, hints),
    vscode.languages.registerHoverProvider(REFERRING_DOCUMENTS, new ReferenceNameHovers(listings)),
    // After the colon and its space, where a value starts.
    vscode.languages.registerCompletionItemProvider(REFERRING_DOCUMENTS, new ReferenceCompletions(listings), ':', ' '),
    new DanglingReferenceWarnings(listings, changes.onDidChange),
  );
}
