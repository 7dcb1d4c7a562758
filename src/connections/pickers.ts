import * as vscode from 'vscode';
import { plainText } from '../core/plain-text';
import { tenantsListing, type ListingCache } from '../core/listing-cache';
import { isResourceId } from '../core/references';
import type { Connections } from './registry';

export interface TenantChoice {
  connection: string;
  tenantId: number;
  name: string;
}

export interface ConnectionQuestion {
  title?: string;
  placeHolder: string;
  /** Only connections that may change things (not read-only ones). */
  writable?: boolean;
  /** Ask even when there is one connection: for commands that remove or change the connection itself. */
  alwaysAsk?: boolean;
}

/**
 * The one way every command asks for a connection: each shows its base URL and
 * whether it is read-only; none to choose from is an error that says how to add one.
 */
export async function pickConnection(
  connections: Connections,
  question: ConnectionQuestion,
): Promise<string | undefined> {
  const candidates = connections.list().filter((c) => !question.writable || !c.readOnly);
  if (candidates.length === 0) {
    throw new Error(
      question.writable && connections.list().length > 0
        ? 'Every ConvAI connection is read-only (readOnly in convai.connections): add one that may change things with "ConvAI: Add Connection".'
        : 'There is no ConvAI connection yet: add one with "ConvAI: Add Connection".',
    );
  }
  const [only] = candidates;
  if (candidates.length === 1 && only && !question.alwaysAsk) return only.name;
  const picked = await vscode.window.showQuickPick(
    // Shown as text (a quick pick draws `$(x)` as an icon); the name itself is what the command gets.
    candidates.map((c) => ({
      label: plainText(c.name),
      description: plainText(`${c.baseUrl}${c.readOnly ? ' · read-only' : ''}`),
      name: c.name,
    })),
    // A step of a command of several: closed by a focus change, it would end the command unasked (ignoreFocusOut).
    { title: question.title, placeHolder: question.placeHolder, ignoreFocusOut: true },
  );
  return picked?.name;
}

/** A connection (unless given) and one of the tenants its token may see (the shared listing), chosen by name. */
export async function pickTenant(
  connections: Connections,
  listings: ListingCache,
  title: string,
  options: { connection?: string; writable?: boolean } = {},
): Promise<TenantChoice | undefined> {
  // Asked even when there is one: the choice of a connection and then its tenant is the one people know here.
  const name =
    options.connection ??
    (await pickConnection(connections, {
      title,
      placeHolder: 'Connection',
      writable: options.writable,
      alwaysAsk: true,
    }));
  if (name === undefined) return undefined;
  const tenants = await listings.items(tenantsListing(name));
  const picked = await vscode.window.showQuickPick(
    tenants.flatMap((t) => {
      if (!isResourceId(t.id)) return [];
      const tenantName = typeof t.name === 'string' ? t.name : `Tenant ${t.id}`;
      return [{ label: plainText(tenantName), description: `#${t.id}`, id: t.id, tenantName }];
    }),
    // Typing a tenant's id finds it too.
    {
      title: `${title} (${plainText(name)})`,
      placeHolder: 'Tenant (name or id)',
      matchOnDescription: true,
      ignoreFocusOut: true,
    },
  );
  return picked ? { connection: name, tenantId: picked.id, name: picked.tenantName } : undefined;
}
