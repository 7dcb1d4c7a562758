/**
 * How `test` runs what it resolved: the suites one after another, each through the suite engine (as a trial's when
 * it has one, against the live run when it compares), the JUnit report, and the prompts coverage counts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceClient } from '../core/client';
import { baselineFor, type Baseline } from '../core/prompt-tests/baseline';
import { junitXml } from '../core/prompt-tests/report';
import { runSuiteAt } from '../core/prompt-tests/run';
import type { Tally } from '../core/prompt-tests/statistics';
import { kindById } from '../core/resources';
import { messageOf } from '../core/text';
import type { TrialRoute } from '../core/trials/trial-run';
import { UsageError, type CliContext } from './command';
import { redactor } from './failure';
import { TOKEN_VARIABLE } from './service';
import { suiteLines, type SuiteOutcome } from './test-format';
import type { Selected } from './test-options';

export type Ready = Omit<SuiteOutcome, 'result'> & Pick<Selected, 'only'>;

export async function writeJunit(
  file: string,
  outcomes: ReadonlyArray<{ name: string; result: SuiteOutcome['result'] }>,
  context: CliContext,
): Promise<void> {
  const at = path.resolve(context.cwd, file);
  try {
    await mkdir(path.dirname(at), { recursive: true });
    // A file is output too: a service's message that echoes the token must not leave it in CI's artifacts.
    await writeFile(
      at,
      junitXml(
        outcomes.map((o) => ({ name: o.name, result: o.result })),
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
}

/** Sends the suites one after another until `signal` is aborted; what the abort left unfinished comes back skipped. */
export async function runAll(
  client: ServiceClient,
  ready: readonly Ready[],
  options: RunSettings,
): Promise<SuiteOutcome[]> {
  const done: SuiteOutcome[] = [];
  for (const { only, ...file } of ready) {
    const baseline =
      options.live?.get(file.name) ??
      (options.baseline && (baselineFor(options.baseline, file.name)?.cases ?? new Map()));
    const result = await runSuiteAt(
      client,
      file.suite,
      file.target,
      { concurrency: options.concurrency, signal: options.signal, only, baseline },
      options.route,
    );
    done.push({ ...file, result });
    if (!options.quiet) for (const line of [...suiteLines({ ...file, result }), '']) options.context.out(line);
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
