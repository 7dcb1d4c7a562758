import * as vscode from 'vscode';
import { dropsListing, type Change } from '../core/changes';
import type { ListingCache } from '../core/listing-cache';
import type { ChangeReport } from '../documents/changes';
import { Debouncer } from '../core/debounce';
import { danglingMessage, danglingReferences, findReferenceValues, referenceFieldsOf } from '../core/references';
import { rangeIn, referringResource, targetListings, type ResourceAt } from './documents';

/**
 * Warnings on references to ids the tenant does not hold, kept up to date on
 * open, while typing, and when the listings they were checked against are
 * dropped; cleared on close.
 */
export class DanglingReferenceWarnings implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('convai-references');
  /** Typing an id digit by digit does not warn of each prefix (core/limits.ts checkDelay). */
  private readonly checks = new Debouncer();
  /** Per document, the latest check: an older one that finishes late must not overwrite it. */
  private readonly generations = new Map<string, number>();
  /** Counts across documents, so a check begun before a close and reopen is stale too. */
  private lastGeneration = 0;
  private readonly subscriptions: Array<{ dispose(): void }>;

  constructor(
    private readonly listings: ListingCache,
    onDidChange: vscode.Event<ChangeReport>,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => this.check(document)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.schedule(event.document);
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
      onDidChange(({ change }) => this.recheck(change)),
    ];
    // Documents restored before the extension activated.
    vscode.workspace.textDocuments.forEach((document) => this.check(document));
  }

  private schedule(document: vscode.TextDocument): void {
    if (!referringResource(document)) return;
    const key = document.uri.toString();
    this.begin(key);
    this.checks.schedule(key, () => this.check(document));
  }

  private recheck(change: Change): void {
    for (const document of vscode.workspace.textDocuments) {
      const resource = referringResource(document);
      if (resource && checksAgainst(resource, change) && !this.checks.isPending(document.uri.toString()))
        this.check(document);
    }
  }

  private check(document: vscode.TextDocument): void {
    const resource = referringResource(document);
    if (!resource || document.isClosed) return;
    // A listing that cannot load (the connection was removed, the service is down) leaves the warnings as they were:
    // the document's own save and links say what is wrong, and a warning about every id would be noise.
    this.update(document, resource, this.begin(document.uri.toString())).catch(() => undefined);
  }

  private async update(document: vscode.TextDocument, resource: ResourceAt, generation: number): Promise<void> {
    const values = findReferenceValues(document.getText(), resource.segment);
    const placed = new Map(values.map((value) => [value, rangeIn(document, value)]));
    const listing = await targetListings(this.listings, resource, values);
    if (this.generations.get(document.uri.toString()) !== generation) return;
    this.collection.set(
      document.uri,
      danglingReferences(values, listing).map((value) => {
        const diagnostic = new vscode.Diagnostic(
          placed.get(value) ?? rangeIn(document, value),
          danglingMessage(value, resource.tenantId),
          vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'ConvAI';
        return diagnostic;
      }),
    );
  }

  /** Starts a new generation of a document's checks, making any still running stale. */
  private begin(key: string): number {
    this.generations.set(key, ++this.lastGeneration);
    return this.lastGeneration;
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.checks.cancel(key);
    this.generations.delete(key);
    this.collection.delete(uri);
  }

  dispose(): void {
    this.checks.dispose();
    this.generations.clear();
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.collection.dispose();
  }
}

/** Whether a document's warnings rest on a listing the change dropped. */
function checksAgainst(resource: ResourceAt, change: Change): boolean {
  return referenceFieldsOf(resource.segment).some(({ to }) =>
    dropsListing(change, { connection: resource.connection, tenantId: resource.tenantId, segment: to }),
  );
}
