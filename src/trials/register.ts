import * as vscode from 'vscode';
import { COMMANDS, registerCommand } from '../commands';
import type { Connections } from '../connections/registry';
import { pickTenant } from '../connections/pickers';
import { userCacheDir } from '../core/cache-dir';
import { plural } from '../core/text';
import { cleanTrials, type CleanResult } from '../core/trials/trial-clean';
import { trialJournalDir } from '../core/trials/trial-journal';
import type { Changes } from '../documents/changes';
import type { Log } from '../log';
import type { ListingCache } from '../core/listing-cache';
import { plain } from '../core/plain-text';

interface CleanArgs {
  connection: string;
  tenantId: number;
  all: boolean;
}

function cleanArgs(args: Record<string, unknown>): CleanArgs {
  const { connection, tenantId, all } = args;
  if (typeof connection !== 'string' || typeof tenantId !== 'number' || !Number.isInteger(tenantId))
    throw new Error(
      'convai.cleanTrials takes { connection, tenantId, all? }: the connection\'s name and the tenant\'s id, e.g. { "connection": "local", "tenantId": 1 }.',
    );
  return { connection, tenantId, all: all === true };
}

/**
 * Clean Up Trial Copies (contract: "Trials"): deletes what trial runs left in a tenant, those this machine's journals
 * name and, since a person asked from the tenant itself, every prompt there marked as a copy.
 */
export function register(
  context: vscode.ExtensionContext,
  {
    log,
    connections,
    listings,
    changes,
  }: { log: Log; connections: Connections; listings: ListingCache; changes: Changes },
): void {
  async function clean({ connection, tenantId, all }: CleanArgs): Promise<{ deleted: CleanResult['deleted'] }> {
    const service = connections.get(connection)?.baseUrl;
    if (!service) throw new Error(`No connection is named "${connection}": add it with "ConvAI: Add Connection".`);
    const result = await cleanTrials(connections.client(connection), {
      dir: trialJournalDir(userCacheDir()),
      service,
      tenantId,
      all,
    });
    // The prompt listing held the copies: it is read again, and no open document shows one.
    await changes.report({ scopes: [{ type: 'resource', connection, tenantId, segment: 'ai_prompts' }] });
    if (result.left.length > 0)
      throw new Error(
        `${plural(result.left.length, 'trial copy', 'trial copies')} could not be deleted: ${result.left.map((l) => `"${l.name}": ${l.reason}`).join('; ')}. Run Clean Up Trial Copies again once the service answers.`,
      );
    return { deleted: result.deleted };
  }
  context.subscriptions.push(
    registerCommand(log, COMMANDS.cleanTrials, {
      programmatic: (args) => clean(cleanArgs(args)),
      interactive: async (arg) => {
        // From the tree's "Trial copies left" item (its node names the tenant), else the palette: ask.
        const given = typeof arg === 'object' && arg !== null ? (arg as Record<string, unknown>) : {};
        const at =
          typeof given.connectionName === 'string' && typeof given.tenantId === 'number'
            ? { connection: given.connectionName, tenantId: given.tenantId }
            : await pickTenant(connections, listings, 'Clean Up Trial Copies', { writable: true });
        if (!at) return undefined;
        const done = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Deleting trial copies…' },
          () => clean({ ...at, all: true }),
        );
        void vscode.window.showInformationMessage(
          done.deleted.length === 0
            ? 'No trial copy was left in that tenant.'
            : plain`Deleted ${plural(done.deleted.length, 'trial copy', 'trial copies')}: ${done.deleted.map((d) => d.name).join(', ')}.`,
        );
        return done;
      },
    }),
  );
}
