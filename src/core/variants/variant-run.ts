/**
 * A variant matrix run (contract: "Variant lab"): one trial copy per variant, the suite's cases run on the base and
 * on every copy side by side within one bound on requests in flight, and every copy deleted however the run ends.
 * The live prompt is only ever tested, never written.
 */
import type { ServiceClient } from '../client';
import { limiter } from '../concurrency';
import type { JsonObject } from '../json';
import { LIMITS } from '../limits';
import type { RequestBudget } from '../request-budget';
import { kindById } from '../resources';
import { runSuite, type RunOptions } from '../prompt-tests/run';
import type { Suite, TestCase } from '../prompt-tests/suite';
import { executorFor, type ResolvedTarget } from '../prompt-tests/target';
import type { CaseResult, SuiteResult } from '../prompt-tests/types';
import type { TrialJournal } from '../trials/trial-journal';
import { newTrialTag } from '../trials/trial-names';
import { planTrial, type TrialPlan } from '../trials/trial-plan';
import type { TrialOutcome } from '../trials/trial-report';
import { TrialRoute, withTrialCopies } from '../trials/trial-run';
import { BASE_NAME, type Variant } from './variant-spec';

const PROMPT = kindById('prompt');

export interface MatrixSettings {
  client: ServiceClient;
  suite: Suite;
  target: ResolvedTarget;
  variants: readonly Variant[];
  /** A new run's journal, for each variant's copy. */
  journal: (tag: string) => TrialJournal;
  concurrency?: number;
  signal?: AbortSignal;
  budget?: RequestBudget;
  only?: ReadonlySet<string>;
  /** The base's tallies in an earlier run, by case: a base case that dropped against it fails as regressed. */
  baseline?: RunOptions['baseline'];
  /** When the base is a trial's version: its route, and its fields of the suite's prompt where it has a copy. */
  base?: { route: TrialRoute; fields?: JsonObject };
  /** Each cell as it ends: `column` is "base" or the variant's name. */
  onCell?: (column: string, testCase: TestCase, result: CaseResult) => void;
}

export interface MatrixRun {
  base: SuiteResult;
  variants: Array<{ name: string; result: SuiteResult }>;
  /** Each variant's copy: made, and deleted or left. */
  trials: TrialOutcome[];
}

/** Each variant's copy: the base's version of the prompt with the variant's fields over it. */
export async function planVariants(
  settings: Pick<MatrixSettings, 'client' | 'target' | 'variants' | 'base' | 'signal'>,
): Promise<TrialPlan[]> {
  const { client, target, variants, base, signal } = settings;
  if (variants.length === 0) return [];
  const live = await client.get(PROMPT, target.id, target.tenantId, { signal });
  const held = new Map([[target.id, live]]);
  return variants.map((variant) =>
    planTrial([{ id: target.id, name: target.name, fields: { ...base?.fields, ...variant.fields } }], held),
  );
}

/** The creates, link updates and deletes the variants' copies cost, for a run's request bound. */
export function copyRequests(plans: readonly TrialPlan[]): number {
  return plans.reduce((sum, plan) => sum + plan.requests, 0);
}

/** A promise and what settles it, for copies that wait on one another. */
function settler<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Whoever waits on it sees a rejection; unwaited, it is no unhandled one.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Runs `run` once every plan's copies are made, one trial (and tag, and journal) per plan, all made and deleted side
 * by side: a matrix costs one create's and one delete's time, not one per variant. A trial whose copies cannot be
 * made stops the others before the run; every trial deletes its own copies however the run ends.
 */
async function withEveryCopy<T>(
  settings: MatrixSettings,
  plans: readonly TrialPlan[],
  run: (routes: TrialRoute[]) => Promise<T>,
): Promise<{ value: T; trials: TrialOutcome[] }> {
  const { client, target, signal, budget } = settings;
  const routes: TrialRoute[] = [];
  const ready = settler<void>();
  const done = settler<T>();
  let made = 0;
  ready.promise.then(() => run(routes)).then(done.resolve, done.reject);
  if (plans.length === 0) ready.resolve();
  const settled = await Promise.allSettled(
    plans.map((plan, index) => {
      const tag = newTrialTag();
      const trial = { client, tenantId: target.tenantId, tag, plan, journal: settings.journal(tag), signal, budget };
      return withTrialCopies(trial, async (route) => {
        routes[index] = route;
        if (++made === plans.length) ready.resolve();
        await ready.promise;
        return done.promise;
      }).catch((error: unknown) => {
        ready.reject(error);
        throw error;
      });
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const trials = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.trial] : []));
  return { value: await done.promise, trials };
}

/** A variant's route: the base's, with the suite's prompt sent to the variant's copy (none when it equals the base). */
function variantRoute(base: TrialRoute | undefined, own: TrialRoute, promptId: number): TrialRoute {
  const others = (base?.copies ?? []).filter((c) => (c.id ?? c.copy) !== promptId);
  const copy = own.copies[0];
  return new TrialRoute(copy ? [...others, copy] : (base?.copies ?? []));
}

/** The matrix: every case on the base and on each variant, `repeat` times, sharing the run's concurrency. */
export async function runVariantMatrix(settings: MatrixSettings, plans?: readonly TrialPlan[]): Promise<MatrixRun> {
  const planned = plans ?? (await planVariants(settings));
  const { client, suite, target, base, signal, only } = settings;
  const concurrency = settings.concurrency ?? LIMITS.testConcurrency.value;
  const requests = limiter(concurrency);
  const runColumn = (column: string, route: TrialRoute | undefined, baseline?: RunOptions['baseline']) => {
    const options: RunOptions = {
      concurrency,
      ...(baseline ? { baseline } : {}),
      requests,
      ...(signal ? { signal } : {}),
      ...(only ? { only } : {}),
      onCaseFinished: (testCase, result) => settings.onCell?.(column, testCase, result),
    };
    return runSuite(suite, executorFor(client, target, route), options);
  };
  const { value, trials } = await withEveryCopy(settings, planned, (routes) =>
    Promise.all([
      runColumn(BASE_NAME, base?.route, settings.baseline),
      ...settings.variants.map((v, i) =>
        runColumn(v.name, variantRoute(base?.route, routes[i] as TrialRoute, target.id)),
      ),
    ]),
  );
  const [first, ...rest] = value;
  return {
    base: first as SuiteResult,
    variants: settings.variants.map((v, i) => ({ name: v.name, result: rest[i] as SuiteResult })),
    trials,
  };
}
