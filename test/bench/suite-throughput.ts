// The prompt test engine's rows: a suite run by the core engine as the command-line tool and the Testing view run it
// (prepareSuite, runSuiteAt), at concurrency 4 against at concurrency 1, on a local service of its own that answers
// every request after a fixed latency, so the figure shows how well the runs overlap. One row is a 100-case suite,
// the other a suite of simulated calls, each call's turns and judgements one after another.
import { ServiceClient } from '../../src/core/client';
import type { JsonObject } from '../../src/core/json';
import { caseMessages } from '../../src/core/prompt-tests/case-messages';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { runSuiteAt } from '../../src/core/prompt-tests/run';
import { prepareSuite } from '../../src/core/prompt-tests/target';
import { kindById } from '../../src/core/resources';
import { startService } from '../service/server';
import type { Pair } from './protocol';

export const SUITE_CASES = 100;
export const SUITE_CONCURRENCY = 4;
export const SUITE_LATENCY_MS = 40;
/** 10 calls of 6 turns, each judged on 2 criteria: 10 × (6 answers + 5 caller lines + 2 judgements) requests. */
export const CALLS = { calls: 10, turns: 6, judged: 2 } as const;
/** Rounds of both runs, the order alternating; each pair shares its round's conditions. */
const ROUNDS = 3;
const TENANT = 1;

function parsed(prompt: number, cases: JsonObject[]): Suite {
  const { suite, problems } = parseSuite(JSON.stringify({ prompt, cases }));
  if (!suite) throw new Error(`the bench's suite does not parse: ${problems.map((p) => p.message).join('; ')}`);
  return suite;
}

/** A prompt of the tenant, created for the bench. */
async function prompt(client: ServiceClient, fields: JsonObject): Promise<number> {
  return (await client.create(kindById('prompt'), fields, TENANT)).id as number;
}

async function caseSuite(client: ServiceClient): Promise<Suite> {
  return parsed(
    await prompt(client, { name: 'Bench Suite Prompt' }),
    Array.from({ length: SUITE_CASES }, (_, index) => ({
      name: `case ${index + 1}`,
      prompt_text: `question ${index + 1}`,
      expect: { response: { contains: `question ${index + 1}` } },
    })),
  );
}

/** A caller that never hangs up, so every call takes all its turns, and a judge that passes every call. */
async function callSuite(client: ServiceClient): Promise<Suite> {
  const assistant = await prompt(client, { name: 'Bench Assistant' });
  await prompt(client, {
    name: 'Bench Caller',
    settings: JSON.stringify({ caller: { lines: [], otherwise: 'And then?' } }),
  });
  await prompt(client, {
    name: 'Bench Judge',
    settings: JSON.stringify({ judge: { rules: [{ verdict: 'pass', reasoning: 'It answered.' }] } }),
  });
  const criteria = Array.from({ length: CALLS.judged }, (_, index) => ({
    name: `criterion ${index + 1}`,
    judge: 'Bench Judge',
    rubric: 'The assistant answers.',
  }));
  return parsed(
    assistant,
    Array.from({ length: CALLS.calls }, (_, index) => ({
      name: `call ${index + 1}`,
      simulate: { caller: 'Bench Caller', persona: 'Curious.', opening: `Hello ${index + 1}`, maxTurns: CALLS.turns },
      criteria,
    })),
  );
}

/** Every case must pass, or the timing measured failures rather than runs. */
async function timedRun(client: ServiceClient, suite: Suite, concurrency: number): Promise<number> {
  const target = await prepareSuite(client, suite, TENANT, 'the bench service');
  const started = performance.now();
  const result = await runSuiteAt(client, suite, target, { concurrency });
  const elapsed = performance.now() - started;
  if (result.passed !== suite.cases.length) {
    const first = result.cases.find((c) => !c.passed);
    throw new Error(
      `suite throughput: ${result.failed} of ${suite.cases.length} cases failed at concurrency ${concurrency}: ${first ? caseMessages(first).join('; ') : ''}`,
    );
  }
  return elapsed;
}

/** Candidate: concurrency 4; floor: the same suite serially. */
async function measure(build: (client: ServiceClient) => Promise<Suite>): Promise<Pair[]> {
  const service = await startService({ port: 0, adminToken: 'bench-suite-token', latencyMs: SUITE_LATENCY_MS });
  const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken, timeoutMs: 30_000 });
  try {
    const suite = await build(client);
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

export function measureSuiteThroughput(): Promise<Pair[]> {
  return measure(caseSuite);
}

export function measureCallThroughput(): Promise<Pair[]> {
  return measure(callSuite);
}
