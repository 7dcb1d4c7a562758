// The variant lab's row: 3 variants of a prompt × 10 single-turn cases × repeat 3, run by the variant engine as the
// command-line tool and the lab run them (runVariantMatrix: a copy per variant made, the four columns side by side
// within concurrency 4, the copies deleted), against the same 120 runs sent one by one through copies made and
// deleted plainly, on a local service of its own that answers every request after a fixed latency.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { caseMessages } from '../../src/core/prompt-tests/case-messages';
import { runSuiteAt } from '../../src/core/prompt-tests/run';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { prepareSuite, type ResolvedTarget } from '../../src/core/prompt-tests/target';
import type { SuiteResult } from '../../src/core/prompt-tests/types';
import { kindById } from '../../src/core/resources';
import { updateBody } from '../../src/core/save-plan';
import { TrialJournal } from '../../src/core/trials/trial-journal';
import { TrialRoute } from '../../src/core/trials/trial-run';
import { runVariantMatrix } from '../../src/core/variants/variant-run';
import type { Variant } from '../../src/core/variants/variant-spec';
import { startService } from '../service/server';
import type { Pair } from './protocol';
import { SUITE_CONCURRENCY, SUITE_LATENCY_MS } from './suite-throughput';

export const MATRIX = { variants: 3, cases: 10, repeat: 3 } as const;
/** Rounds of both runs, the order alternating; each pair shares its round's conditions. */
const ROUNDS = 3;
const TENANT = 1;
const PROMPT = kindById('prompt');

interface Lab {
  suite: Suite;
  target: ResolvedTarget;
  variants: Variant[];
}

async function setUp(client: ServiceClient): Promise<Lab> {
  const created = await client.create(PROMPT, { name: 'Bench Variant Prompt', system: 'Answer briefly.' }, TENANT);
  const cases = Array.from({ length: MATRIX.cases }, (_, index) => ({
    name: `case ${index + 1}`,
    prompt_text: `question ${index + 1}`,
    expect: { response: { contains: `question ${index + 1}` } },
    repeat: MATRIX.repeat,
  }));
  const { suite, problems } = parseSuite(JSON.stringify({ prompt: created.id, cases }));
  if (!suite) throw new Error(`the bench's suite does not parse: ${problems.map((p) => p.message).join('; ')}`);
  const variants = Array.from({ length: MATRIX.variants }, (_, index) => ({
    name: `variant ${index + 1}`,
    fields: { system: `Answer in ${index + 2} sentences.` },
  }));
  return { suite, target: await prepareSuite(client, suite, TENANT, 'the bench service'), variants };
}

/** Every case of every column must pass, or the timing measured failures rather than runs. */
function passedAll(results: readonly SuiteResult[]): void {
  for (const result of results) {
    const failed = result.cases.find((c) => !c.passed);
    if (failed) throw new Error(`variant matrix: case "${failed.name}" failed: ${caseMessages(failed).join('; ')}`);
  }
}

/** Candidate: the matrix, its copies made and deleted by the engine. */
async function matrix(client: ServiceClient, lab: Lab, journals: string, service: string): Promise<number> {
  const started = performance.now();
  const run = await runVariantMatrix({
    client,
    ...lab,
    journal: (tag) => new TrialJournal(journals, service, TENANT, tag),
    concurrency: SUITE_CONCURRENCY,
  });
  const elapsed = performance.now() - started;
  passedAll([run.base, ...run.variants.map((v) => v.result)]);
  if (run.trials.some((t) => !t.deleted)) throw new Error('variant matrix: copies were left');
  return elapsed;
}

/** Floor: the copies created plainly, every column's runs one by one, the copies deleted one by one. */
async function serial(client: ServiceClient, lab: Lab): Promise<number> {
  const started = performance.now();
  const live = updateBody(PROMPT, await client.get(PROMPT, lab.target.id, TENANT));
  const copies: number[] = [];
  for (const [index, variant] of lab.variants.entries())
    copies.push(
      (await client.create(PROMPT, { ...live, ...variant.fields, name: `floor ${index}` }, TENANT)).id as number,
    );
  const results: SuiteResult[] = [await runSuiteAt(client, lab.suite, lab.target, { concurrency: 1 })];
  for (const copy of copies) {
    const route = new TrialRoute([{ id: lab.target.id, copy, name: lab.target.name }]);
    results.push(await runSuiteAt(client, lab.suite, lab.target, { concurrency: 1 }, route));
  }
  for (const copy of copies) await client.delete(PROMPT, copy, TENANT);
  const elapsed = performance.now() - started;
  passedAll(results);
  return elapsed;
}

export async function measureVariantMatrix(): Promise<Pair[]> {
  const service = await startService({ port: 0, adminToken: 'bench-variant-token', latencyMs: SUITE_LATENCY_MS });
  const client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken, timeoutMs: 30_000 });
  const journals = fs.mkdtempSync(path.join(os.tmpdir(), 'convai-bench-variants-'));
  try {
    const lab = await setUp(client);
    await matrix(client, lab, journals, service.url);
    const pairs: Pair[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const matrixFirst = round % 2 === 0;
      const first = matrixFirst ? await matrix(client, lab, journals, service.url) : await serial(client, lab);
      const second = matrixFirst ? await serial(client, lab) : await matrix(client, lab, journals, service.url);
      pairs.push(matrixFirst ? { candidate: first, floor: second } : { candidate: second, floor: first });
    }
    return pairs;
  } finally {
    await client.close();
    await service.close();
    fs.rmSync(journals, { recursive: true, force: true });
  }
}
