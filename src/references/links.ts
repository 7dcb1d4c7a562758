import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import {
  definedFunctions,
  findFunctionDefinitionNames,
  findReferenceValues,
  kindLabel,
  namesId,
} from '../core/references';
import { functionDefsPart, listingOf, rangeIn, referringResource, resourceUri } from './documents';

function link(range: vscode.Range, target: vscode.Uri, tooltip: string): vscode.DocumentLink {
  const documentLink = new vscode.DocumentLink(range, target);
  documentLink.tooltip = tooltip;
  return documentLink;
}

/** The id is in the text, so these links need no listing and never wait for the network. */
export class ReferenceLinks implements vscode.DocumentLinkProvider {
  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    const resource = referringResource(document);
    if (!resource) return [];
    return findReferenceValues(document.getText(), resource.segment)
      .filter(namesId)
      .map((value) => {
        const { to } = value.reference;
        return link(rangeIn(document, value), resourceUri(resource, to, value.id), `Open ${kindLabel(to)} ${value.id}`);
      });
  }
}

/** A function definition's name links to the tenant's AI function of that name, which only the listing knows. */
export class FunctionDefinitionLinks implements vscode.DocumentLinkProvider {
  constructor(private readonly listings: ListingCache) {}

  async provideDocumentLinks(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<vscode.DocumentLink[]> {
    const prompt = functionDefsPart(document);
    if (!prompt) return [];
    const names = findFunctionDefinitionNames(document.getText());
    if (names.length === 0) return [];
    // Positions in the text the names were read from, whatever the user types meanwhile.
    const placed = names.map((name) => ({ ...name, range: rangeIn(document, name) }));
    const functions = await listingOf(this.listings, prompt, 'ai_functions');
    if (!functions || token.isCancellationRequested) return [];
    return definedFunctions(placed, functions).map(({ definition, id }) =>
      link(definition.range, resourceUri(prompt, 'ai_functions', id), `Open ${kindLabel('ai_functions')} ${id}`),
    );
  }
}
