import { notPulled } from '../../shared/pulled-folder';
import * as vscode from 'vscode';
import { plain } from '../../core/plain-text';
import { COMMANDS, registerCommand } from '../../commands';
import type { Log } from '../../log';
import type { ResourceName } from '../../core/tenant/promotion-matching';
import { messageOf, plural } from '../../core/text';
import { wholeTenant } from '../../core/changes';
import { ChangeState } from './change-states';
import { pullPair, type Comparison } from './compare-control';
import type { Comparisons } from './comparisons';
import type { ScmDeps } from './deps';
import type { CheckResult } from './folder-status';
import type { PulledFolders } from './pulled-folders';
import { runPromotion, type AppliedChange } from './promotion';
import { registerRunAffectedTests } from './affected-tests';
import { registerDriftCommands } from './drift-commands';
import { resourceNamesArg, sameTenant, tenantRefArg, type TenantRef } from './tenant-refs';
import { pickTenant } from '../../connections/pickers';
import { cancellable, countProgress } from '../../ui/progress';

/** The tenant of a tree node the command was run on (its shape, so that this feature does not import the tree's). */
function tenantOfNode(arg: unknown): { connection: string; tenantId: number } | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const node = arg as { type?: unknown; connectionName?: unknown; tenantId?: unknown };
  return node.type === 'tenant' && typeof node.connectionName === 'string' && typeof node.tenantId === 'number'
    ? { connection: node.connectionName, tenantId: node.tenantId }
    : undefined;
}

/** What the Source Control view hands a command: the list, a group, or the selected rows (sometimes as one array). */
function viewArgs(arg: unknown, rest: unknown[]): unknown[] {
  return [arg, ...rest].flatMap((a) => (Array.isArray(a) ? (a as unknown[]) : [a]));
}

/** Refresh: checks pulled folders against the service, or pulls a comparison's tenants again. */
function registerRefresh(log: Log, folders: PulledFolders, comparisons: Comparisons): vscode.Disposable {
  return registerCommand<CheckResult | Comparison>(log, COMMANDS.refreshTenantChanges, {
    programmatic: async (args) => {
      if (typeof args.folder !== 'string')
        throw new Error('folder must be the absolute path of a pulled tenant folder.');
      const control = await folders.byFolder(args.folder);
      if (!control) throw notPulled(args.folder);
      return control.refresh();
    },
    interactive: async (arg) => {
      const comparison = comparisons.find(arg);
      if (comparison)
        return vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
          comparison.refresh(),
        );
      const folder = await folders.find(arg);
      // Refresh of every list first finds the folders pulled since that the watcher missed.
      if (!folder) await folders.scan();
      // A folder deleted since its list was made is no failure of the Refresh: its list goes.
      const lists = folder ? [folder] : await folders.all();
      const present = await Promise.all(lists.map((control) => control.stillPulled()));
      const targets = lists.filter((_, index) => present[index]);
      if (targets.length === 0) {
        void vscode.window.showInformationMessage(
          'No pulled tenant folder in this workspace: pull a tenant into one with "ConvAI: Pull Tenant to Folder…".',
        );
        return undefined;
      }
      // Drift reads every resource of the folder: a progress the user can cancel, beside the list's own.
      let cancelled = false;
      const results = await cancellable('Checking against the service', (signal, progress) => {
        signal.addEventListener('abort', () => {
          cancelled = true;
        });
        return vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
          Promise.allSettled(
            targets.map((t) =>
              t.refresh({
                signal,
                onProgress: countProgress(
                  progress,
                  (done, total) => `${t.label}: ${done} of ${plural(total, 'resource')}`,
                  1 / targets.length,
                ),
              }),
            ),
          ),
        );
      });
      if (cancelled) return undefined;
      const failures = results.flatMap((r, i) =>
        r.status === 'rejected' ? [`${targets[i]?.label}: ${messageOf(r.reason)}`] : [],
      );
      if (failures.length > 0) throw new Error(failures.join(' '));
      return results.length === 1 && results[0]?.status === 'fulfilled' ? results[0].value : undefined;
    },
  });
}

/** Compare Tenant With…: from a tenant of the tree (the source), from the palette, or `{ source, target }`. */
function registerCompare(log: Log, deps: ScmDeps, comparisons: Comparisons): vscode.Disposable {
  const compare = async (source: TenantRef, target: TenantRef): Promise<Comparison> => {
    if (sameTenant(source, target))
      throw new Error('Pick two different tenants: a tenant compared with itself has nothing to promote.');
    const title = `Comparing tenant ${source.tenantId} on ${source.connection} with tenant ${target.tenantId} on ${target.connection}…`;
    const opened = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () =>
      comparisons.open(source, target),
    );
    return opened.comparison;
  };
  return registerCommand(log, COMMANDS.compareTenants, {
    programmatic: async (args) => compare(tenantRefArg(args.source, 'source'), tenantRefArg(args.target, 'target')),
    interactive: async (arg) => {
      const source =
        tenantOfNode(arg) ?? (await pickTenant(deps.connections, deps.listings, 'Compare: the tenant to promote from'));
      const target =
        source &&
        (await pickTenant(
          deps.connections,
          deps.listings,
          `Compare tenant ${source.tenantId} on ${source.connection} with`,
        ));
      if (!source || !target) return undefined;
      const comparison = await compare(source, target);
      await vscode.commands.executeCommand('workbench.view.scm');
      return comparison;
    },
  });
}

/** The rows' resources, once each; none means every resource. */
function namesOf(states: readonly ChangeState[]): ResourceName[] | undefined {
  const names = new Map<string, ResourceName>();
  for (const { row } of states) {
    if (row.change.segment !== 'tenants')
      names.set(`${row.change.segment}/${row.change.name}`, { segment: row.change.segment, name: row.change.name });
  }
  return names.size > 0 ? [...names.values()] : undefined;
}

/**
 * Promote: `{ source, target, resources?, confirm: false }` pulls both tenants
 * and promotes; from a comparison, its rows (the selected ones, or all) are
 * promoted from the tenants as that comparison pulled them.
 */
/** Runs a promotion; what it applied, before a failure too, shows in the target's tree, pickers and open documents. */
async function promoted(
  deps: ScmDeps,
  target: TenantRef,
  promote: () => Promise<AppliedChange[] | undefined>,
): Promise<AppliedChange[] | undefined> {
  let sent = true;
  try {
    const applied = await promote();
    // Declined, or nothing to send: the target is as it was.
    sent = applied !== undefined && applied.length > 0;
    return applied;
  } finally {
    if (sent) await deps.changes.report(wholeTenant(target.connection, target.tenantId));
  }
}

function registerPromote(log: Log, deps: ScmDeps, comparisons: Comparisons): vscode.Disposable {
  return registerCommand<{ applied: AppliedChange[] }>(log, COMMANDS.promote, {
    programmatic: async (given) => {
      const source = tenantRefArg(given.source, 'source');
      const target = tenantRefArg(given.target, 'target');
      if (sameTenant(source, target)) throw new Error('source and target must be two different tenants.');
      const resources = resourceNamesArg(given.resources);
      const pair = await pullPair(deps.connections, source, target);
      const applied = await promoted(deps, target, () =>
        runPromotion(deps.connections, { source, target, pair, resources, confirm: given.confirm !== false }),
      );
      return { applied: applied ?? [] };
    },
    interactive: async (arg, ...rest) => {
      const args = viewArgs(arg, rest);
      const control = args.map((a) => comparisons.find(a)).find((c) => c !== undefined) ?? (await comparisons.choose());
      if (!control)
        throw new Error('There is no comparison to promote from: run "ConvAI: Compare Tenant With…" first.');
      const resources = namesOf(args.filter((a): a is ChangeState => a instanceof ChangeState && control.owns(a)));
      const { source, target } = control;
      const applied = await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
        promoted(deps, target, () =>
          runPromotion(deps.connections, {
            source,
            target,
            pair: control.tenants,
            resources,
            confirm: true,
          }),
        ),
      );
      if (applied === undefined) return undefined;
      void vscode.window.showInformationMessage(
        applied.length === 0
          ? plain`Nothing to promote: tenant ${target.tenantId} on ${target.connection} already matches.`
          : plain`Promoted ${plural(applied.length, 'resource')} to tenant ${target.tenantId} on ${target.connection}.`,
      );
      await control.refresh();
      return { applied };
    },
  });
}

function registerClose(log: Log, comparisons: Comparisons): vscode.Disposable {
  return registerCommand(log, COMMANDS.closeComparison, async (arg) => {
    const control = comparisons.find(arg) ?? (await comparisons.choose());
    if (control) comparisons.close(control);
  });
}

export function registerScmCommands(
  log: Log,
  deps: ScmDeps,
  folders: PulledFolders,
  comparisons: Comparisons,
): vscode.Disposable[] {
  return [
    registerRefresh(log, folders, comparisons),
    registerCompare(log, deps, comparisons),
    registerPromote(log, deps, comparisons),
    registerClose(log, comparisons),
    registerRunAffectedTests(log, folders),
    ...registerDriftCommands(log, folders),
  ];
}
