import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { LIMITS } from '../core/limits';
import {
  completionFilterText,
  isResourceId,
  isTypedName,
  kindLabel,
  nameTarget,
  referenceValueAt,
} from '../core/references';
import { listingIndex } from '../core/resource-search';
import { kindOfSegment } from '../core/resources';
import type { TenantSegment } from '../core/resource-kind';
import { listingOf, rangeIn, referringResource } from './documents';

/** The most targets offered at once (core/limits.ts completionItems). */
const MOST_OFFERED = LIMITS.completionItems.value;

/**
 * Inside a reference field's value: the tenant's resources of the kind it points at, by name, and null where
 * allowed. A typed word is looked up in the listing's name index (built once per listing), so a tenant of 50,000
 * prompts answers as quickly as one of five.
 */
export class ReferenceCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly listings: ListingCache) {}

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.CompletionList> {
    const resource = referringResource(document);
    const edit = resource && referenceValueAt(document.getText(), resource.segment, document.offsetAt(position));
    if (!resource || !edit) return new vscode.CompletionList([]);
    const range = rangeIn(document, edit.range);
    const target = edit.reference.to;
    const listing = (await listingOf(this.listings, resource, target)) ?? [];
    if (token.isCancellationRequested) return new vscode.CompletionList([]);
    const { offered, complete } = this.offered(listing, target, edit.current);
    const item = (label: string, insertText: string, kind: vscode.CompletionItemKind): vscode.CompletionItem => {
      const completion = new vscode.CompletionItem(label, kind);
      completion.insertText = insertText;
      completion.range = range;
      completion.filterText = completionFilterText(edit.current, label);
      return completion;
    };
    const targets = offered.map((summary, index) => {
      const name = nameTarget(target, summary);
      const completion = item(plainText(name.name), String(summary.id), vscode.CompletionItemKind.Reference);
      completion.detail = plainText(name.label);
      if (name.description !== undefined) completion.documentation = plainText(name.description);
      // The listing's order (by id), or the search's ranking, ahead of null.
      completion.sortText = `0${String(index).padStart(6, '0')}`;
      return completion;
    });
    if (!edit.reference.nullable) return new vscode.CompletionList(targets, !complete);
    const none = item('null', 'null', vscode.CompletionItemKind.Keyword);
    none.detail = `no ${kindLabel(target)}`;
    none.sortText = '1';
    return new vscode.CompletionList([...targets, none], !complete);
  }

  /** Up to MOST_OFFERED targets: the listing's first ones for a value in place, the best matches of a typed name. */
  private offered(
    listing: readonly JsonObject[],
    target: TenantSegment,
    current: string,
  ): { offered: JsonObject[]; complete: boolean } {
    if (!isTypedName(current)) {
      const ids = listing.filter((summary) => isResourceId(summary.id));
      return { offered: ids.slice(0, MOST_OFFERED), complete: ids.length <= MOST_OFFERED };
    }
    const found = listingIndex(listing, kindOfSegment(target).id).search(current, MOST_OFFERED);
    return {
      offered: found.hits.map((hit) => hit.value).filter((summary) => isResourceId(summary.id)),
      complete: found.total <= MOST_OFFERED,
    };
  }
}
