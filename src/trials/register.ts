import type * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { Connections } from '../connections/registry';
import type { ListingCache } from '../core/listing-cache';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import { trialEngine } from './load';

/** Clean Up Trial Copies (contract: "Trials"); its work waits in the trial engine, loaded at its first use. */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    listings,
    changes,
  }: { log: Log; connections: Connections; listings: ListingCache; changes: Changes },
): void {
  const deps = { connections, listings, changes };
  context.subscriptions.push(
    registerCommand(log, COMMANDS.cleanTrials, {
      programmatic: (args) => trialEngine().cleanTenant(deps, trialEngine().cleanArgs(args)),
      interactive: (arg) => trialEngine().cleanAsked(deps, arg),
    }),
  );
}
