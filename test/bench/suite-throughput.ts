// The "suite throughput" row: a 100-case prompt suite run by the core engine as the command-line tool runs it
// (prepareSuite, runSuiteAt), at concurrency 4 against at concurrency 1, on a local service of its own
// that answers every request after a fixed latency, so the figure shows how well the runs overlap.
import { ServiceClient } from '../../src/core/client';
import { caseMessages } from '../../src/core/prompt-tests/run';
import { parseSuite, type Suite } from '../../src/core/prompt-tests/suite';
import { prepareSuite, runSuiteAt } from '../../src/core/prompt-tests/target';
import { kindById } from '../../src/core/resources';
import { startService } from '../service/server';
import type { Pair } from './protocol';

export const SUITE_CASES = 100;
export const SUITE_CONCURRENCY = 4;
export const SUITE_LATENCY_MS = 40;
/** Rounds of both runs, the order alternating; each pair shares its round's conditions. */
const ROUNDS = 3;
const TENANT = 1;

function benchSuite(prompt: number): Suite {
  const cases = Array.from({ length: SUITE_CASES }, (_, index) => ({
    name: `case ${index + 1}`,
    prompt_text: `question ${index + 1}`,
    expect: { response: { contains: `question ${index + 1}` } },
  }));
  const { suite, problems } = parseSuite(JSON.stringify({ prompt, cases }));
  if (!suite) throw new Error(`the bench's suite does not parse: ${problems.map((p) => p.message).join('; ')}`);
  return suite;
}

/** Every case must pass, or the timing measured failures rather than runs. */
async function timedRun(client: ServiceClient, suite: Suite, concurrency: number): Promise<number> {
  const target = await prepareSuite(client, suite, TENANT, 'the bench service');
  const started = performance.now();
  const result = await runSuiteAt(client, suite, target, { concurrency });
  const elapsed = performance.now() - started;
  if (result.passed !== SUITE_CASES) {
    const first = result.cases.find((c) => !c.passed);
    throw new Error(`suite throughput: ${result.failed} of ${SUITE_CASES} cases failed at concurrency ${concurrency}: ${first ? caseMessages(first).join('; ') : ''}`);
  }
  return elapsed;
}

/** Candidate: concurrency 4; floor: the same suite serially. */
export async function measureSuiteThroughput(): Promise<Pair[]> {
  const service = await startService({ port: 0, adminToken: 'bench-suite-token', latencyMs: SUITE_LATENCY_MS });
  const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken, timeoutMs: 30_000 });
  try {
    const created = await client.create(kindById('prompt'), { name: 'Bench Suite Prompt' }, TENANT);
    const suite = benchSuite(created.id as number);
    await timedRun(client, suite, SUITE_CONCURRENCY);
    const pairs: Pair[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const concurrentFirst = round % 2 === 0;
      const first = await timedRun(client, suite, concurrentFirst ? SUITE_CONCURRENCY : 1);
      const second = await timedRun(client, suite, concurrentFirst ? 1 : SUITE_CONCURRENCY);
      pairs.push(concurrentFirst ? { candidate: first, floor: second } : { candidate: second, floor: first });
    }
    return pairs;
  } finally {
    await client.close();
    await service.close();
  }
}
