/**
 * The flags of `test` that choose what runs and how it is judged:
 * --concurrency, --shard, --baseline and --affected-by, each checked before
 * any prompt is sent.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { affectedByPlan } from '../core/prompt-tests/affected';
import { matrixBound } from '../core/prompt-tests/cost';
import type { JudgeFile } from '../core/prompt-tests/judge-file';
import { runsInFolder, whereSuiteRuns } from '../core/prompt-tests/target';
import { BaselineError, parseBaseline, type Baseline } from '../core/prompt-tests/baseline';
import { inShard, parseShard } from '../core/prompt-tests/shard';
import type { Suite } from '../core/prompt-tests/suite';
import { planPush } from '../core/tenant/plan';
import { messageOf, plural } from '../core/text';
import { PROGRAM, UsageError, type CliContext } from './command';
import { LIMITS } from '../core/limits';
import type { RequestBudget } from '../core/request-budget';
import { manifestTarget, pulledFolder, withClient } from './service';
import type { SuiteFile } from './suites';

/** As the extension's setting convai.testConcurrency: its default and its cap. */
export const CONCURRENCY = { default: LIMITS.testConcurrency.value, max: LIMITS.testConcurrency.setting.maximum };

export function concurrencyFrom(value: string | undefined): number {
  if (value === undefined) return CONCURRENCY.default;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > CONCURRENCY.max) {
    throw new UsageError(
      `--concurrency "${value}" is not a number of requests at once: give a whole number from 1 to ${CONCURRENCY.max}, e.g. --concurrency ${CONCURRENCY.default}.`,
    );
  }
  return n;
}

/** Without --max-requests: a run that could send more is refused, as nobody in CI is there to ask. */
export const DEFAULT_MAX_REQUESTS = LIMITS.testRequests.value;

/**
 * `--max-requests <n>` (default DEFAULT_MAX_REQUESTS): the most requests that run a test or write the run may send,
 * each retry counted. `bound` is the most its cases can send (contract: "Simulated callers"), since a simulated
 * call's turns and judges each cost a request; a run whose bound exceeds the limit is refused before anything is sent.
 */
export function requestLimitFrom(
  value: string | undefined,
  files: ReadonlyArray<Pick<Selected, 'suite' | 'only'>>,
  judges: ReadonlyArray<{ file: Pick<JudgeFile, 'labels' | 'repeat'> }> = [],
  writes = 0,
): { bound: number; limit: number } {
  // A judge file asks its judge repeat times per label; `writes` are a trial's creates, link updates and deletes.
  const bound =
    files.reduce((sum, file) => sum + matrixBound(file.suite, file.only), 0) +
    judges.reduce((sum, { file }) => sum + file.labels.length * file.repeat, 0) +
    writes;
  const limit = value === undefined ? DEFAULT_MAX_REQUESTS : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new UsageError(
      `--max-requests "${value ?? ''}" is not a number of requests: give a whole number from 1, e.g. --max-requests 500.`,
    );
  if (bound <= limit) return { bound, limit };
  if (value === undefined) {
    throw new UsageError(
      `This run could send up to ${bound} requests, more than the ${DEFAULT_MAX_REQUESTS} that test sends without --max-requests, so nothing was sent. Run fewer cases (a --shard, fewer suites), lower their repeat, maxTurns or judgeRepeat, or allow it with --max-requests ${bound}.`,
    );
  }
  throw new UsageError(
    `This run could send up to ${bound} requests, more than --max-requests ${limit}, so nothing was sent. Run fewer cases (a --shard, fewer suites), lower their repeat, maxTurns or judgeRepeat, or raise --max-requests.`,
  );
}

/** A suite and the names of its cases to run (all of them without --shard). */
export interface Selected extends SuiteFile {
  only?: ReadonlySet<string>;
}

/** Keeps the cases of the shard `--shard i/n` names, and the suites that hold any of them. */
export function shardOf(files: readonly SuiteFile[], value: string | undefined): Selected[] {
  if (value === undefined) return [...files];
  const shard = parseShard(value);
  if (!shard)
    throw new UsageError(
      `--shard "${value}" is not a part of the run: give i/n, the i-th of n parts with i from 1 to n, e.g. --shard 2/4.`,
    );
  return files.flatMap((file) => {
    const only = new Set(file.suite.cases.filter((c) => inShard(shard, file.name, c.name)).map((c) => c.name));
    return only.size === 0 ? [] : [{ ...file, only }];
  });
}

export async function baselineFrom(value: string | undefined, cwd: string): Promise<Baseline | undefined> {
  if (value === undefined) return undefined;
  const at = path.resolve(cwd, value);
  const fix = `give --baseline a file that ${PROGRAM} test --json wrote`;
  let text: string;
  try {
    text = await readFile(at, 'utf8');
  } catch (error) {
    throw new UsageError(`The baseline ${at} could not be read (${messageOf(error)}); ${fix}.`);
  }
  try {
    return parseBaseline(text);
  } catch (error) {
    if (!(error instanceof BaselineError)) throw error;
    throw new UsageError(`The baseline ${at} is not a test --json report: ${error.message}; ${fix}.`);
  }
}

/**
 * The suites whose prompt or integration the planned push of the pulled folder `value` could change; a suite of
 * another tenant (by --tenant, else its target) names another prompt, whatever its name.
 */
export async function affectedOf<T extends { suite: Pick<Suite, 'resource' | 'target'> }>(
  files: readonly T[],
  value: string | undefined,
  tenant: number | undefined,
  context: CliContext,
  budget?: RequestBudget,
): Promise<T[]> {
  if (value === undefined) return [...files];
  const folder = await pulledFolder(path.resolve(context.cwd, value));
  const plan = await withClient(
    manifestTarget(folder, context.env),
    context.env,
    (client) => planPush(client, folder.io, { loaded: folder.loaded }),
    budget,
  );
  const chosen = affectedByPlan(plan);
  if ('problems' in chosen) {
    throw new UsageError(
      `--affected-by ${value}: the planned push of ${folder.root} has ${plural(chosen.problems.length, 'problem')}, so the suites it affects cannot be told and no prompt test ran:`,
      [
        ...chosen.problems.map((problem) => `  ${problem}`),
        `Fix ${chosen.problems.length === 1 ? 'it' : 'them'} in the folder (${PROGRAM} plan ${value} lists them too), then run test again.`,
      ],
    );
  }
  const { affected } = chosen;
  // The CLI runs every suite against --url, whatever connection its target names: the tenant alone tells.
  const inFolder = (suite: Pick<Suite, 'target'>): boolean =>
    runsInFolder(
      { tenantId: whereSuiteRuns(suite, { tenantId: tenant }).tenantId },
      { tenantId: folder.manifest.tenantId },
    );
  const kept = files.filter((file) => inFolder(file.suite) && affected(file.suite));
  context.err(
    `--affected-by ${value}: ${plural(plan.changes.length, 'planned change')}; ${kept.length} of ${plural(files.length, 'suite')} affected.`,
  );
  return kept;
}
