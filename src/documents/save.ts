import * as vscode from 'vscode';
import { plain } from '../core/plain-text';
import type { JsonObject } from '../core/json';
import { Debouncer } from '../core/debounce';
import { serviceBase, type ServiceBase } from '../core/service-base';
import { viewOf, type ViewRead } from '../core/document-views';
import { answerLacksDetail, conflictingFields, sentBody } from '../core/save-plan';
import { describeLocation, isFile, wholeOf, type FileLocation } from '../core/uri';
import { written } from '../core/changes';
import { summarizeProblems } from '../core/validation';
import type { Connections } from '../connections/registry';
import { uploadOnAutoSave } from '../shared/settings';
import type { Log } from '../log';
import type { SaveDiagnostics } from './diagnostics';
import type { SaveHold } from './save-hold';
import type { Drafts } from './drafts';
import { messageOf, plural } from '../core/text';
import { offerSetToken, toFileSystemError } from './file-system-errors';
import type { ConvaiFileSystem } from './filesystem';
import { parseUri, target } from '../shared/locations';
import { walkthroughStepDone } from '../shared/walkthrough';
import type { ServiceVersions } from './service-version';
import type { DocumentStore } from './store';
import type { Changes } from './changes';
import { DisposableStore } from '../core/disposable-store';

const COMPARE = 'Compare';
const OVERWRITE = 'Overwrite';

/**
 * Problems shown while typing, before any save: what VS Code's JSON support
 * cannot see (unknown fields of `closed` objects, duplicate function names,
 * JSON inside strings, changed service-owned fields). After a refused save,
 * every problem is shown until it is fixed.
 */
const LIVE_KEYWORDS: ReadonlySet<string> = new Set(['additionalProperties', 'uniqueName', 'jsonText', 'readOnly']);

function nameOf(detail: JsonObject): string | undefined {
  return typeof detail.name === 'string' && detail.name.trim() !== '' ? detail.name : undefined;
}

/**
 * Save = PUT, safely, for every view of a resource (its whole document and
 * its parts): nothing is sent unless the view's text is valid, and unless the
 * service still holds what the document was read from in every field the save
 * sends. A refused or failed save throws, so VS Code keeps the document dirty
 * with the user's text. A save is reported to the change service, through which
 * every open clean view of the resource shows what the service holds; a dirty
 * one keeps its base, so its own save meets the conflict check instead of
 * undoing this one.
 */
export class Saver implements vscode.Disposable {
  /** Why VS Code is saving a document right now; absent for writes not made by an editor save. */
  private readonly saveReasons = new Map<string, vscode.TextDocumentSaveReason>();
  /** The service's version to show once the editor has finished saving. */
  private readonly pendingRefresh = new Map<string, { shown: string; base: ServiceBase }>();
  /** Documents whose last save was refused: all their problems show until fixed. */
  private readonly refused = new Set<string>();
  /** Checks while typing wait for a pause (core/limits.ts checkDelay); a save checks at once. */
  private readonly checks = new Debouncer();
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly files: () => ConvaiFileSystem,
    private readonly connections: Connections,
    private readonly store: DocumentStore,
    private readonly diagnostics: SaveDiagnostics,
    private readonly serviceVersions: ServiceVersions,
    private readonly log: Log,
    private readonly drafts: Drafts,
    private readonly changes: Changes,
    private readonly hold: SaveHold,
  ) {
    this.disposables.push(
      vscode.workspace.onWillSaveTextDocument((event) => {
        if (parseUri(event.document.uri)) this.saveReasons.set(event.document.uri.toString(), event.reason);
      }),
      vscode.workspace.onDidSaveTextDocument((document) => this.showServiceVersion(document.uri)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        const { document } = event;
        if (event.contentChanges.length > 0 && parseUri(document.uri))
          this.checks.schedule(document.uri.toString(), () => this.recheck(document));
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.checks.cancel(document.uri.toString());
        this.refused.delete(document.uri.toString());
        if (parseUri(document.uri)) this.diagnostics.clear(document.uri);
      }),
    );
  }

  /**
   * An editor's save, a script's, or an auto-save. An auto-save never raises an
   * error: unless convai.uploadOnAutoSave allows it and the text can go safely,
   * the text is kept as a draft (documents/drafts.ts) and nothing is sent.
   */
  async write(uri: vscode.Uri, location: FileLocation, content: Uint8Array): Promise<void> {
    const key = uri.toString();
    const reason = this.saveReasons.get(key);
    this.saveReasons.delete(key);
    const text = Buffer.from(content).toString('utf8');
    const auto =
      reason === vscode.TextDocumentSaveReason.AfterDelay || reason === vscode.TextDocumentSaveReason.FocusOut;
    const byEditor = reason !== undefined;
    if (!auto) return this.upload(uri, location, text, { byEditor, interactive: byEditor });
    if (!uploadOnAutoSave()) return this.keepDraft(uri, location, text, 'auto-save does not upload', true);
    try {
      await this.upload(uri, location, text, { byEditor, interactive: false });
    } catch (error) {
      await this.keepDraft(uri, location, text, messageOf(error));
    }
  }

  /** `byEditor`: VS Code is saving the document; `interactive`: a person is there to settle a conflict. */
  private async upload(
    uri: vscode.Uri,
    location: FileLocation,
    text: string,
    how: { byEditor: boolean; interactive: boolean },
  ): Promise<void> {
    const key = uri.toString();
    const view = viewOf(location);
    const base = this.store.get(key)?.base ?? (await this.files().fetch(uri, location)).base;
    const label = describeLocation(location, nameOf(base));
    const held = this.hold.reason(key, label);
    if (held) throw new Error(held);
    const { edited, sends } = this.checked(uri, text, view.read(text, base));

    const whole = wholeOf(location);
    const { kind } = view;
    const { id, tenantId } = target(whole);
    const client = this.connections.client(location.connection);
    try {
      const current = await client.get(kind, id, tenantId);
      const conflicts = conflictingFields(kind, sends, base, current, edited);
      if (conflicts.length > 0)
        await this.resolveConflict(
          uri,
          label,
          conflicts,
          this.files().present(uri, location, current),
          how.interactive,
        );
      const answer = await client.update(kind, id, sentBody(kind, edited, sends), tenantId);
      const detail = serviceBase(answerLacksDetail(answer, current) ? await client.get(kind, id, tenantId) : answer);
      this.refused.delete(key);
      this.diagnostics.clear(uri);
      await this.drafts.discard(key);
      // From its JSON or one of its parts, alike.
      if (whole.type === 'resource' && whole.segment === 'ai_prompts') walkthroughStepDone('editPrompt');
      this.log.for('documents').info(`Saved ${label}.`);
      // Our icon, then the name as text: the status bar draws `$(x)` in it as an icon too.
      vscode.window.setStatusBarMessage(plain`$(cloud-upload) Saved ${label}`, 5000);
      this.showSaved(uri, location, text, detail, how.byEditor);
      // Its other open views (its whole document, its parts) show the saved state; a dirty one keeps its base, so its
      // next save meets the conflict check on what changed here.
      await this.changes.report(written(whole), { origin: key, answer: { whole, detail } });
    } catch (error) {
      this.log.for('documents').warn(`Not saved: ${label}: ${messageOf(error)}`);
      // VS Code's message of a failed save offers Retry, Save As and Revert; a 401's own fix is Set Token.
      if (how.interactive) offerSetToken(this.log, error);
      throw toFileSystemError(error);
    }
  }

  /**
   * The auto-saved text becomes the document's content here, on the base it was edited from; nothing is sent.
   * `checkText`: say too when the text could not be saved as it is, since no save tried it.
   */
  private async keepDraft(
    uri: vscode.Uri,
    location: FileLocation,
    text: string,
    reason: string,
    checkText = false,
  ): Promise<void> {
    const key = uri.toString();
    const base = this.store.get(key)?.base ?? (await this.files().fetch(uri, location)).base;
    const read = checkText ? viewOf(location).read(text, base) : undefined;
    const why =
      read && !read.ok
        ? `${reason}; ${read.syntax.length > 0 ? 'the text is not valid JSON' : summarizeProblems(read.problems)}`
        : reason;
    this.store.put(key, text, base);
    await this.drafts.keep(key, { text, base, why }, !this.files().isRevealed(uri));
    this.log
      .for('documents')
      .info(`Kept as a draft, not uploaded: ${describeLocation(location, nameOf(base))} (${why}).`);
  }

  dispose(): void {
    this.checks.dispose();
    this.disposables.dispose();
  }

  /** The saved document shows the service's object; an editor's save is still under way, so that waits for it. */
  private showSaved(
    uri: vscode.Uri,
    location: FileLocation,
    text: string,
    detail: ServiceBase,
    byEditor: boolean,
  ): void {
    const key = uri.toString();
    const shown = this.files().present(uri, location, detail);
    if (byEditor && shown !== text) {
      // The editor still believes it holds what it wrote; swap in the service's object once its save completes.
      this.store.put(key, text, detail);
      this.pendingRefresh.set(key, { shown, base: detail });
    } else {
      this.store.put(key, shown, detail);
      if (shown !== text) this.files().fireChanged(uri);
    }
  }

  /** What the view's read allows to send; otherwise every problem shown at its position, and nothing sent. */
  private checked(uri: vscode.Uri, text: string, read: ViewRead): { edited: JsonObject; sends: string[] } {
    // This check is the whole one: a check of an earlier text, still waiting, would only follow it.
    this.checks.cancel(uri.toString());
    if (read.ok) return read;
    this.refused.add(uri.toString());
    this.diagnostics.show(uri, text, read.syntax, read.problems);
    const reasons =
      read.syntax.length > 0
        ? `the text is not valid JSON (${plural(read.syntax.length, 'problem')}, first: ${read.syntax[0]?.message ?? ''})`
        : summarizeProblems(read.problems);
    throw new vscode.FileSystemError(`Not saved, nothing was sent: ${reasons}.`);
  }

  /** Problems follow the user's edits: the live ones always, all of them after a refused save. */
  private recheck(document: vscode.TextDocument): void {
    const location = parseUri(document.uri);
    const state = this.store.get(document.uri.toString());
    if (!location || !isFile(location) || !state || document.isClosed) return;
    const text = document.getText();
    const read = viewOf(location).read(text, state.base);
    const all = this.refused.has(document.uri.toString());
    const syntax = read.ok || !all ? [] : read.syntax;
    const problems = read.ok ? [] : read.problems.filter((p) => all || LIVE_KEYWORDS.has(p.keyword));
    if (syntax.length === 0 && problems.length === 0) {
      this.refused.delete(document.uri.toString());
      this.diagnostics.clear(document.uri);
    } else {
      this.diagnostics.show(document.uri, text, syntax, problems);
    }
  }

  private async resolveConflict(
    uri: vscode.Uri,
    label: string,
    fields: string[],
    serviceText: string,
    interactive: boolean,
  ): Promise<void> {
    const what = plain`${label} changed on the service since it was read (${fields.join(', ')})`;
    if (!interactive) {
      throw new vscode.FileSystemError(`Conflict: ${what}; nothing was sent. Read it again and reapply the change.`);
    }
    const choice = await vscode.window.showWarningMessage(
      plain`${label} changed on the service since you opened it: ${fields.join(', ')}.`,
      {
        modal: true,
        detail:
          "Compare your version with the service's, overwrite their changes with yours, or cancel (your text stays).",
      },
      COMPARE,
      OVERWRITE,
    );
    if (choice === OVERWRITE) return;
    if (choice === COMPARE) await this.serviceVersions.compare(uri, serviceText, label);
    throw new vscode.FileSystemError(
      `Not saved: ${what}. Save again to choose Overwrite, or reopen the document to take the service's version.`,
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
}
