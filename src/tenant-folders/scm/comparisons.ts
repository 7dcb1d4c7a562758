import * as vscode from 'vscode';
import { CompareControl, type Comparison } from './compare-control';
import type { ScmDeps } from './deps';
import { sameTenant, type TenantRef } from './tenant-refs';

/** Drives the `when` clauses of Promote and Close Comparison in the palette. */
export const HAS_COMPARISON = 'convai.hasComparison';

/** The open comparisons; comparing the same two tenants again refreshes the open one. */
export class Comparisons implements vscode.Disposable {
  private controls: CompareControl[] = [];

  constructor(private readonly deps: ScmDeps) {}

  async open(source: TenantRef, target: TenantRef): Promise<{ control: CompareControl; comparison: Comparison }> {
    const open = this.controls.find((c) => sameTenant(c.source, source) && sameTenant(c.target, target));
    if (open) return { control: open, comparison: await open.refresh() };
    const control = await CompareControl.open(source, target, this.deps);
    this.controls.push(control);
    void this.updateContext();
    return { control, comparison: await control.show() };
  }

  find(arg: unknown): CompareControl | undefined {
    return this.controls.find((control) => control.owns(arg));
  }

  /** The comparison a palette command means: the only one, or the one the user picks. */
  async choose(): Promise<CompareControl | undefined> {
    if (this.controls.length <= 1) return this.controls[0];
    const picked = await vscode.window.showQuickPick(
      this.controls.map((control) => ({ label: control.label, control })),
      { placeHolder: 'Comparison' },
    );
    return picked?.control;
  }

  close(control: CompareControl): void {
    this.controls = this.controls.filter((c) => c !== control);
    control.dispose();
    void this.updateContext();
  }

  private updateContext(): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', HAS_COMPARISON, this.controls.length > 0);
  }

  dispose(): void {
    for (const control of this.controls) control.dispose();
    this.controls = [];
  }
}
