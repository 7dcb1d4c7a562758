import type * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { ListingCache } from '../core/listing-cache';
import type { Connections } from '../connections/registry';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import type { FolderEvents } from './folder-events';
import type { FolderCommandServices } from './folder-commands';
import { planCommand, replanPreview } from './plan-command';
import { PlanView } from './plan-view';
import { pullCommand } from './pull-command';
import { pushCommand } from './push-command';
import { pickPlanTarget, pickSavedPlan } from './saved-plans';

export function registerTenantFolderCommands(
  log: Log,
  connections: Connections,
  changes: Changes,
  listings: ListingCache,
  events: FolderEvents,
): vscode.Disposable[] {
  const view = new PlanView();
  const services: FolderCommandServices = { log, connections, changes, listings, events, view };
  return [
    view,
    events.onDidWrite(({ folder }) => void replanPreview(services, folder)),
    registerCommand(log, COMMANDS.pullTenant, pullCommand(services)),
    registerCommand(log, COMMANDS.planPush, planCommand(services)),
    registerCommand(log, COMMANDS.push, pushCommand(services)),
    registerCommand(log, COMMANDS.savePlan, planCommand(services, pickPlanTarget)),
    registerCommand(log, COMMANDS.pushSavedPlan, pushCommand(services, pickSavedPlan)),
  ];
}
