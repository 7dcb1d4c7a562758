import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import { documentFate, droppedListings, type Change, type DocumentFate } from '../core/changes';
import { mapWithLimit } from '../core/concurrency';
import { LIMITS } from '../core/limits';
import type { JsonObject } from '../core/json';
import type { ListingCache } from '../core/listing-cache';
import { describeLocation, isFile, toResourcePath, wholeOf, type FileLocation, type WholeLocation } from '../core/uri';
import { messageOf, plural } from '../core/text';
import type { Log } from '../log';
import { parseUri } from '../shared/locations';
import type { Drafts } from './drafts';
import type { ConvaiFileSystem } from './filesystem';

/** What one write changed, and what became of the open documents it covers. */
export interface ChangeReport {
  readonly change: Change;
  /** The open documents (URIs) that show the service's state again, or were closed on its delete. */
  readonly reloaded: readonly string[];
  /** The open documents with unsaved text or a draft: their text is kept, and the one notice names them. */
  readonly kept: readonly string[];
}

export interface ReportOptions {
  /** The document the write came from (a save): its writer shows the outcome itself. */
  origin?: string;
  /** The service's object of a resource after the write, so the documents of it show that without asking again. */
  answer?: { whole: WholeLocation; detail: JsonObject };
}

interface Covered {
  document: vscode.TextDocument;
  location: FileLocation;
  fate: Exclude<DocumentFate, 'untouched'>;
}

/**
 * The one change service: every writer of the extension reports what it
 * changed here, once per write. It drops exactly the listings the change
 * covers, makes the open clean documents it covers show the service's state
 * (a few at a time), names the dirty ones in one notice (their text is kept,
 * their base too, so their own save meets the conflict check), and then fires
 * one `onDidChange` for every listener (the tree, maps, references, parts).
 */
export class Changes implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ChangeReport>();
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly listings: ListingCache,
    private readonly files: () => ConvaiFileSystem,
    private readonly drafts: Drafts,
    private readonly log: Log,
  ) {}

  async report(change: Change, options: ReportOptions = {}): Promise<ChangeReport> {
    for (const scope of droppedListings(change)) this.listings.invalidate(scope);
    // A read that started before this change must not answer the reads after it.
    this.files().dropPendingReads((whole) => documentFate(change, whole) !== 'untouched');
    const covered = vscode.workspace.textDocuments.flatMap((document): Covered[] => {
      const location = parseUri(document.uri);
      if (!location || !isFile(location) || document.uri.toString() === options.origin) return [];
      const fate = documentFate(change, location);
      return fate === 'untouched' ? [] : [{ document, location, fate }];
    });
    const dirty = (c: Covered): boolean => c.document.isDirty || this.drafts.has(c.document.uri.toString());
    const kept = covered.filter(dirty);
    const clean = covered.filter((c) => !dirty(c));
    const updated = await mapWithLimit(clean, LIMITS.tenantConcurrency.value, (c) => this.update(c, options.answer));
    const events = updated.filter((event): event is vscode.FileChangeEvent => event !== undefined);
    this.files().fireChanges(events);
    const noticed = kept.filter((c) => !this.viewUnchanged(c, options.answer));
    if (noticed.length > 0) this.notify(noticed);
    const report: ChangeReport = {
      change,
      reloaded: events.map((e) => e.uri.toString()),
      kept: kept.map((c) => c.document.uri.toString()),
    };
    this.emitter.fire(report);
    return report;
  }

  dispose(): void {
    this.emitter.dispose();
  }

  /** One clean document made to show the service's state; undefined when it could not be (logged). */
  private async update(
    { document, location, fate }: Covered,
    answer: ReportOptions['answer'],
  ): Promise<vscode.FileChangeEvent | undefined> {
    const { uri } = document;
    if (fate === 'gone') {
      this.files().dropCached(uri);
      return { type: vscode.FileChangeType.Deleted, uri };
    }
    try {
      if (
        answer &&
        toResourcePath(answer.whole) === toResourcePath(wholeOf(location)) &&
        answer.whole.connection === location.connection
      ) {
        this.files().show(uri, location, answer.detail);
      } else {
        await this.files().fetch(uri, location);
      }
      return { type: vscode.FileChangeType.Changed, uri };
    } catch (error) {
      // A part the change removed (an agent element renamed), or a read that failed: its editor keeps the last text.
      this.log.for('documents').info(`${uri.toString()} was not reloaded: ${messageOf(error)}`);
      return undefined;
    }
  }

  /**
   * Whether a dirty document's view of the service's answer is what it was edited from: another view of the same
   * resource saved a field this one does not show (a prompt's name, beside its system part), so there is nothing
   * on the service for its user to meet.
   */
  private viewUnchanged({ document, location, fate }: Covered, answer: ReportOptions['answer']): boolean {
    if (fate === 'gone' || !answer || answer.whole.connection !== location.connection) return false;
    if (toResourcePath(answer.whole) !== toResourcePath(wholeOf(location))) return false;
    const base = this.files().serviceObject(document.uri);
    if (!base) return false;
    try {
      return (
        this.files().present(document.uri, location, answer.detail) ===
        this.files().present(document.uri, location, base)
      );
    } catch {
      // A part the answer no longer has: that is a change.
      return false;
    }
  }

  private notify(kept: readonly Covered[]): void {
    const names = kept.map((c) => plainText(describeLocation(c.location))).join(', ');
    const gone = kept.some((c) => c.fate === 'gone');
    void vscode.window.showWarningMessage(
      `Changed on the service${gone ? ' or deleted' : ''} while ${kept.length > 1 ? 'these have' : 'this has'} unsaved changes: ${names}. ` +
        `Your text is kept (${plural(kept.length, 'document')}): save it to meet the conflict check, or revert to take the service's version.`,
    );
  }
}
