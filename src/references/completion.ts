import * as vscode from 'vscode';
import type { ListingCache } from '../core/listing-cache';
import { completionFilterText, isResourceId, kindLabel, nameTarget, referenceValueAt } from '../core/references';
import { listingOf, rangeIn, referringResource } from './documents';

/** Inside a reference field's value: the tenant's resources of the kind it points at, by name, and null where allowed. */
export class ReferenceCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly listings: ListingCache) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionItem[]> {
    const resource = referringResource(document);
    const edit = resource && referenceValueAt(document.getText(), resource.segment, document.offsetAt(position));
    if (!resource || !edit) return [];
    const range = rangeIn(document, edit.range);
    const listing = await listingOf(this.listings, resource, edit.reference.to);
    if (token.isCancellationRequested) return [];
    const item = (label: string, insertText: string, kind: vscode.CompletionItemKind): vscode.CompletionItem => {
      const completion = new vscode.CompletionItem(label, kind);
      completion.insertText = insertText;
      completion.range = range;
      completion.filterText = completionFilterText(edit.current, label);
      return completion;
    };
    const targets = (listing ?? []).filter((target) => isResourceId(target.id)).map((target, index) => {
      const name = nameTarget(edit.reference.to, target);
      const completion = item(name.name, String(target.id), vscode.CompletionItemKind.Reference);
      completion.detail = name.label;
      if (name.description !== undefined) completion.documentation = name.description;
      // The listing's order (by id), ahead of null.
      completion.sortText = `0${String(index).padStart(6, '0')}`;
      return completion;
    });
    if (!edit.reference.nullable) return targets;
    const none = item('null', 'null', vscode.CompletionItemKind.Keyword);
    none.detail = `no ${kindLabel(edit.reference.to)}`;
    none.sortText = '1';
    return [...targets, none];
  }
}
