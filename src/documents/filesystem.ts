import * as vscode from 'vscode';
import type { JsonObject } from '../core/json';
import { MissingPartError, viewOf } from '../core/document-views';
import { isFile, isPart, wholeOf, type FileLocation, type ResourceLocation, type WholeLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import { deletion, type Change } from '../core/changes';
import type { Log } from '../log';
import { kindOf, requireLocation, target } from '../shared/locations';
import type { Drafts } from './drafts';
import type { DocumentState, DocumentStore } from './store';
import { plain } from '../core/plain-text';
import { serviceBase, type ServiceBase } from '../core/service-base';
import { LIMITS } from '../core/limits';
import { directoryEntries, type Entry } from './directory-entries';
import { callService } from './file-system-errors';
import { DetailReads } from './detail-reads';

export type Writer = (uri: vscode.Uri, location: FileLocation, content: Uint8Array) => Promise<void>;

/**
 * The `convai:` file system: folders are tenants, resource kinds and the parts
 * of prompts and agents; files are resources' detail objects and their parts
 * (documents/views). Saving goes through the writer (save.ts).
 */
export class ConvaiFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  private readonly revealed = new Set<string>();
  private readonly reads = new DetailReads();

  constructor(
    private readonly connections: Connections,
    private readonly listings: ListingCache,
    private readonly store: DocumentStore,
    private readonly log: Log,
    private readonly writer: Writer,
    private readonly drafts: Drafts,
    /** The change service's report (changes.ts): a delete made here is a write like any other. */
    private readonly report: (change: Change) => Promise<unknown>,
  ) {}

  fireChanged(uri: vscode.Uri): void {
    this.fireChanges([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  /** VS Code is told of many documents at once, as one event. */
  fireChanges(events: readonly vscode.FileChangeEvent[]): void {
    if (events.length > 0) this.changes.fire([...events]);
  }

  /** Drops the GETs under way of the resources a change covers, so the reads after it ask the service again. */
  dropPendingReads(covered: (whole: WholeLocation) => boolean): void {
    this.reads.drop(covered);
  }

  watch(): vscode.Disposable {
    // Changes are announced by this provider itself (saves, creates, deletes); the service pushes none.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const location = requireLocation(uri);
    const connection = this.connectionOf(location);
    const permissions = connection.readOnly ? vscode.FilePermission.Readonly : undefined;
    if (!isFile(location)) {
      return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions };
    }
    const state = this.heldState(uri) ?? (await this.fetch(uri, location));
    return {
      type: vscode.FileType.File,
      ctime: state.ctime,
      mtime: state.mtime,
      size: Buffer.byteLength(state.text),
      permissions,
    };
  }

  /**
   * The state a stat describes without asking the service: a fresh read's, a draft's, or an open document's (its
   * base is what its next save is checked against). Any other is read again, so that the size VS Code judges a
   * document by (a "very large" file is not opened) is the resource's now, not that of an answer long gone.
   */
  private heldState(uri: vscode.Uri): DocumentState | undefined {
    const key = uri.toString();
    const cached = this.store.get(key);
    if (!cached) return undefined;
    const held =
      Date.now() - cached.fetchedAt < LIMITS.freshRead.value ||
      this.drafts.has(key) ||
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
    return held ? cached : undefined;
  }

  async readDirectory(uri: vscode.Uri): Promise<Entry[]> {
    const location = requireLocation(uri);
    this.connectionOf(location);
    return directoryEntries(uri, location, { connections: this.connections, listings: this.listings, log: this.log });
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = requireLocation(uri);
    if (!isFile(location)) throw vscode.FileSystemError.FileIsADirectory(uri);
    this.connectionOf(location);
    const cached = this.store.get(uri.toString());
    const current =
      cached && (Date.now() - cached.fetchedAt < LIMITS.freshRead.value || this.drafts.has(uri.toString()));
    const state = current ? cached : await this.fetch(uri, location);
    return Buffer.from(state.text, 'utf8');
  }

  async writeFile(
    uri: vscode.Uri,
    content: Uint8Array,
    options: { create: boolean; overwrite: boolean },
  ): Promise<void> {
    const location = requireLocation(uri);
    if (!isFile(location)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const connection = this.connectionOf(location);
    if (connection.readOnly) {
      throw vscode.FileSystemError.NoPermissions(
        `Not saved: the connection "${connection.name}" is read-only (its readOnly setting in convai.connections). Nothing was sent.`,
      );
    }
    if (!this.store.get(uri.toString()) && options.create) {
      throw vscode.FileSystemError.NoPermissions(
        'New resources are created with "ConvAI: New…" (convai.createResource), which lets the service assign the id.',
      );
    }
    await this.writer(uri, location, content);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const location = requireLocation(uri);
    if (!isFile(location)) {
      throw vscode.FileSystemError.NoPermissions(
        'Folders of the ConvAI tree cannot be deleted; delete the resources in them.',
      );
    }
    if (isPart(location)) {
      throw vscode.FileSystemError.NoPermissions(
        'A part of a resource cannot be deleted: empty its text, or delete the resource itself.',
      );
    }
    const connection = this.connectionOf(location);
    if (connection.readOnly) {
      throw vscode.FileSystemError.NoPermissions(`Not deleted: the connection "${connection.name}" is read-only.`);
    }
    const { id, tenantId } = target(location);
    await callService(this.log, uri, () =>
      this.connections.client(location.connection).delete(kindOf(location), id, tenantId),
    );
    await this.report(deletion(location));
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(
      'ConvAI resources cannot be renamed or moved: the service assigns their ids. Change the "name" field instead.',
    );
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(
      "ConvAI folders are the service's tenants and resource kinds; they cannot be created.",
    );
  }

  /**
   * GETs the resource's detail object: the base of later saves; the document shows its view of it.
   * A document with a draft shows the draft instead, on the base it was edited from.
   */
  async fetch(uri: vscode.Uri, location: FileLocation): Promise<DocumentState> {
    const key = uri.toString();
    const draft = this.drafts.has(key) ? await this.drafts.read(key, () => this.detail(uri, location)) : undefined;
    if (draft) return this.store.put(key, draft.text, draft.base);
    const detail = await this.detail(uri, location);
    return this.store.put(key, this.present(uri, location, detail), serviceBase(detail));
  }

  private detail(uri: vscode.Uri, location: FileLocation): Promise<JsonObject> {
    const whole = wholeOf(location);
    const { id, tenantId } = target(whole);
    return this.reads.read(whole, () =>
      callService(
        this.log,
        uri,
        () => this.connections.client(location.connection).get(kindOf(whole), id, tenantId),
        'document',
      ),
    );
  }

  /** A detail object as the document shows it: its view, credentials masked unless revealed for this document. */
  present(uri: vscode.Uri, location: FileLocation, detail: JsonObject): string {
    try {
      return viewOf(location).render(detail, { revealCredentials: this.revealed.has(uri.toString()) });
    } catch (error) {
      if (error instanceof MissingPartError) throw vscode.FileSystemError.FileNotFound(error.message);
      throw error;
    }
  }

  /** The document shows a detail object the service just answered, without asking again. */
  show(uri: vscode.Uri, location: FileLocation, detail: JsonObject): void {
    this.store.put(uri.toString(), this.present(uri, location, detail), serviceBase(detail));
  }

  /** The service's object a document was last read from or saved as; undefined before it was read. */
  serviceObject(uri: vscode.Uri): ServiceBase | undefined {
    return this.store.get(uri.toString())?.base;
  }

  /** The next read of the document asks the service again (a draft was discarded). */
  dropCached(uri: vscode.Uri): void {
    this.store.delete(uri.toString());
  }

  /** Whether a document shows credentials in clear (its text must not be stored on disk). */
  isRevealed(uri: vscode.Uri): boolean {
    return this.revealed.has(uri.toString());
  }

  /** Shows one document's credentials in clear until the window closes. */
  reveal(uri: vscode.Uri, location: FileLocation): void {
    this.revealed.add(uri.toString());
    const state = this.store.get(uri.toString());
    if (!state) return;
    this.store.put(uri.toString(), this.present(uri, location, state.base), state.base);
    this.fireChanged(uri);
  }

  private connectionOf(location: ResourceLocation): { name: string; readOnly: boolean } {
    const connection = this.connections.get(location.connection);
    if (!connection) {
      throw vscode.FileSystemError.Unavailable(
        plain`There is no ConvAI connection named "${location.connection}". Add it with "ConvAI: Add Connection".`,
      );
    }
    return connection;
  }
}
