/**
 * How `test` runs what it resolved: the suites one after another, each through the suite engine (as a trial's when
 * it has one, against the live run when it compares), the JUnit report, and the prompts coverage counts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceClient } from '../core/client';
import { baselineFor, type Baseline } from '../core/prompt-tests/baseline';
import { junitXml } from '../core/prompt-tests/report';
import { runSuiteAt, type RunOptions } from '../core/prompt-tests/run';
import type { Tally } from '../core/prompt-tests/statistics';
import { kindById } from '../core/resources';
import { messageOf } from '../core/text';
import type { TrialRoute } from '../core/trials/trial-run';
import { userCacheDir } from '../core/cache-dir';
import { TrialJournal, trialJournalDir } from '../core/trials/trial-journal';
import type { TrialPlan } from '../core/trials/trial-plan';
import { leftText } from '../core/trials/trial-report';
import type { RequestBudget } from '../core/request-budget';
import { variantReports } from '../core/variants/variant-report';
import { runVariantMatrix } from '../core/variants/variant-run';
import type { Variant } from '../core/variants/variant-spec';
import { UsageError, type CliContext } from './command';
import { redactor } from './failure';
import { TOKEN_VARIABLE } from './service';
import { suiteLines, type SuiteOutcome } from './test-format';
import type { Selected } from './test-options';

export type Ready = Omit<SuiteOutcome, 'result' | 'matrix'> & Pick<Selected, 'only' | 'variants'>;

export async function writeJunit(
  file: string,
  outcomes: ReadonlyArray<Pick<SuiteOutcome, 'name' | 'result' | 'matrix'>>,
  context: CliContext,
): Promise<void> {
  const at = path.resolve(context.cwd, file);
  try {
    await mkdir(path.dirname(at), { recursive: true });
    // A file is output too: a service's message that echoes the token must not leave it in CI's artifacts.
    await writeFile(
      at,
      junitXml(
        outcomes.map((o) => ({ name: o.name, result: o.result, ...(o.matrix ? { matrix: o.matrix } : {}) })),
        redactor(context.env[TOKEN_VARIABLE]?.trim()),
      ),
    );
  } catch (error) {
    throw new UsageError(
      `The JUnit report could not be written to ${at} (${messageOf(error)}); give --junit a path in a writable folder.`,
    );
  }
}

export interface RunSettings {
  concurrency: number;
  signal: AbortSignal;
  baseline: Baseline | undefined;
  /** Print nothing as suites end (--json, or the live half of --compare). */
  quiet: boolean;
  context: CliContext;
  /** A trial's copies, which every request to a copied prompt goes to. */
  route?: TrialRoute;
  /** Each suite's live tallies by case, by suite file (--compare): the trial's baseline. */
  live?: ReadonlyMap<string, ReadonlyMap<string, Tally>>;
  /** The service's base URL, which the variants' copies are journalled under. */
  service: string;
  /** The run's request bound, which keeps the copies' deletes back. */
  budget?: RequestBudget;
  /** A trial's plan, whose version of a suite's prompt its variants start from. */
  plan?: TrialPlan;
  /** Run the base alone, leaving the variants out (the live half of --compare). */
  baseOnly?: boolean;
}

/** A suite's base and variants, each variant through a copy deleted after (contract: "Variant lab"). */
async function runMatrix(
  client: ServiceClient,
  file: Omit<Ready, 'only'>,
  variants: readonly Variant[],
  { only, baseline }: Pick<RunOptions, 'only' | 'baseline'>,
  options: RunSettings,
): Promise<Pick<SuiteOutcome, 'result' | 'matrix'>> {
  const { target } = file;
  const fields = options.plan?.copies.find((c) => c.id === target.id)?.fields;
  const run = await runVariantMatrix({
    client,
    suite: file.suite,
    target,
    variants,
    journal: (tag) =>
      new TrialJournal(trialJournalDir(userCacheDir(options.context.env)), options.service, target.tenantId, tag),
    concurrency: options.concurrency,
    signal: options.signal,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(only ? { only } : {}),
    ...(baseline ? { baseline } : {}),
    ...(options.route ? { base: { route: options.route, ...(fields ? { fields } : {}) } } : {}),
  });
  for (const trial of run.trials) if (trial.left) options.context.err(leftText(trial.left, trial.tenantId));
  return { result: run.base, matrix: variantReports(run.base, run.variants) };
}

/** Sends the suites one after another until `signal` is aborted; what the abort left unfinished comes back skipped. */
export async function runAll(
  client: ServiceClient,
  ready: readonly Ready[],
  options: RunSettings,
): Promise<SuiteOutcome[]> {
  const done: SuiteOutcome[] = [];
  for (const { only, variants, ...file } of ready) {
    const baseline =
      options.live?.get(file.name) ??
      (options.baseline && (baselineFor(options.baseline, file.name)?.cases ?? new Map()));
    const outcome =
      variants && !options.baseOnly
        ? await runMatrix(client, file, variants, { only, baseline }, options)
        : {
            result: await runSuiteAt(
              client,
              file.suite,
              file.target,
              { concurrency: options.concurrency, signal: options.signal, only, baseline },
              options.route,
            ),
          };
    done.push({ ...file, ...outcome });
    if (!options.quiet) for (const line of [...suiteLines({ ...file, ...outcome }), '']) options.context.out(line);
  }
  return done;
}

/**
 * Each tenant's prompt ids, which coverage calls untested when no case reached them: a prompt suite's target was
 * resolved from that very listing, so only a tenant tested by integration suites alone is listed again.
 */
export async function promptsByTenant(client: ServiceClient, ready: readonly Ready[]): Promise<Map<number, number[]>> {
  const prompts = new Map<number, number[]>();
  for (const { target } of ready)
    if (target.kind.segment === 'ai_prompts') prompts.set(target.tenantId, [...target.names.keys()]);
  for (const { target } of ready) {
    if (prompts.has(target.tenantId)) continue;
    const items = await client.list(kindById('prompt'), target.tenantId);
    prompts.set(
      target.tenantId,
      items.flatMap((i) => (typeof i.id === 'number' ? [i.id] : [])),
    );
  }
  return prompts;
}
