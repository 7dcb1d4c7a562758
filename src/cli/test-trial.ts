/**
 * `test --trial <folder> [--compare]` (contract: "Trials"): the suites run against the folder's planned versions of
 * its prompts, through trial copies that are deleted when the run ends, never writing a live prompt. Everything
 * that could make the trial wrong (a plan a push would refuse, another service or tenant, a suite naming a prompt
 * the folder deletes) is found before any copy is made.
 */
import path from 'node:path';
import { sameBaseUrl } from '../core/base-url';
import { userCacheDir } from '../core/cache-dir';
import type { ServiceClient } from '../core/client';
import type { Tally } from '../core/prompt-tests/statistics';
import { whereSuiteRuns } from '../core/prompt-tests/target';
import type { SuiteResult } from '../core/prompt-tests/types';
import type { RequestBudget } from '../core/request-budget';
import { plural } from '../core/text';
import type { FolderTrial } from '../core/trials/folder-proposals';
import { planFolderTrial, TrialRefused, type FolderTrialPlan } from '../core/trials/folder-trial';
import { cleanTrials } from '../core/trials/trial-clean';
import { liveBaseline } from '../core/trials/trial-compare';
import { TrialJournal, trialJournalDir } from '../core/trials/trial-journal';
import { newTrialTag } from '../core/trials/trial-names';
import type { TrialPlan } from '../core/trials/trial-plan';
import { withTrialCopies } from '../core/trials/trial-run';
import type { TrialOutcome } from '../core/trials/trial-report';
import { namesCreated, withCopies, type StandIn } from '../core/trials/trial-suites';
import { PROGRAM, UsageError, type CliContext } from './command';
import { pulledFolder, withClient, type ServiceTarget } from './service';
import type { SuiteOutcome } from './test-format';
import type { Selected } from './test-options';
import { runAll, type Ready, type RunSettings } from './test-run';

export interface TrialSetup {
  /** The folder as given on the command line. */
  folder: string;
  tenantId: number;
  service: string;
  trial: FolderTrial;
  created: StandIn[];
  plan: TrialPlan;
}

function refused(value: string, lines: readonly string[], fix: string): UsageError {
  return new UsageError(`--trial ${value}: ${lines.length === 1 ? lines[0] : 'no trial can run:'}`, [
    ...(lines.length === 1 ? [] : lines.map((line) => `  ${line}`)),
    `${fix} No prompt test ran and nothing was written.`,
  ]);
}

/** The tenant every suite runs in, which must be the folder's. */
function tenantOf(value: string, files: readonly Selected[], tenant: number | undefined, folderTenant: number): number {
  const others = files.flatMap((file) => {
    const { tenantId } = whereSuiteRuns(file.suite, { tenantId: tenant });
    return tenantId === undefined || tenantId === folderTenant ? [] : [`${file.name} runs in tenant ${tenantId}`];
  });
  if (others.length > 0)
    throw refused(
      value,
      [`the folder holds tenant ${folderTenant}, but ${others.join('; ')}`],
      `Run the trial in the folder's tenant (--tenant ${folderTenant}), or give a folder pulled from the suites' tenant.`,
    );
  return folderTenant;
}

/** Deletes what killed runs (trials, variant matrices) left on this tenant, saying what; before the run's bound is set. */
async function cleanLeft(client: ServiceClient, setup: Pick<TrialSetup, 'service' | 'tenantId'>, context: CliContext) {
  const cleaned = await cleanTrials(client, {
    dir: trialJournalDir(userCacheDir(context.env)),
    service: setup.service,
    tenantId: setup.tenantId,
  });
  if (cleaned.deleted.length > 0)
    context.err(
      `Deleted ${plural(cleaned.deleted.length, 'trial copy', 'trial copies')} an earlier run left: ${cleaned.deleted.map((d) => `"${d.name}" (${d.id})`).join(', ')}.`,
    );
  for (const left of cleaned.left)
    context.err(`A trial copy an earlier run left could not be deleted: "${left.name}": ${left.reason}.`);
}

/** Reads `--trial <folder>` and plans its copies, sending only reads (and the deletes of what killed runs left). */
export async function trialOf(
  value: string | undefined,
  files: readonly Selected[],
  tenant: number | undefined,
  target: ServiceTarget,
  context: CliContext,
  budget: RequestBudget,
): Promise<TrialSetup | undefined> {
  if (value === undefined) return undefined;
  const folder = await pulledFolder(path.resolve(context.cwd, value));
  const { manifest } = folder;
  if (!sameBaseUrl(manifest.baseUrl, target.baseUrl))
    throw refused(
      value,
      [`the folder was pulled from ${manifest.baseUrl}, but this run tests ${target.baseUrl}`],
      `Test the service the folder holds (--url ${manifest.baseUrl}), or pull the tenant from ${target.baseUrl}.`,
    );
  const base = { folder: value, tenantId: tenantOf(value, files, tenant, manifest.tenantId), service: target.baseUrl };
  return withClient(
    target,
    context.env,
    async (client) => {
      await cleanLeft(client, base, context);
      let planned: FolderTrialPlan;
      try {
        planned = await planFolderTrial(client, folder, base.tenantId, files);
      } catch (error) {
        if (!(error instanceof TrialRefused)) throw error;
        const { lines } = error;
        throw refused(
          value,
          lines,
          error.reason === 'plan'
            ? `Fix ${lines.length === 1 ? 'it' : 'them'} in the folder (${PROGRAM} plan ${value} lists them too).`
            : 'Remove those cases or names from the suites, or keep the prompts in the folder.',
        );
      }
      if (planned.trial.untested > 0)
        context.err(
          `--trial ${value}: ${plural(planned.trial.untested, 'planned change')} of kinds other than prompts cannot be tried; the suites meet them as they are live.`,
        );
      return { ...base, ...planned };
    },
    budget,
  );
}

/**
 * A killed variant run leaves copies as a killed trial does: a run that makes copies on a tenant first deletes what
 * such runs left there (a trial run does so in trialOf).
 */
export async function cleanBeforeVariants(
  files: readonly Selected[],
  tenant: number | undefined,
  target: ServiceTarget,
  context: CliContext,
  budget: RequestBudget,
): Promise<void> {
  const tenants = new Set(
    files.flatMap((f) => (f.variants ? [whereSuiteRuns(f.suite, { tenantId: tenant }).tenantId] : [])),
  );
  const known = [...tenants].filter((t): t is number => t !== undefined);
  if (known.length === 0) return;
  await withClient(
    target,
    context.env,
    async (client) => {
      for (const tenantId of known) await cleanLeft(client, { service: target.baseUrl, tenantId }, context);
    },
    budget,
  );
}

export interface TrialRun {
  outcomes: SuiteOutcome[];
  trial: TrialOutcome;
  /** With --compare: each suite's live run, by suite file. */
  live?: Map<string, SuiteResult>;
}

/** The live half of --compare first (the suites that can run live), then the trial, judged against it. */
export async function runTrial(
  client: ServiceClient,
  ready: readonly Ready[],
  setup: TrialSetup,
  settings: RunSettings & { compare: boolean; budget: RequestBudget },
): Promise<TrialRun> {
  // Nothing to try: no copy is made for suites that are not there (--affected-by chose none, say).
  if (ready.length === 0)
    return { outcomes: [], trial: { tag: newTrialTag(), tenantId: setup.tenantId, copies: [], deleted: true } };
  let live: Map<string, SuiteResult> | undefined;
  if (settings.compare) {
    const livable = ready.filter((r) => !namesCreated(r.suite, setup.created));
    const outcomes = await runAll(client, livable, { ...settings, quiet: true, baseline: undefined, baseOnly: true });
    live = new Map(outcomes.map((o) => [o.name, o.result]));
  }
  const baselines = new Map<string, Map<string, Tally>>([...(live ?? [])].map(([name, r]) => [name, liveBaseline(r)]));
  const tag = newTrialTag();
  const journal = new TrialJournal(
    trialJournalDir(userCacheDir(settings.context.env)),
    setup.service,
    setup.tenantId,
    tag,
  );
  const { value, trial } = await withTrialCopies(
    {
      client,
      tenantId: setup.tenantId,
      tag,
      plan: setup.plan,
      journal,
      signal: settings.signal,
      budget: settings.budget,
    },
    (route) =>
      runAll(
        client,
        ready.map((r) => ({ ...r, target: withCopies(r.target, setup.created, route) })),
        { ...settings, route, plan: setup.plan, ...(live ? { live: baselines } : {}) },
      ),
  );
  return { outcomes: value, trial, ...(live ? { live } : {}) };
}
