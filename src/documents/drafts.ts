import * as vscode from 'vscode';
import type { JsonObject } from '../core/json';
import { fromStoredDraft, toStoredDraft, type Draft, type StoredDraft } from '../core/draft-storage';
import type { KindId } from '../core/resource-kind';
import { isFile, toResourceUriString, wholeOf } from '../core/uri';
import { kindOf, parseUri } from '../shared/locations';

const STORAGE_KEY = 'convai.drafts';

function kindIdOf(key: string): KindId | undefined {
  const location = parseUri(vscode.Uri.parse(key));
  return location && isFile(location) ? kindOf(wholeOf(location)).id : undefined;
}

/**
 * Auto-saves of `convai:` documents that were not uploaded (documents/save.ts):
 * the text stays the document's content, in this window and after a reload,
 * until an explicit save uploads it or the user discards it.
 */
export class Drafts implements vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri[]>();
  /** Fires with the documents whose draft was kept, replaced or dropped. */
  readonly onDidChange = this.changes.event;
  /** This window's drafts, and stored ones once read (read()). */
  private readonly drafts = new Map<string, Draft>();
  /** Drafts of documents that show credentials in clear: kept in memory only. */
  private readonly unstored = new Set<string>();

  constructor(private readonly storage: vscode.Memento) {}

  has(key: string): boolean {
    return this.drafts.has(key) || key in this.stored();
  }

  keys(): string[] {
    return [...new Set([...this.drafts.keys(), ...Object.keys(this.stored())])];
  }

  /** Why a document's draft was not uploaded. */
  why(key: string): string | undefined {
    return this.drafts.get(key)?.why ?? this.stored()[key]?.why;
  }

  /** The keys of a resource's drafts: its whole document's and its parts'. */
  ofResource(resource: string): string[] {
    return this.keys().filter((key) => {
      const location = parseUri(vscode.Uri.parse(key));
      return location !== undefined && isFile(location) && toResourceUriString(wholeOf(location)) === resource;
    });
  }

  /** A document's draft; one stored before a reload gets the masked credentials of its base back from `current`. */
  async read(key: string, current: () => Promise<JsonObject>): Promise<Draft | undefined> {
    const draft = this.drafts.get(key);
    if (draft) return draft;
    const saved = this.stored()[key];
    const kind = kindIdOf(key);
    if (!saved || !kind) return undefined;
    const restored = fromStoredDraft(kind, saved, await current());
    this.drafts.set(key, restored);
    return restored;
  }

  async keep(key: string, draft: Draft, storable: boolean): Promise<void> {
    this.drafts.set(key, draft);
    if (storable) this.unstored.delete(key);
    else this.unstored.add(key);
    await this.store(key);
    this.changes.fire([vscode.Uri.parse(key)]);
  }

  async discard(key: string): Promise<void> {
    if (!this.has(key)) return;
    this.drafts.delete(key);
    this.unstored.delete(key);
    // After storing: listeners ask has(), which reads the stored drafts too.
    await this.store(key);
    this.changes.fire([vscode.Uri.parse(key)]);
  }

  dispose(): void {
    this.changes.dispose();
  }

  private stored(): Readonly<Record<string, StoredDraft>> {
    return this.storage.get<Record<string, StoredDraft>>(STORAGE_KEY, {});
  }

  private async store(key: string): Promise<void> {
    const stored = { ...this.stored() };
    const draft = this.drafts.get(key);
    const kind = kindIdOf(key);
    if (draft && kind && !this.unstored.has(key)) {
      stored[key] = toStoredDraft(kind, draft);
    } else {
      delete stored[key];
    }
    await this.storage.update(STORAGE_KEY, Object.keys(stored).length > 0 ? stored : undefined);
  }
}
