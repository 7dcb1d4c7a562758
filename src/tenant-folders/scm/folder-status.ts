/**
 * How a pulled folder's change list stands, in its status bar item: the
 * folder's problems and changes as read from disk, the conflicts of the last
 * plan while they still hold, and the drift last found. It never says more
 * than was checked.
 */
import type * as vscode from 'vscode';
import { COMMANDS } from '../../commands';
import type { Manifest } from '../../core/tenant/manifest';
import type { PlannedChange, LocalPlan } from '../../core/tenant/plan';
import { plain } from '../../core/plain-text';
import { plural } from '../../core/text';
import type { DriftSummary } from './drift-group';

/** The last plan against the service: its conflicts hold as long as the folder's manifest is the one it planned against. */
export interface Checked {
  manifest: Manifest;
  conflicts: Map<string, PlannedChange>;
  connection: string;
  at: Date;
}

/** How the list stands after a check, as Refresh returns it. */
export interface CheckResult {
  changes: number;
  conflicts: number;
  problems: number;
  /** Resources changed, created or deleted on the service since the pull; absent when that was not asked. */
  drifted?: number;
  /** What the list's status bar item says. */
  status: string;
}

/** How the list stands: short in the status bar, whole in its tooltip. */
export interface Status {
  text: string;
  short: string;
}

/** The list's label: the manifest's tenant and connection. */
export function labelOf(manifest: Manifest): string {
  const tenant = manifest.resources.find((entry) => entry.segment === 'tenants');
  return plain`ConvAI: ${tenant?.name ?? `tenant ${manifest.tenantId}`} (${manifest.connection})`;
}

const time = (at: Date): string => at.toLocaleTimeString();

/** How many of the plan's changes the last check found in conflict. */
function conflictCount(plan: LocalPlan, checked: Checked | undefined): number {
  return checked ? plan.changes.filter((c) => checked.conflicts.has(c.file)).length : 0;
}

export function checkResult(
  plan: LocalPlan,
  checked: Checked | undefined,
  drift: DriftSummary,
  status: string,
): CheckResult {
  return {
    changes: plan.changes.length,
    conflicts: conflictCount(plan, checked),
    problems: plan.problems.length,
    ...(drift.count === undefined ? {} : { drifted: drift.count }),
    status,
  };
}

export function statusOf(
  plan: LocalPlan,
  checked: Checked | undefined,
  drift: DriftSummary,
  checkError: string | undefined,
): Status {
  const conflicts = conflictCount(plan, checked);
  const changes = plan.changes.length - conflicts;
  const problems = plan.problems.length;
  const parts = [
    ...(problems > 0 ? [plural(problems, 'problem')] : []),
    ...(conflicts > 0 ? [plural(conflicts, 'conflict')] : []),
    ...(changes > 0 ? [plural(changes, 'change')] : []),
    ...(drift.count ? [`${drift.count} changed on the service`] : []),
  ];
  const icon = checkError
    ? 'error'
    : problems + conflicts > 0
      ? 'warning'
      : drift.count
        ? 'cloud-download'
        : checked || changes === 0
          ? 'check'
          : 'cloud';
  const unsure = checkError ? 'not checked' : !checked && changes > 0 ? 'conflicts not checked' : '';
  const summary = parts.length > 0 ? parts.join(' · ') : 'No change since the pull';
  const short = `$(${icon}) ${summary}${unsure ? `, ${unsure}` : ''}`;
  const plannedText = checkError
    ? `Not checked against the service: ${checkError}`
    : checked
      ? `${conflicts === 0 ? 'No conflict' : plural(conflicts, 'conflict')} with "${checked.connection}" (planned ${time(checked.at)}).`
      : 'Conflicts are not checked since the last pull or push: Refresh or Plan Push checks them.';
  const driftText = drift.error
    ? `What changed on the service is not known: ${drift.error}`
    : drift.at
      ? `${drift.count ? plural(drift.count, 'resource') : 'Nothing'} changed on the service since the pull (checked ${time(drift.at)}).`
      : 'What changed on the service since the pull: Refresh asks.';
  const local = `${plural(problems, 'problem')}, ${plural(plan.changes.length, 'change')} in the folder.`;
  return { short, text: `${local} ${plannedText} ${driftText}` };
}

/** The list's status bar item: its status, and a click that reads and checks the folder again. */
export function statusBar(scm: vscode.SourceControl, short: string, tooltip: string): vscode.Command[] {
  return [{ title: short, tooltip, command: COMMANDS.refreshTenantChanges, arguments: [scm] }];
}
