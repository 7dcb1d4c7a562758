/**
 * The groups of a pulled folder's change list, in the order a person deals
 * with them: problems (a push sends nothing until they are fixed), conflicts,
 * then the changes a push would send.
 */
import * as vscode from 'vscode';
import { PROBLEMS_HEADING } from '../../core/tenant/plan-verdict';
import type { ChangeState } from './change-states';
import { problemState } from './problem-states';

export class ChangeGroups {
  private readonly problems: vscode.SourceControlResourceGroup;
  private readonly conflicts: vscode.SourceControlResourceGroup;
  private readonly changes: vscode.SourceControlResourceGroup;

  constructor(
    scm: vscode.SourceControl,
    private readonly root: vscode.Uri,
  ) {
    this.problems = scm.createResourceGroup('problems', PROBLEMS_HEADING);
    this.problems.hideWhenEmpty = true;
    this.conflicts = scm.createResourceGroup('conflicts', 'Conflicts');
    this.conflicts.hideWhenEmpty = true;
    this.changes = scm.createResourceGroup('changes', 'Changes');
  }

  /** Shows the rows of the folder's changes, each in its group, and the plan's problems. */
  show(states: readonly ChangeState[], problems: readonly string[]): void {
    this.conflicts.resourceStates = states.filter((s) => s.row.change.action === 'conflict');
    this.changes.resourceStates = states.filter((s) => s.row.change.action !== 'conflict');
    this.problems.resourceStates = problems.map((problem) => problemState(this.root, problem));
  }
}
