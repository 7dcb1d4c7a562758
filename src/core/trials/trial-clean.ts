/**
 * Deleting what trial runs left (contract: "Trials"): the copies their journals name, found by id or, when a create's
 * answer was lost, by name; and with `all`, every prompt of the tenant marked as a copy, for a run killed on another
 * machine whose journal is not here.
 */
import type { ServiceClient } from '../client';
import { ServiceError } from '../errors';
import type { JsonObject } from '../json';
import { kindById } from '../resources';
import { messageOf } from '../text';
import { leftJournals, settleJournal, type JournalCopy } from './trial-journal';
import { isTrialCopy } from './trial-names';

const PROMPT = kindById('prompt');

export interface CleanOptions {
  /** The journals' folder (trialJournalDir). */
  dir: string;
  /** The service's base URL, as journals record it. */
  service: string;
  /** Only this tenant's; every tenant's journals of the service when absent. */
  tenantId?: number;
  /** Also every prompt of the tenant named as a copy; needs `tenantId`. */
  all?: boolean;
  signal?: AbortSignal;
}

export interface CleanResult {
  /** The copies deleted, by their id and marked name. */
  deleted: Array<{ id: number; name: string }>;
  /** Copies that could not be deleted, with why; they stay in their journal for the next clean. */
  left: Array<{ id?: number; name: string; reason: string }>;
}

/** Deletes one prompt, a gone one counted as deleted; the reason it could not be, otherwise. */
async function deleted(client: ServiceClient, id: number, tenantId: number): Promise<string | undefined> {
  try {
    await client.delete(PROMPT, id, tenantId);
    return undefined;
  } catch (error) {
    return error instanceof ServiceError && error.status === 404 ? undefined : messageOf(error);
  }
}

export async function cleanTrials(client: ServiceClient, options: CleanOptions): Promise<CleanResult> {
  const result: CleanResult = { deleted: [], left: [] };
  const listings = new Map<number, JsonObject[]>();
  const listing = async (tenantId: number): Promise<JsonObject[]> => {
    let items = listings.get(tenantId);
    if (!items) {
      items = await client.list(PROMPT, tenantId, { signal: options.signal, trialCopies: true });
      listings.set(tenantId, items);
    }
    return items;
  };
  const done = new Set<number>();
  const remove = async (id: number, name: string, tenantId: number): Promise<string | undefined> => {
    if (done.has(id)) return undefined;
    const reason = await deleted(client, id, tenantId);
    if (reason === undefined) {
      done.add(id);
      result.deleted.push({ id, name });
    }
    return reason;
  };
  for (const record of await leftJournals(options.dir, options.service, options.tenantId)) {
    const left: JournalCopy[] = [];
    for (const copy of record.copies) {
      options.signal?.throwIfAborted();
      // A create whose answer was lost: the copy is there under its name, or was never made.
      const ids =
        copy.id !== undefined
          ? [copy.id]
          : (await listing(record.tenantId)).flatMap((i) =>
              i.name === copy.name && typeof i.id === 'number' ? [i.id] : [],
            );
      for (const id of ids) {
        const reason = await remove(id, copy.name, record.tenantId);
        if (reason !== undefined) {
          left.push({ ...copy, id });
          result.left.push({ id, name: copy.name, reason });
        }
      }
    }
    await settleJournal(options.dir, record, left);
  }
  if (options.all && options.tenantId !== undefined) {
    for (const item of await listing(options.tenantId)) {
      if (!isTrialCopy(item) || typeof item.id !== 'number' || done.has(item.id)) continue;
      const reason = await remove(item.id, String(item.name), options.tenantId);
      if (reason !== undefined) result.left.push({ id: item.id, name: String(item.name), reason });
    }
  }
  return result;
}
