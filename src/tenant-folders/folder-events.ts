/**
 * What the folder commands (Plan Push, Push, Pull) tell the Source Control
 * lists and the plan previews, which they do not own: a folder was planned
 * (its conflicts and status are that plan's), or a push or a pull rewrote it
 * (what was planned or found on the service before no longer holds).
 * Folders are absolute file-system paths.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Plan } from '../core/tenant/plan';

/** A folder a pull or a push rewrote. */
export interface FolderWritten {
  folder: string;
  /** A pull leaves the folder as the service is: nothing changed there since, known without asking. */
  by: 'pull' | 'push';
}

export interface FolderPlanned {
  folder: string;
  plan: Plan;
}

export class FolderEvents implements vscode.Disposable {
  private readonly plannedEmitter = new vscode.EventEmitter<FolderPlanned>();
  private readonly writingEmitter = new vscode.EventEmitter<string>();
  private readonly writtenEmitter = new vscode.EventEmitter<FolderWritten>();
  readonly onDidPlan = this.plannedEmitter.event;
  /** A pull starts writing the folder; `written` follows, however it ends. */
  readonly onWillWrite = this.writingEmitter.event;
  readonly onDidWrite = this.writtenEmitter.event;

  planned(folder: string, plan: Plan): void {
    this.plannedEmitter.fire({ folder: path.resolve(folder), plan });
  }

  writing(folder: string): void {
    this.writingEmitter.fire(path.resolve(folder));
  }

  written(folder: string, by: FolderWritten['by']): void {
    this.writtenEmitter.fire({ folder: path.resolve(folder), by });
  }

  dispose(): void {
    this.plannedEmitter.dispose();
    this.writingEmitter.dispose();
    this.writtenEmitter.dispose();
  }
}
