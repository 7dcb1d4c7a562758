// The trial's row: 10 changed prompts tried by 20 single-turn cases (a suite of two cases for each prompt, the suites
// one after another, each at concurrency 4) through copies the trial engine makes and deletes (withTrialCopies, its
// journal included), against the same suites run live plus the same 10 creates and 10 deletes made plainly, on a
// local service of its own that answers every request after a fixed latency. A trial should add its copies' requests
// and little else.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { mapWithLimit } from '../../src/core/concurrency';
import type { JsonObject } from '../../src/core/json';
import { caseMessages } from '../../src/core/prompt-tests/case-messages';
import { runSuiteAt } from '../../src/core/prompt-tests/run';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { prepareSuite, type ResolvedTarget } from '../../src/core/prompt-tests/target';
import { kindById } from '../../src/core/resources';
import { TrialJournal } from '../../src/core/trials/trial-journal';
import { newTrialTag } from '../../src/core/trials/trial-names';
import { planTrial, type Proposal, type TrialPlan } from '../../src/core/trials/trial-plan';
import { withTrialCopies, type TrialRoute } from '../../src/core/trials/trial-run';
import { startService } from '../service/server';
import type { Pair } from './protocol';
import { SUITE_CONCURRENCY, SUITE_LATENCY_MS } from './suite-throughput';

export const TRIAL_PROMPTS = 10;
export const TRIAL_CASES = 20;
/** Rounds of both runs, the order alternating; each pair shares its round's conditions. */
const ROUNDS = 3;
const TENANT = 1;
const PROMPT = kindById('prompt');

interface Tried {
  suites: Array<{ suite: Suite; target: ResolvedTarget }>;
  plan: TrialPlan;
}

/** The prompts, a suite of two cases for each, and the trial's plan: each prompt's system text changed. */
async function setUp(client: ServiceClient): Promise<Tried> {
  const suites: Tried['suites'] = [];
  const proposals: Proposal[] = [];
  const live = new Map<number, JsonObject>();
  for (let index = 1; index <= TRIAL_PROMPTS; index++) {
    const name = `Bench Trial Prompt ${index}`;
    const created = await client.create(PROMPT, { name, system: 'Answer briefly.' }, TENANT);
    const id = created.id as number;
    const cases = [1, 2].map((n) => ({
      name: `case ${n}`,
      prompt_text: `question ${index}.${n}`,
      expect: { response: { contains: `question ${index}.${n}` } },
    }));
    const { suite, problems } = parseSuite(JSON.stringify({ prompt: id, cases }));
    if (!suite) throw new Error(`the bench's suite does not parse: ${problems.map((p) => p.message).join('; ')}`);
    suites.push({ suite, target: await prepareSuite(client, suite, TENANT, 'the bench service') });
    proposals.push({ id, name, fields: { system: 'Answer in full.' } });
    live.set(id, await client.get(PROMPT, id, TENANT));
  }
  return { suites, plan: planTrial(proposals, live) };
}

/** The suites one after another, through the trial's copies when there is a route; every case must pass. */
async function runSuites(client: ServiceClient, tried: Tried, route?: TrialRoute): Promise<void> {
  for (const { suite, target } of tried.suites) {
    const result = await runSuiteAt(client, suite, target, { concurrency: SUITE_CONCURRENCY }, route);
    const failed = result.cases.find((c) => !c.passed);
    if (failed) throw new Error(`trial overhead: case "${failed.name}" failed: ${caseMessages(failed).join('; ')}`);
  }
}

/** Candidate: the trial, copies made, suites run through them, copies deleted. */
async function trial(client: ServiceClient, tried: Tried, journals: string, service: string): Promise<number> {
  const started = performance.now();
  const tag = newTrialTag();
  const journal = new TrialJournal(journals, service, TENANT, tag);
  const { trial: done } = await withTrialCopies({ client, tenantId: TENANT, tag, plan: tried.plan, journal }, (route) =>
    runSuites(client, tried, route),
  );
  if (!done.deleted) throw new Error('trial overhead: the trial left copies');
  return performance.now() - started;
}

/** Floor: the suites live, and the same creates (one after another) and deletes (at concurrency 4) made plainly. */
async function live(client: ServiceClient, tried: Tried): Promise<number> {
  const started = performance.now();
  await runSuites(client, tried);
  const made: number[] = [];
  for (const [index, copy] of tried.plan.copies.entries())
    made.push((await client.create(PROMPT, { ...copy.fields, name: `floor ${index}` }, TENANT)).id as number);
  await mapWithLimit(made, SUITE_CONCURRENCY, (id) => client.delete(PROMPT, id, TENANT));
  return performance.now() - started;
}

export async function measureTrialOverhead(): Promise<Pair[]> {
  const service = await startService({ port: 0, adminToken: 'bench-trial-token', latencyMs: SUITE_LATENCY_MS });
  const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken, timeoutMs: 30_000 });
  const journals = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-trials-'));
  try {
    const tried = await setUp(client);
    await trial(client, tried, journals, service.url);
    const pairs: Pair[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const trialFirst = round % 2 === 0;
      const first = trialFirst ? await trial(client, tried, journals, service.url) : await live(client, tried);
      const second = trialFirst ? await live(client, tried) : await trial(client, tried, journals, service.url);
      pairs.push(trialFirst ? { candidate: first, floor: second } : { candidate: second, floor: first });
    }
    return pairs;
  } finally {
    await client.close();
    await service.close();
    fs.rmSync(journals, { recursive: true, force: true });
  }
}
