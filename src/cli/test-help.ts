/** What `test --help` says: its flags, its outputs and its exit codes. */
import { CONCURRENCY, DEFAULT_MAX_REQUESTS } from './test-options';
import { URL_VARIABLE } from './service';

export const TEST_USAGE =
  '[--url <base URL>] [--tenant <id>] [--junit <file>] [--json] [--concurrency <n>] [--shard <i>/<n>] [--baseline <file>] [--affected-by <folder>] [--trial <folder> [--compare]] [--max-requests <n>] <file or folder>…';

export function testDetails(): string[] {
  return [
    `--url <base URL>        the service, e.g. https://convai.example.com (default: the environment variable ${URL_VARIABLE})`,
    '--tenant <id>           the tenant to test in (default: each suite\'s "target": { "tenantId" })',
    '--junit <file>          also write a JUnit XML report, one testsuite per suite file; a file or folder that can be written, not a suite, the baseline or a path in the --affected-by folder',
    '--json                  print { passed, failed, skipped, requests, suites: [ { file, cases: [ { name, passed, verdict, reason?, runs, passes, errors, passRate, interval, regressed?, improved?, live?, messages, turns? } ] } ], coverage: [ { tenantId, nodes, edges } ], trial? } (verdict pass, flaky or fail, or, when no run decided it, error or skipped with the reason); a judge file\'s entry is { file, judge, labels, agreement, tpr, tnr, kappa, consistency, minKappa, passed, messages, cases } (its labels as cases, not in the counts); coverage is the flow map\'s: each prompt of a tenant the suites ran against "passed", "failed" or "untested", and the hand-overs { from, to } that conversations and simulated calls took',
    `--concurrency <n>       requests at once, 1 to ${CONCURRENCY.max} (default ${CONCURRENCY.default})`,
    '--shard <i>/<n>         run only the i-th of n parts of the cases, split by a stable hash of file and case name',
    '--baseline <file>       a report of test --json: a case whose passes dropped significantly against it (one-sided Fisher test, p < 0.05) is regressed and fails; suites are matched by their path from the file name up, wherever the run starts, and what matched nothing is said',
    '--affected-by <folder>  run only the suites whose prompt or integration the planned push of this pulled tenant folder changes (by its new name or, renamed, its old one), or whose prompt links to a changed one through next_prompt_id or exit_prompt_id',
    '--trial <folder>        run the suites against the planned versions of the prompts this pulled folder updates or creates, through trial copies named "[trial <tag>] <name>" that are deleted when the run ends, never writing a live prompt; --json gains trial: { tag, folder, copies: [ { id, copy, name } ], deleted }',
    '--compare               with --trial, also run every case on the live prompts as many times: a case whose trial passes are significantly fewer (one-sided Fisher test, p < 0.05) is regressed and fails, significantly more is improved; --json cases gain live: { runs, passes, errors, passRate, interval, verdict }',
    `--max-requests <n>      the most requests that run a test a run may send, each retry counted (default ${DEFAULT_MAX_REQUESTS}): a run whose cases could send more is refused, sending nothing (a simulated call sends an assistant and a caller request per turn, and each judgement), and a retry beyond it is not sent; every run says how many requests it sent, reads included; a trial adds a create and a delete per copy`,
    "A suite's \"variants\" run too: every case on the prompt as it is (the base: live, or the --trial version) and on each variant, through a trial copy per variant deleted after; --json suites gain variants: [ { name, runs, passes, errors, passRate, interval, latency: { p50, p95 }, cases, vsBase?: { change, p } } ] (the base first; vsBase by a two-sided Fisher test on pooled counts, better or worse only at p < 0.05), JUnit gains \"variant: <name>\" properties, and the suite's cases, counts and exit code stay the base's; --max-requests counts every variant's runs and its copy's create and delete",
    'Folders are searched recursively, skipping node_modules and folders whose name starts with a dot.',
    "A *.judgetest.json file (a judge prompt's labelled calls) reports its labels and its judge's agreement, TPR, TNR, Cohen's kappa and consistency; it fails when kappa is below its minKappa, whatever its labels. --shard runs it whole in one shard; --baseline does not apply to it.",
    'Exits 0 when every case passed and every judge met its minKappa, 1 otherwise, and 1 when a trial copy could not be deleted (it is named, with `trials clean`).',
    "Exits 2, running nothing, when a suite cannot run (a problem in it, a variant's field unknown or of the wrong type, or its file missing, no tenant, its prompt or integration not found or the service not answering), when the --affected-by or --trial folder's plan has problems or conflicts, when the --trial folder holds another service or tenant than the run's or a suite names a prompt it deletes, when --junit names an input or cannot be written, or on a usage error.",
    'Ctrl+C stops sending, reports what ran, writes the JUnit report with the cases not run as skipped, and exits 130.',
  ];
}
