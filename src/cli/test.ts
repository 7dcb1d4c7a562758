/**
 * `test [--url <base URL>] [--tenant <id>] [--junit <file>] [--json] [--concurrency <n>] [--shard <i>/<n>]
 * [--baseline <file>] [--affected-by <folder>] <file or folder>…`: prompt test suites run against the service, for CI.
 */
import { coverageByTenant, promptNodes, type TenantCoverage } from '../core/flow-map/coverage';
import { prepareSuite } from '../core/prompt-tests/target';
import { leftText } from '../core/trials/trial-report';
import { resolveEach } from './resolve';
import { TEST_USAGE, testDetails } from './test-help';
import { EXIT, PROGRAM, UsageError, type ArgValue, type Command } from './command';
import { tenantIdFrom, urlTarget, withClient } from './service';
import { junitPath } from './report-path';
import { findSuites, loadSuite, type SuiteFile } from './suites';
import { affectedOf, baselineFrom, concurrencyFrom, requestLimitFrom, shardOf } from './test-options';
import { baselineNotes, trialLines, requestsLine, testJson, totalsLine, type SuiteOutcome } from './test-format';
import { promptsByTenant, runAll, writeJunit, type Ready } from './test-run';
import { cleanBeforeVariants, runTrial, trialOf, type TrialRun } from './test-trial';
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
import { plural } from '../core/text';
import { RequestBudget } from '../core/request-budget';

function text(value: ArgValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export const testCommand: Command = {
  name: 'test',
  summary: 'run prompt test suites (*.prompttest.json files, or folders searched for them) against the service',
  usage: TEST_USAGE,
  details: testDetails(),
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
    trial: { type: 'string' },
    compare: { type: 'boolean' },
  },
  async run(args, context) {
    if (args.positionals.length === 0)
      throw new UsageError(`test needs at least one suite file or folder: ${PROGRAM} test … <file or folder>.`);
    const target = urlTarget(text(args.values.url), context.env, 'test');
    const concurrency = concurrencyFrom(text(args.values.concurrency));
    const tenantFlag = text(args.values.tenant);
    const tenant = tenantFlag === undefined ? undefined : tenantIdFrom(tenantFlag, '--tenant');
    const json = args.values.json === true;
    const shardFlag = text(args.values.shard);
    const baselineFlag = text(args.values.baseline);
    const baseline = await baselineFrom(baselineFlag, context.cwd);
    const affectedFlag = text(args.values['affected-by']);
    const trialFlag = text(args.values.trial);
    const compare = args.values.compare === true;
    if (compare && trialFlag === undefined)
      throw new UsageError(
        '--compare compares a trial with the live prompts: give the folder to try with --trial <folder>.',
      );
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
    const trial = await trialOf(trialFlag, files, tenant, target, context, budget);
    if (!trial) await cleanBeforeVariants(files, tenant, target, context, budget);
    // --compare runs every case twice, live and as the trial; the copies' creates and deletes count too.
    const { bound, limit } = requestLimitFrom(
      text(args.values['max-requests']),
      compare ? [...files, ...files] : files,
      judgeFiles,
      trial?.plan.requests ?? 0,
    );
    budget.limit = limit;

    const stopper = new AbortController();
    const release = context.onInterrupt?.(() => stopper.abort());
    let done:
      | { outcomes: SuiteOutcome[]; judges: JudgeOutcome[]; coverage: TenantCoverage[]; trial?: TrialRun }
      | undefined;
    try {
      done = await withClient(
        target,
        context.env,
        async (client) => {
          const resolved = await resolveEach(
            files,
            tenant ?? trial?.tenantId,
            { noun: 'suite', key: (f) => (f.suite.resource.segment === 'ai_prompts' ? 'prompt' : 'integration') },
            async (file, tenantId): Promise<Ready> => ({
              ...file,
              target: await prepareSuite(client, file.suite, tenantId, target.baseUrl, undefined, trial?.created),
            }),
          );
          problems.push(...resolved.problems);
          const judges = await resolveJudges(client, judgeFiles, tenant, target.baseUrl);
          problems.push(...judges.problems);
          // All or nothing: a partial run would pass a pipeline while a suite it should have checked never ran.
          if (problems.length > 0) return undefined;
          // Listed before the run, so Ctrl+C leaves nothing more to send, and only for --json, the one output with coverage.
          const prompts = json ? await promptsByTenant(client, resolved.ready) : new Map<number, number[]>();
          const settings = {
            concurrency,
            signal: stopper.signal,
            baseline,
            quiet: json,
            context,
            service: target.baseUrl,
            budget,
          };
          const tried = trial && (await runTrial(client, resolved.ready, trial, { ...settings, compare, budget }));
          const outcomes = tried ? tried.outcomes : await runAll(client, resolved.ready, settings);
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
            ...(tried ? { trial: tried } : {}),
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
    const tried = done.trial && trial && { ...done.trial, folder: trial.folder };
    if (json) context.document(testJson(outcomes, judges.map(judgeEntry), coverage, budget.sent, tried));
    // The totals stay the last line, where CI logs are read.
    else
      for (const line of [
        ...(tried ? trialLines(outcomes, tried) : []),
        requestsLine(budget, bound, limit),
        totalsLine(
          outcomes,
          judges.map((j) => j.run.passed),
        ),
      ])
        context.out(line);
    if (baselineFlag !== undefined) for (const line of baselineNotes(outcomes, baselineFlag)) context.err(line);
    if (junit !== undefined) await writeJunit(junit, [...outcomes, ...judges.map(judgeJunit)], context);
    // A copy left behind is the run's failure, whatever its cases did: callers do not hear it, but it is in the tenant.
    if (tried?.trial.left) context.err(leftText(tried.trial.left, tried.trial.tenantId));
    if (stopper.signal.aborted) {
      const unrun = [...outcomes, ...judges.map((j) => j.run)].reduce((sum, o) => sum + o.result.skipped, 0);
      context.err(
        `Stopped by Ctrl+C: nothing more was sent; ${plural(unrun, 'case')} did not finish and ${unrun === 1 ? 'is' : 'are'} reported skipped, with the runs that ended.`,
      );
      return EXIT.interrupted;
    }
    return outcomes.every((o) => o.result.failed === 0 && o.result.skipped === 0) &&
      judges.every((j) => j.run.passed) &&
      !tried?.trial.left
      ? EXIT.ok
      : EXIT.failed;
  },
};
