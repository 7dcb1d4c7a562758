/**
 * `test [--url <base URL>] [--tenant <id>] [--junit <file>] [--json] [--concurrency <n>] [--shard <i>/<n>]
 * [--baseline <file>] [--affected-by <folder>] <file or folder>…`: prompt test suites run against the service, for CI.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServiceClient } from '../core/client';
import { baselineFor, type Baseline } from '../core/prompt-tests/baseline';
import { coverageByTenant, promptNodes, type TenantCoverage } from '../core/flow-map/coverage';
import { kindById } from '../core/resources';
import { junitXml } from '../core/prompt-tests/report';
import { prepareSuite, runSuiteAt } from '../core/prompt-tests/target';
import { resolveEach } from './resolve';
import { EXIT, PROGRAM, UsageError, type ArgValue, type CliContext, type Command } from './command';
import { redactor } from './failure';
import {
  baseUrlFrom,
  tenantIdFrom,
  TOKEN_VARIABLE,
  tokenFrom,
  URL_VARIABLE,
  withClient,
  type ServiceTarget,
} from './service';
import { junitPath } from './report-path';
import { findSuites, loadSuite, type SuiteFile } from './suites';
import {
  affectedOf,
  baselineFrom,
  CONCURRENCY,
  concurrencyFrom,
  DEFAULT_MAX_REQUESTS,
  requestLimitFrom,
  shardOf,
  type Selected,
} from './test-options';
import { baselineNotes, requestsLine, suiteLines, testJson, totalsLine, type SuiteOutcome } from './test-format';
import {
  isJudgeFile,
  judgeEntry,
  judgeJunit,
  judgeLines,
  judgeShardOf,
  loadJudgeFile,
  resolveJudges,
  runJudge,
  type JudgeOutcome,
  type LoadedJudge,
} from './judge-files';
import { messageOf, plural } from '../core/text';
import { RequestBudget } from '../core/request-budget';

function text(value: ArgValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function targetOf(flag: string | undefined, env: NodeJS.ProcessEnv): ServiceTarget {
  if (flag !== undefined)
    return { baseUrl: baseUrlFrom(flag.trim(), '--url'), urlSource: '--url', token: tokenFrom(env) };
  const variable = env[URL_VARIABLE]?.trim();
  if (!variable)
    throw new UsageError(
      `test needs the service's base URL: pass --url <base URL> or set the environment variable ${URL_VARIABLE}.`,
    );
  return { baseUrl: baseUrlFrom(variable, URL_VARIABLE), urlSource: URL_VARIABLE, token: tokenFrom(env) };
}

type Ready = Omit<SuiteOutcome, 'result'> & Pick<Selected, 'only'>;

async function writeJunit(
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

interface RunSettings {
  concurrency: number;
  signal: AbortSignal;
  baseline: Baseline | undefined;
  json: boolean;
  context: CliContext;
}

/** Sends the suites one after another until `signal` is aborted; what the abort left unfinished comes back skipped. */
async function runAll(client: ServiceClient, ready: readonly Ready[], options: RunSettings): Promise<SuiteOutcome[]> {
  const done: SuiteOutcome[] = [];
  for (const { only, ...file } of ready) {
    const baseline = options.baseline && (baselineFor(options.baseline, file.name)?.cases ?? new Map());
    const result = await runSuiteAt(client, file.suite, file.target, {
      concurrency: options.concurrency,
      signal: options.signal,
      only,
      baseline,
    });
    done.push({ ...file, result });
    if (!options.json) for (const line of [...suiteLines({ ...file, result }), '']) options.context.out(line);
  }
  return done;
}

/**
 * Each tenant's prompt ids, which coverage calls untested when no case reached them: a prompt suite's target was
 * resolved from that very listing, so only a tenant tested by integration suites alone is listed again.
 */
async function promptsByTenant(client: ServiceClient, ready: readonly Ready[]): Promise<Map<number, number[]>> {
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

export const testCommand: Command = {
  name: 'test',
  summary: 'run prompt test suites (*.prompttest.json files, or folders searched for them) against the service',
  usage:
    '[--url <base URL>] [--tenant <id>] [--junit <file>] [--json] [--concurrency <n>] [--shard <i>/<n>] [--baseline <file>] [--affected-by <folder>] [--max-requests <n>] <file or folder>…',
  details: [
    `--url <base URL>        the service, e.g. https://convai.example.com (default: the environment variable ${URL_VARIABLE})`,
    '--tenant <id>           the tenant to test in (default: each suite\'s "target": { "tenantId" })',
    '--junit <file>          also write a JUnit XML report, one testsuite per suite file; a file or folder that can be written, not a suite, the baseline or a path in the --affected-by folder',
    '--json                  print { passed, failed, skipped, requests, suites: [ { file, cases: [ { name, passed, verdict, reason?, runs, passes, errors, passRate, interval, regressed?, messages, turns? } ] } ], coverage: [ { tenantId, nodes, edges } ] } (verdict pass, flaky or fail, or, when no run decided it, error or skipped with the reason); a judge file\'s entry is { file, judge, labels, agreement, tpr, tnr, kappa, consistency, minKappa, passed, messages, cases } (its labels as cases, not in the counts); coverage is the flow map\'s: each prompt of a tenant the suites ran against "passed", "failed" or "untested", and the hand-overs { from, to } that conversations and simulated calls took',
    `--concurrency <n>       requests at once, 1 to ${CONCURRENCY.max} (default ${CONCURRENCY.default})`,
    '--shard <i>/<n>         run only the i-th of n parts of the cases, split by a stable hash of file and case name',
    '--baseline <file>       a report of test --json: a case whose passes dropped significantly against it (one-sided Fisher test, p < 0.05) is regressed and fails; suites are matched by their path from the file name up, wherever the run starts, and what matched nothing is said',
    '--affected-by <folder>  run only the suites whose prompt or integration the planned push of this pulled tenant folder changes (by its new name or, renamed, its old one), or whose prompt links to a changed one through next_prompt_id or exit_prompt_id',
    `--max-requests <n>      the most requests that run a test a run may send, each retry counted (default ${DEFAULT_MAX_REQUESTS}): a run whose cases could send more is refused, sending nothing (a simulated call sends an assistant and a caller request per turn, and each judgement), and a retry beyond it is not sent; every run says how many requests it sent, reads included`,
    'Folders are searched recursively, skipping node_modules and folders whose name starts with a dot.',
    "A *.judgetest.json file (a judge prompt's labelled calls) reports its labels and its judge's agreement, TPR, TNR, Cohen's kappa and consistency; it fails when kappa is below its minKappa, whatever its labels. --shard runs it whole in one shard; --baseline does not apply to it.",
    'Exits 0 when every case passed and every judge met its minKappa, 1 otherwise.',
    "Exits 2, running nothing, when a suite cannot run (a problem in it, no tenant, its prompt or integration not found or the service not answering), when the --affected-by folder's plan has problems, when --junit names an input or cannot be written, or on a usage error.",
    'Ctrl+C stops sending, reports what ran, writes the JUnit report with the cases not run as skipped, and exits 130.',
  ],
  options: {
    url: { type: 'string' },
    tenant: { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'boolean' },
    concurrency: { type: 'string' },
    shard: { type: 'string' },
    baseline: { type: 'string' },
    'affected-by': { type: 'string' },
    'max-requests': { type: 'string' },
  },
  async run(args, context) {
    if (args.positionals.length === 0)
      throw new UsageError(`test needs at least one suite file or folder: ${PROGRAM} test … <file or folder>.`);
    const target = targetOf(text(args.values.url), context.env);
    const concurrency = concurrencyFrom(text(args.values.concurrency));
    const tenantFlag = text(args.values.tenant);
    const tenant = tenantFlag === undefined ? undefined : tenantIdFrom(tenantFlag, '--tenant');
    const json = args.values.json === true;
    const shardFlag = text(args.values.shard);
    const baselineFlag = text(args.values.baseline);
    const baseline = await baselineFrom(baselineFlag, context.cwd);
    const affectedFlag = text(args.values['affected-by']);
    const found = await findSuites(args.positionals, context.cwd);
    const junitFlag = text(args.values.junit);
    const junit =
      junitFlag === undefined
        ? undefined
        : await junitPath(junitFlag, { suites: found, baseline: baselineFlag, affectedBy: affectedFlag }, context.cwd);

    const loaded: SuiteFile[] = [];
    const loadedJudges: LoadedJudge[] = [];
    const problems: string[] = [];
    for (const file of found) {
      const read = isJudgeFile(file) ? await loadJudgeFile(file, context.cwd) : await loadSuite(file, context.cwd);
      if ('problems' in read) problems.push(...read.problems);
      else if ('file' in read) loadedJudges.push(read);
      else loaded.push(read);
    }
    // Every request of the run is counted, the plan --affected-by reads included; the bound is known once the cases are.
    const budget = new RequestBudget();
    const files = await affectedOf(shardOf(loaded, shardFlag), affectedFlag, tenant, context, budget);
    const judgeFiles =
      loadedJudges.length === 0
        ? []
        : await affectedOf(judgeShardOf(loadedJudges, shardFlag), affectedFlag, tenant, context, budget);
    const { bound, limit } = requestLimitFrom(text(args.values['max-requests']), files, judgeFiles);
    budget.limit = limit;

    const stopper = new AbortController();
    const release = context.onInterrupt?.(() => stopper.abort());
    let done: { outcomes: SuiteOutcome[]; judges: JudgeOutcome[]; coverage: TenantCoverage[] } | undefined;
    try {
      done = await withClient(
        target,
        context.env,
        async (client) => {
          const resolved = await resolveEach(
            files,
            tenant,
            { noun: 'suite', key: (f) => (f.suite.resource.segment === 'ai_prompts' ? 'prompt' : 'integration') },
            async (file, tenantId): Promise<Ready> => ({
              ...file,
              target: await prepareSuite(client, file.suite, tenantId, target.baseUrl),
            }),
          );
          problems.push(...resolved.problems);
          const judges = await resolveJudges(client, judgeFiles, tenant, target.baseUrl);
          problems.push(...judges.problems);
          // All or nothing: a partial run would pass a pipeline while a suite it should have checked never ran.
          if (problems.length > 0) return undefined;
          // Listed before the run, so Ctrl+C leaves nothing more to send, and only for --json, the one output with coverage.
          const prompts = json ? await promptsByTenant(client, resolved.ready) : new Map<number, number[]>();
          const outcomes = await runAll(client, resolved.ready, {
            concurrency,
            signal: stopper.signal,
            baseline,
            json,
            context,
          });
          const judged: JudgeOutcome[] = [];
          for (const file of judges.ready) {
            const outcome = await runJudge(client, file, concurrency, stopper.signal);
            judged.push(outcome);
            if (!json) for (const line of [...judgeLines(outcome), '']) context.out(line);
          }
          return {
            outcomes,
            judges: judged,
            coverage: coverageByTenant(outcomes, (tenantId) => promptNodes(prompts.get(tenantId) ?? [])),
          };
        },
        budget,
      );
    } finally {
      release?.();
    }
    if (done === undefined) {
      for (const problem of problems) context.err(problem);
      context.err(`No prompt test ran: fix the ${plural(problems.length, 'problem')} above, then run test again.`);
      return EXIT.usage;
    }

    const { outcomes, judges, coverage } = done;
    if (json) context.document(testJson(outcomes, judges.map(judgeEntry), coverage, budget.sent));
    // The totals stay the last line, where CI logs are read.
    else
      for (const line of [
        requestsLine(budget, bound, limit),
        totalsLine(
          outcomes,
          judges.map((j) => j.run.passed),
        ),
      ])
        context.out(line);
    if (baselineFlag !== undefined) for (const line of baselineNotes(outcomes, baselineFlag)) context.err(line);
    if (junit !== undefined) await writeJunit(junit, [...outcomes, ...judges.map(judgeJunit)], context);
    if (stopper.signal.aborted) {
      const unrun = [...outcomes, ...judges.map((j) => j.run)].reduce((sum, o) => sum + o.result.skipped, 0);
      context.err(
        `Stopped by Ctrl+C: nothing more was sent; ${plural(unrun, 'case')} did not finish and ${unrun === 1 ? 'is' : 'are'} reported skipped, with the runs that ended.`,
      );
      return EXIT.interrupted;
    }
    return outcomes.every((o) => o.result.failed === 0 && o.result.skipped === 0) && judges.every((j) => j.run.passed)
      ? EXIT.ok
      : EXIT.failed;
  },
};
