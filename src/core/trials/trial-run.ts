/**
 * A trial run (contract: "Trials"): the planned copies created, the tests run through them, and every copy deleted
 * however the run ends, so callers keep hearing the live prompts and the tenant keeps nothing of the trial.
 */
import type { ServiceClient } from '../client';
import type { RequestBudget } from '../request-budget';
import { mapWithLimit } from '../concurrency';
import { ServiceError } from '../errors';
import type { JsonObject } from '../json';
import { LIMITS } from '../limits';
import { kindById } from '../resources';
import { messageOf } from '../text';
import { leftText, type LeftCopy, type TrialCopy, type TrialOutcome } from './trial-report';
import type { TrialJournal } from './trial-journal';
import { trialCopyName } from './trial-names';
import type { TrialPlan } from './trial-plan';

const PROMPT = kindById('prompt');

/**
 * Where a trial's requests go: what names a copied prompt by its live id is sent to the copy, and an answer naming a
 * copy is read as naming the live prompt, so routing and reports speak of live prompts only.
 */
export class TrialRoute {
  private readonly toCopy = new Map<number, number>();
  private readonly toLive = new Map<number, number>();

  constructor(readonly copies: readonly TrialCopy[]) {
    for (const { id, copy } of copies) {
      // A created prompt has no live id: its copy's id is the only one it has, in reports too.
      const live = id ?? copy;
      this.toCopy.set(live, copy);
      this.toLive.set(copy, live);
    }
  }

  copyOf(id: number): number {
    return this.toCopy.get(id) ?? id;
  }

  liveOf(id: number): number {
    return this.toLive.get(id) ?? id;
  }

  /** The prompts the trial creates, as a listing of the tenant would hold them. */
  get created(): Array<{ id: number; name: string }> {
    return this.copies.flatMap((c) => (c.id === undefined ? [{ id: c.copy, name: c.name }] : []));
  }
}

/** A run that failed and then could not delete its copies: both are said. */
export class TrialCopiesLeft extends Error {
  constructor(
    readonly left: readonly LeftCopy[],
    tenantId: number,
    cause: unknown,
  ) {
    super(leftText(left, tenantId), { cause });
    this.name = 'TrialCopiesLeft';
  }
}

export interface TrialSettings {
  client: ServiceClient;
  tenantId: number;
  tag: string;
  plan: TrialPlan;
  journal: TrialJournal;
  signal?: AbortSignal;
  /** The run's request bound, which keeps the copies' deletes back until the end: a delete is never refused. */
  budget?: RequestBudget;
}

/** A 4xx: the service refused the request, so it made nothing; a 5xx or no answer may hide a write that happened. */
function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500;
}

async function createCopies(settings: TrialSettings, made: TrialCopy[]): Promise<void> {
  const { client, tenantId, tag, plan, journal, signal } = settings;
  const copyId = (index: number): number => (made[index] as TrialCopy).copy;
  for (const planned of plan.copies) {
    signal?.throwIfAborted();
    const name = trialCopyName(tag, planned.name);
    const fields: JsonObject = { ...planned.fields, name };
    for (const link of planned.links) {
      // A late link keeps the live id until its update; a created prompt has none, so it waits unset.
      if (link.atCreate) fields[link.field] = copyId(link.target);
      else fields[link.field] = plan.copies[link.target]?.id ?? null;
    }
    await journal.creating(name);
    let created: JsonObject;
    try {
      created = await client.create(PROMPT, fields, tenantId, { signal });
    } catch (error) {
      // The service answered that it made nothing; any other failure may have made the copy, so the journal keeps it.
      if (error instanceof ServiceError && isRefusal(error.status)) await journal.deleted(new Set([name]));
      throw error;
    }
    if (typeof created.id !== 'number') throw new Error(`the service created ${name} without an id`);
    await journal.created(name, created.id);
    made.push({
      ...(planned.id === undefined ? {} : { id: planned.id }),
      copy: created.id,
      name: planned.name,
      ...(planned.file === undefined ? {} : { file: planned.file }),
    });
  }
  // A cycle of hand-overs: a copy names the copies created after it only once they exist.
  for (const [index, planned] of plan.copies.entries()) {
    const late = planned.links.filter((l) => !l.atCreate);
    if (late.length === 0) continue;
    signal?.throwIfAborted();
    const fields = Object.fromEntries(late.map((l) => [l.field, copyId(l.target)]));
    await client.update(PROMPT, copyId(index), fields, tenantId, { signal });
  }
}

/** Deletes the copies, a gone one counted as deleted; the ones left, with why. */
async function deleteCopies(settings: TrialSettings, made: readonly TrialCopy[]): Promise<LeftCopy[]> {
  const { client, tenantId, tag, journal } = settings;
  const left: LeftCopy[] = [];
  const gone = new Set<string>();
  // Never with the run's signal: a cancelled run still removes its copies.
  await mapWithLimit(made, LIMITS.tenantConcurrency.value, async (copy) => {
    try {
      await client.delete(PROMPT, copy.copy, tenantId);
      gone.add(trialCopyName(tag, copy.name));
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) gone.add(trialCopyName(tag, copy.name));
      else left.push({ ...copy, reason: messageOf(error) });
    }
  });
  await journal.deleted(gone);
  return left;
}

/**
 * Creates the plan's copies, runs `run` through them, and deletes them, whatever `run` did. Copies left behind are
 * in the outcome (`deleted` false), or, when `run` failed too, a TrialCopiesLeft whose cause is that failure.
 */
export async function withTrialCopies<T>(
  settings: TrialSettings,
  run: (route: TrialRoute) => Promise<T>,
): Promise<{ value: T; trial: TrialOutcome }> {
  const made: TrialCopy[] = [];
  settings.budget?.reserve(settings.plan.copies.length);
  let outcome: { value: T } | { failure: unknown };
  try {
    await createCopies(settings, made);
    outcome = { value: await run(new TrialRoute(made)) };
  } catch (failure) {
    outcome = { failure };
  }
  settings.budget?.release(settings.plan.copies.length);
  const left = await deleteCopies(settings, made);
  if ('failure' in outcome) {
    if (left.length > 0) throw new TrialCopiesLeft(left, settings.tenantId, outcome.failure);
    throw outcome.failure;
  }
  const trial: TrialOutcome = {
    tag: settings.tag,
    tenantId: settings.tenantId,
    copies: made,
    deleted: left.length === 0,
  };
  return { value: outcome.value, trial: left.length > 0 ? { ...trial, left } : trial };
}
