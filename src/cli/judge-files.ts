/**
 * `test`'s judge files (contract: "Judge calibration"): found beside suites,
 * read and their judge prompts found before anything is sent, run after the
 * suites, and reported as a table of labels with the file's figures.
 */
import type { ServiceClient } from '../core/client';
import { calibrationLine } from '../core/prompt-tests/calibration';
import { JUDGE_SUFFIX, parseJudgeFile, type JudgeFile } from '../core/prompt-tests/judge-file';
import { judgeAsker, prepareJudge, runJudgeFile, type CalibrationResult } from '../core/prompt-tests/judge-run';
import { caseReport } from '../core/prompt-tests/report';
import { caseResult } from '../core/prompt-tests/verdict';
import type { SuiteResult } from '../core/prompt-tests/types';
import { inShard, parseShard } from '../core/prompt-tests/shard';
import type { ResolvedTarget } from '../core/prompt-tests/target';
import { resolveEach } from './resolve';
import { table } from './format';
import { readTestFile } from './suites';

export function isJudgeFile(file: string): boolean {
  return file.endsWith(JUDGE_SUFFIX);
}

export interface LoadedJudge {
  name: string;
  file: JudgeFile;
  text: string;
  /** The judge as a suite's resource, so --affected-by chooses judge files as it chooses suites. */
  suite: { resource: { segment: 'ai_prompts'; ref: string | number }; target: JudgeFile['target'] };
}

export interface JudgeOutcome extends LoadedJudge {
  judge: ResolvedTarget;
  run: CalibrationResult;
}

/** A judge file ready to run, or every problem that keeps it from running, each as `file:line:column message`. */
export async function loadJudgeFile(path: string, cwd: string): Promise<LoadedJudge | { problems: string[] }> {
  const read = await readTestFile(path, cwd, (text) => {
    const { file, problems } = parseJudgeFile(text);
    return { value: file, problems };
  });
  if ('problems' in read) return read;
  const { name, text, value: file } = read;
  return { name, file, text, suite: { resource: { segment: 'ai_prompts', ref: file.judge }, target: file.target } };
}

/** A judge file's labels are weighed together, so a shard runs a file whole: the one its name hashes to. */
export function judgeShardOf(files: readonly LoadedJudge[], value: string | undefined): LoadedJudge[] {
  const shard = value === undefined ? undefined : parseShard(value);
  return shard ? files.filter((f) => inShard(shard, f.name, JUDGE_SUFFIX)) : [...files];
}

/** Every judge file's judge prompt, or every reason one cannot run, as for suites. */
export function resolveJudges(
  client: ServiceClient,
  files: readonly LoadedJudge[],
  tenant: number | undefined,
  baseUrl: string,
): Promise<{ ready: Array<LoadedJudge & { judge: ResolvedTarget }>; problems: string[] }> {
  return resolveEach(files, tenant, { noun: 'judge file', key: () => 'judge' }, async (file, tenantId) => ({
    ...file,
    judge: await prepareJudge(client, file.file, tenantId, baseUrl),
  }));
}

export async function runJudge(
  client: ServiceClient,
  file: LoadedJudge & { judge: ResolvedTarget },
  concurrency: number,
  signal: AbortSignal,
): Promise<JudgeOutcome> {
  const run = await runJudgeFile(file.file, JSON.stringify(file.judge.name), judgeAsker(client, file.judge), {
    concurrency,
    signal,
  });
  return { ...file, run };
}

function labelVerdict(result: SuiteResult['cases'][number]): string {
  if (result.skipped) return 'NOT RUN';
  if (result.errors > 0) return 'ERROR';
  return result.passed ? 'AGREED' : 'DISAGREED';
}

/** The file's labels as a table, each disagreement's reason under its row, then the figures and the file's verdict. */
export function judgeLines({ name, file, judge, run }: JudgeOutcome): string[] {
  const lines = [
    `${name}: judge "${judge.name}" (id ${judge.id}) in tenant ${judge.tenantId}; ${run.result.passed} of ${run.result.cases.length} labels agreed`,
  ];
  const [header, ...body] = table([
    ['label', 'expected', 'result'],
    ...run.result.cases.map((c, index) => [c.name, file.labels[index]?.expected ?? '', labelVerdict(c)]),
  ]);
  lines.push(`  ${header ?? ''}`);
  body.forEach((row, index) => {
    lines.push(`  ${row}`);
    const result = run.result.cases[index];
    if (result && !result.passed && !result.skipped)
      lines.push(...caseReport(result).messages.map((m) => `      - ${m}`));
  });
  lines.push(`  ${calibrationLine(run.calibration, run.minKappa)}: ${run.passed ? 'PASSED' : 'FAILED'}`);
  lines.push(...run.messages.map((m) => `  - ${m}`));
  return lines;
}

/** The file's entry in `test --json`: `{ file, judge, labels, agreement, tpr, tnr, kappa, consistency, passed, cases }`. */
export function judgeEntry({ name, judge, run }: JudgeOutcome): Record<string, unknown> {
  const { labels, agreement, tpr, tnr, kappa, consistency } = run.calibration;
  return {
    file: name,
    judge: judge.name,
    labels,
    agreement,
    tpr,
    tnr,
    kappa,
    consistency,
    minKappa: run.minKappa,
    passed: run.passed,
    messages: run.messages,
    cases: run.result.cases.map(caseReport),
  };
}

/** The file's JUnit testsuite: its labels, and a case for the kappa comparison that decides the file. */
export function judgeJunit({ name, run }: JudgeOutcome): { name: string; result: SuiteResult } {
  const verdict = caseResult(
    { name: 'kappa meets minKappa', expect: {}, repeat: 1, minPassRate: 1, range: { offset: 0, length: 0 } },
    [
      {
        passed: run.passed,
        durationMs: 0,
        failures: run.messages.map((message) => ({
          field: 'kappa',
          assertion: 'equals' as const,
          message,
          expected: `kappa >= ${run.minKappa}`,
          actual: `kappa ${run.calibration.kappa ?? 'n/a'}`,
        })),
      },
    ],
  );
  const cases = [...run.result.cases, verdict];
  return {
    name,
    result: {
      ...run.result,
      cases,
      passed: run.result.passed + (run.passed ? 1 : 0),
      failed: run.result.failed + (run.passed ? 0 : 1),
    },
  };
}
