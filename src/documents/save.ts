import * as vscode from 'vscode';
import type { JsonObject } from '../core/client';
import { restoreCredentials } from '../core/credentials';
import { formatDocument, parseDocument } from '../core/json-document';
import { isCausedByEdit, ownedFieldChanges, updateBody, updateResponseIsPartial, type FieldProblem } from '../core/save-plan';
import { describeLocation, isFile, type FileLocation } from '../core/uri';
import { summarizeProblems, validateDocument } from '../core/validation';
import type { Connections } from '../connections/registry';
import { uploadOnAutoSave } from '../connections/settings';
import type { Log } from '../log';
import type { SaveDiagnostics } from './diagnostics';
import { toFileSystemError, type ConvaiFileSystem } from './filesystem';
import { kindOf, parseUri, target } from './locations';
import type { ServiceVersions } from './service-version';
import type { DocumentStore } from './store';

const COMPARE = 'Compare';
const OVERWRITE = 'Overwrite';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Save = PUT, safely: nothing is sent unless the text parses, validates,
 * keeps the service's own fields, and the service still holds the version the
 * document was opened from. A refused or failed save throws, so VS Code keeps
 * the document dirty with the user's text.
 */
export class Saver implements vscode.Disposable {
  /** Why VS Code is saving a document right now; absent for writes not made by an editor save. */
  private readonly saveReasons = new Map<string, vscode.TextDocumentSaveReason>();
  /** The service's version to show once the editor has finished saving. */
  private readonly pendingRefresh = new Map<string, { shown: string; base: string }>();
  private autoSaveHintShown = false;
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly files: () => ConvaiFileSystem,
    private readonly connections: Connections,
    private readonly store: DocumentStore,
    private readonly diagnostics: SaveDiagnostics,
    private readonly serviceVersions: ServiceVersions,
    private readonly log: Log,
  ) {
    this.disposables = [
      vscode.workspace.onWillSaveTextDocument((event) => {
        if (parseUri(event.document.uri)) this.saveReasons.set(event.document.uri.toString(), event.reason);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.showServiceVersion(document.uri)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        // Problems of a refused save follow the user's edits until they are gone.
        if (event.contentChanges.length > 0 && this.diagnostics.has(event.document.uri)) this.recheck(event.document);
      }),
    ];
  }

  async write(uri: vscode.Uri, location: FileLocation, content: Uint8Array): Promise<void> {
    const key = uri.toString();
    const reason = this.saveReasons.get(key);
    this.saveReasons.delete(key);
    const label = describeLocation(location);
    if ((reason === vscode.TextDocumentSaveReason.AfterDelay || reason === vscode.TextDocumentSaveReason.FocusOut) && !uploadOnAutoSave()) {
      this.hintAutoSave();
      throw new vscode.FileSystemError(`Not uploaded by auto-save: ${label} is saved to the service with Ctrl+S (or turn on "convai.uploadOnAutoSave").`);
    }
    const text = Buffer.from(content).toString('utf8');
    const base = this.store.get(key)?.base ?? (await this.files().fetch(uri, location)).base;
    const edited = this.checked(uri, location, text, base);

    const kind = kindOf(location);
    const { id, tenantId } = target(location);
    const client = this.connections.client(location.connection);
    try {
      const current = formatDocument(await client.get(kind, id, tenantId));
      if (current !== base) await this.resolveConflict(uri, label, current, reason !== undefined);
      const response = await client.update(kind, id, updateBody(kind, edited), tenantId);
      const detail = updateResponseIsPartial(kind) ? await client.get(kind, id, tenantId) : response;
      const serviceText = formatDocument(detail);
      const shown = this.files().present(uri, location, detail);
      this.diagnostics.clear(uri);
      this.files().announce(location);
      this.log.for('documents').info(`Saved ${label}.`);
      vscode.window.setStatusBarMessage(`$(cloud-upload) Saved ${label}`, 5000);
      if (reason !== undefined && shown !== text) {
        // The editor still believes it holds what it wrote; swap in the service's object once its save completes.
        this.store.put(key, text, serviceText);
        this.pendingRefresh.set(key, { shown, base: serviceText });
      } else {
        this.store.put(key, shown, serviceText);
        if (shown !== text) this.files().fireChanged(uri);
      }
    } catch (error) {
      this.log.for('documents').warn(`Not saved: ${label}: ${error instanceof Error ? error.message : String(error)}`);
      throw toFileSystemError(error);
    }
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }

  /** Parses and validates; refuses with every problem shown at its position. */
  private checked(uri: vscode.Uri, location: FileLocation, text: string, base: string): JsonObject {
    const { value, syntaxProblems } = parseDocument(text);
    const restored = this.restored(location, value, base);
    const problems = syntaxProblems.length > 0 ? [] : this.fieldProblems(location, restored, base);
    if (syntaxProblems.length === 0 && problems.length === 0 && isObject(restored)) return restored;
    this.diagnostics.show(uri, text, syntaxProblems, problems);
    const reasons = syntaxProblems.length > 0
      ? `the text is not valid JSON (${syntaxProblems.length} problem${syntaxProblems.length > 1 ? 's' : ''}, first: ${syntaxProblems[0]?.message ?? ''})`
      : summarizeProblems(problems);
    throw new vscode.FileSystemError(`Not saved, nothing was sent: ${reasons}.`);
  }

  /** Masked credentials the user left alone are the service's values. */
  private restored(location: FileLocation, value: unknown, base: string): unknown {
    return isObject(value) ? restoreCredentials(kindOf(location).id, value, JSON.parse(base) as JsonObject) : value;
  }

  private fieldProblems(location: FileLocation, value: unknown, base: string): FieldProblem[] {
    if (!isObject(value)) return [{ path: [], keyword: 'type', message: 'the document must be a JSON object' }];
    const baseValue = JSON.parse(base) as JsonObject;
    const kind = kindOf(location);
    return [
      ...ownedFieldChanges(kind, baseValue, value),
      ...validateDocument(kind.segment, value).filter((p) => isCausedByEdit(baseValue, value, p)),
    ];
  }

  private recheck(document: vscode.TextDocument): void {
    const location = parseUri(document.uri);
    const state = this.store.get(document.uri.toString());
    if (!location || !isFile(location) || !state) return;
    const text = document.getText();
    const { value, syntaxProblems } = parseDocument(text);
    const problems = syntaxProblems.length > 0 ? [] : this.fieldProblems(location, this.restored(location, value, state.base), state.base);
    if (syntaxProblems.length === 0 && problems.length === 0) this.diagnostics.clear(document.uri);
    else this.diagnostics.show(document.uri, text, syntaxProblems, problems);
  }

  private async resolveConflict(uri: vscode.Uri, label: string, serviceText: string, interactive: boolean): Promise<void> {
    if (!interactive) {
      throw new vscode.FileSystemError(
        `Conflict: ${label} changed on the service since it was read; nothing was sent. Read it again and reapply the change.`,
      );
    }
    const choice = await vscode.window.showWarningMessage(
      `${label} changed on the service since you opened it.`,
      { modal: true, detail: 'Compare your version with the service\'s, overwrite their changes with yours, or cancel (your text stays).' },
      COMPARE,
      OVERWRITE,
    );
    if (choice === OVERWRITE) return;
    if (choice === COMPARE) await this.serviceVersions.compare(uri, serviceText, label);
    throw new vscode.FileSystemError(
      `Not saved: ${label} changed on the service since you opened it. Save again to choose Overwrite, or reopen the document to take the service's version.`,
    );
  }

  private showServiceVersion(uri: vscode.Uri): void {
    const key = uri.toString();
    const pending = this.pendingRefresh.get(key);
    if (pending === undefined) return;
    this.pendingRefresh.delete(key);
    this.store.put(key, pending.shown, pending.base);
    this.files().fireChanged(uri);
  }

  private hintAutoSave(): void {
    if (this.autoSaveHintShown) return;
    this.autoSaveHintShown = true;
    void vscode.window.showInformationMessage(
      'Auto-save does not upload ConvAI documents to the service: press Ctrl+S to save one, or turn on "convai.uploadOnAutoSave".',
      'Open Setting',
    ).then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'convai.uploadOnAutoSave');
    });
  }
}
