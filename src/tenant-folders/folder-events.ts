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

export interface FolderPlanned {
  folder: string;
  plan: Plan;
}

export class FolderEvents implements vscode.Disposable {
  private readonly plannedEmitter = new vscode.EventEmitter<FolderPlanned>();
  private readonly writtenEmitter = new vscode.EventEmitter<string>();
  readonly onDidPlan = this.plannedEmitter.event;
  readonly onDidWrite = this.writtenEmitter.event;

  planned(folder: string, plan: Plan): void {
    this.plannedEmitter.fire({ folder: path.resolve(folder), plan });
  }

  written(folder: string): void {
    this.writtenEmitter.fire(path.resolve(folder));
  }

  dispose(): void {
    this.plannedEmitter.dispose();
    this.writtenEmitter.dispose();
  }
}
