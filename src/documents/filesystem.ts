import * as vscode from 'vscode';
import { ServiceError } from '../core/errors';
import type { JsonObject } from '../core/json';
import { agentElementNames, MissingPartError, viewOf } from '../core/document-views';
import { kindById, TENANT_SEGMENTS } from '../core/resources';
import { isFile, isPart, PROMPT_PARTS, toResourcePath, wholeOf, type FileLocation, type ResourceLocation, type WholeLocation } from '../core/uri';
import type { Connections } from '../connections/registry';
import { tenantsListing, type ListingCache } from '../core/listing-cache';
import { deletion, type Change } from '../core/changes';
import type { Log } from '../log';
import { showFailure } from '../ui/notify';
import { kindOf, requireLocation, target, toUri } from '../shared/locations';
import type { Drafts } from './drafts';
import type { DocumentState, DocumentStore } from './store';
import { messageOf } from '../core/text';
import { plain, plainText } from '../core/plain-text';
import { serviceBase, type ServiceBase } from '../core/service-base';
import { LIMITS } from '../core/limits';


export type Writer = (uri: vscode.Uri, location: FileLocation, content: Uint8Array) => Promise<void>;

type Entry = [string, vscode.FileType];

function readKey(whole: WholeLocation): string {
  return `${whole.connection}/${toResourcePath(whole)}`;
}

/** The last path segment: an entry's name in its folder. */
function entryName(location: ResourceLocation): string {
  return toResourcePath(location).replace(/\/$/, '').split('/').pop() ?? '';
}

/**
 * The `convai:` file system: folders are tenants, resource kinds and the parts
 * of prompts and agents; files are resources' detail objects and their parts
 * (documents/views). Saving goes through the writer (save.ts).
 */
export class ConvaiFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  private readonly revealed = new Set<string>();
  /** The GETs of resources' detail objects under way, by connection and resource. */
  private readonly reads = new Map<string, { whole: WholeLocation; pending: Promise<JsonObject> }>();

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
    for (const [key, read] of this.reads) if (covered(read.whole)) this.reads.delete(key);
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
    return { type: vscode.FileType.File, ctime: state.ctime, mtime: state.mtime, size: Buffer.byteLength(state.text), permissions };
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
    const held = Date.now() - cached.fetchedAt < LIMITS.freshRead.value || this.drafts.has(key) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
    return held ? cached : undefined;
  }

  async readDirectory(uri: vscode.Uri): Promise<Entry[]> {
    const location = requireLocation(uri);
    this.connectionOf(location);
    const { File, Directory } = vscode.FileType;
    switch (location.type) {
      case 'root':
        return [['tenants', Directory]];
      case 'tenants':
        return (await this.tenantIds(location.connection)).flatMap((id): Entry[] => [[`${id}.json`, File], [String(id), Directory]]);
      case 'tenantFolder':
        return TENANT_SEGMENTS.map((segment) => [segment, Directory]);
      case 'kindFolder': {
        // The shared listing: the extension's own creates and deletes drop it (documents/register.ts), so it is not stale after them.
        const items = await this.call(uri, () => this.listings.items({ connection: location.connection, tenantId: location.tenantId, segment: location.segment }));
        // Prompts and agents have a folder of parts beside their document.
        const hasParts = location.segment === 'ai_prompts' || location.segment === 'agents';
        return items.filter((item) => typeof item.id === 'number').flatMap((item): Entry[] => [
          [`${String(item.id)}.json`, File],
          ...(hasParts ? [[String(item.id), Directory] satisfies Entry] : []),
        ]);
      }
      case 'partsFolder':
        return location.segment === 'agents'
          ? [['prompts', Directory]]
          : PROMPT_PARTS.map((part) => [entryName({ ...location, type: 'part', segment: 'ai_prompts', part }), File]);
      case 'agentPromptsFolder': {
        const agent = await this.call(uri, () => this.connections.client(location.connection).get(kindById('agent'), location.id, location.tenantId));
        return agentElementNames(agent).map((element) => [entryName({ ...location, type: 'agentPrompt', element }), File]);
      }
      default:
        throw vscode.FileSystemError.FileNotADirectory(uri);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = requireLocation(uri);
    if (!isFile(location)) throw vscode.FileSystemError.FileIsADirectory(uri);
    this.connectionOf(location);
    const cached = this.store.get(uri.toString());
    const current = cached && (Date.now() - cached.fetchedAt < LIMITS.freshRead.value || this.drafts.has(uri.toString()));
    const state = current ? cached : await this.fetch(uri, location);
    return Buffer.from(state.text, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const location = requireLocation(uri);
    if (!isFile(location)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const connection = this.connectionOf(location);
    if (connection.readOnly) {
      throw vscode.FileSystemError.NoPermissions(
        `Not saved: the connection "${connection.name}" is read-only (its readOnly setting in convai.connections). Nothing was sent.`,
      );
    }
    if (!this.store.get(uri.toString()) && options.create) {
      throw vscode.FileSystemError.NoPermissions('New resources are created with "ConvAI: New…" (convai.createResource), which lets the service assign the id.');
    }
    await this.writer(uri, location, content);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const location = requireLocation(uri);
    if (!isFile(location)) {
      throw vscode.FileSystemError.NoPermissions('Folders of the ConvAI tree cannot be deleted; delete the resources in them.');
    }
    if (isPart(location)) {
      throw vscode.FileSystemError.NoPermissions('A part of a resource cannot be deleted: empty its text, or delete the resource itself.');
    }
    const connection = this.connectionOf(location);
    if (connection.readOnly) {
      throw vscode.FileSystemError.NoPermissions(`Not deleted: the connection "${connection.name}" is read-only.`);
    }
    const { id, tenantId } = target(location);
    await this.call(uri, () => this.connections.client(location.connection).delete(kindOf(location), id, tenantId));
    await this.report(deletion(location));
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('ConvAI resources cannot be renamed or moved: the service assigns their ids. Change the "name" field instead.');
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('ConvAI folders are the service\'s tenants and resource kinds; they cannot be created.');
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

  /**
   * One GET for the reads of one resource at the same time: VS Code stats and
   * reads a document it opens at once, and a prompt's parts open beside it.
   */
  private detail(uri: vscode.Uri, location: FileLocation): Promise<JsonObject> {
    const whole = wholeOf(location);
    const key = readKey(whole);
    const existing = this.reads.get(key);
    if (existing) return existing.pending;
    const { id, tenantId } = target(whole);
    const pending = this.call(uri, () => this.connections.client(location.connection).get(kindOf(whole), id, tenantId), 'document');
    const settled = (): void => {
      if (this.reads.get(key)?.pending === pending) this.reads.delete(key);
    };
    pending.then(settled, settled);
    this.reads.set(key, { whole, pending });
    return pending;
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

  private async tenantIds(connectionName: string): Promise<number[]> {
    const uri = toUri({ type: 'tenants', connection: connectionName });
    try {
      const tenants = await this.listings.items(tenantsListing(connectionName));
      return tenants.map((t) => t.id).filter((id): id is number => typeof id === 'number');
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403) {
        throw vscode.FileSystemError.NoPermissions(
          plain`${error.message} The token may not list tenants: set "tenantId" of the connection "${connectionName}" in convai.connections.`,
        );
      }
      throw this.toFileSystemError(uri, error);
    }
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

  /** `read`: a document's text, which VS Code's editor does not explain when it cannot be read. */
  private async call<T>(uri: vscode.Uri, request: () => Promise<T>, read?: 'document'): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.toFileSystemError(uri, error, read);
    }
  }

  private toFileSystemError(uri: vscode.Uri, error: unknown, read?: 'document'): vscode.FileSystemError {
    this.log.for('documents').warn(`${uri.toString()}: ${messageOf(error)}`);
    // The editor of a document that could not be read says only "unexpected error, consult the log" (a missing file
    // aside): the reason and its fix are shown beside it.
    const unexplained = read === 'document' && !(error instanceof ServiceError && (error.status === 404 || error.kind === 'cancelled'));
    if (unexplained) showFailure(this.log, error);
    else offerSetToken(this.log, error);
    return toFileSystemError(error);
  }
}

/** A 401 offers Set Token beside the message VS Code shows for the failure, which has no button of ours. */
export function offerSetToken(log: Log, error: unknown): void {
  if (error instanceof ServiceError && error.status === 401) showFailure(log, error);
}

export function toFileSystemError(error: unknown): vscode.FileSystemError {
  if (error instanceof vscode.FileSystemError) return error;
  // VS Code quotes it in a notification ("Failed to save …"), where a Markdown link of the service's text is a command.
  const message = plainText(messageOf(error));
  if (!(error instanceof ServiceError)) return new vscode.FileSystemError(message);
  if (error.status === 404) return vscode.FileSystemError.FileNotFound(message);
  if (error.status === 401 || error.status === 403) return vscode.FileSystemError.NoPermissions(message);
  if (error.kind === 'network' || error.kind === 'timeout' || (error.status ?? 0) >= 500) return vscode.FileSystemError.Unavailable(message);
  return new vscode.FileSystemError(message);
}
