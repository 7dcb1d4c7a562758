import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../../src/core/client';
import { RequestBudget } from '../../src/core/request-budget';
import type { JsonObject } from '../../src/core/json';
import { kindById } from '../../src/core/resources';
import { caseMessages } from '../../src/core/prompt-tests/case-messages';
import { parseSuite } from '../../src/core/prompt-tests/suite-parser';
import type { Suite } from '../../src/core/prompt-tests/suite';
import { runSuiteAt } from '../../src/core/prompt-tests/run';
import { prepareSuite } from '../../src/core/prompt-tests/target';
import { cleanTrials } from '../../src/core/trials/trial-clean';
import { leftJournals, TrialJournal } from '../../src/core/trials/trial-journal';
import { isTrialCopy, newTrialTag, trialCopyName } from '../../src/core/trials/trial-names';
import { planTrial, type Proposal } from '../../src/core/trials/trial-plan';
import { TrialCopiesLeft, withTrialCopies, type TrialRoute } from '../../src/core/trials/trial-run';
import { leftText } from '../../src/core/trials/trial-report';
import { startService, type RunningService } from '../service/server';
import type { Fault } from '../service/faults';

const PROMPT = kindById('prompt');
const TENANT = 1;

describe('trials: copies made, run through and deleted', () => {
  let service: RunningService;
  let client: ServiceClient;
  let dir: string;
  const start = async (faults: Fault[] = []): Promise<void> => {
    service = await startService({ adminToken: 'trial-admin', faults });
    client = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken });
  };
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'convai-trials-'));
  });
  afterEach(async () => {
    await client.close();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  const prompt = async (fields: JsonObject): Promise<number> =>
    (await client.create(PROMPT, { system: 'Help.', ai_model: 'live-model', ...fields }, TENANT)).id as number;
  const names = async (): Promise<string[]> =>
    (await client.list(PROMPT, TENANT, { trialCopies: true }))
      .map((p) => String(p.name))
      .filter((n) => isTrialCopy({ name: n }));
  const trial = async <T>(proposals: Proposal[], run: (route: TrialRoute) => Promise<T>, signal?: AbortSignal) => {
    const live = new Map<number, JsonObject>();
    for (const p of proposals) if (p.id !== undefined) live.set(p.id, await client.get(PROMPT, p.id, TENANT));
    const tag = newTrialTag();
    const journal = new TrialJournal(dir, service.url, TENANT, tag);
    return withTrialCopies({ client, tenantId: TENANT, tag, plan: planTrial(proposals, live), journal, signal }, run);
  };
  const suiteOf = (body: JsonObject): Suite => {
    const { suite, problems } = parseSuite(JSON.stringify(body));
    assert.deepEqual(problems, []);
    return suite as Suite;
  };

  it('answers through the copies, hands over between copies, reports live prompts, and deletes every copy', async () => {
    await start();
    const billing = await prompt({ name: 'Trial Billing' });
    const front = await prompt({ name: 'Trial Front', next_prompt_id: billing });
    const untouched = await prompt({ name: 'Trial Untouched' });
    const suite = suiteOf({
      prompt: 'Trial Front',
      cases: [
        {
          name: 'handed over',
          turns: [
            {
              prompt_text: 'Hi',
              expect: { prompt: 'Trial Front', response: { contains: 'front-v2' }, next_prompt_id: billing },
            },
            {
              prompt_text: 'Bill',
              expect: { prompt: 'Trial Billing', response: { contains: 'billing-v2' } },
            },
          ],
        },
        { name: 'created prompt answers', turns: [{ prompt_text: 'x' }] },
      ],
    });
    const untouchedSuite = suiteOf({
      prompt: 'Trial Untouched',
      cases: [{ name: 'live', prompt_text: 'Hi', expect: { response: { contains: 'live-model' } } }],
    });
    const newSuite = suiteOf({
      prompt: 'Trial New',
      cases: [{ name: 'new', prompt_text: 'Hi', expect: { response: { contains: 'new-model' } } }],
    });
    const { value, trial: outcome } = await trial(
      [
        { id: front, name: 'Trial Front', fields: { ai_model: 'front-v2' } },
        { id: billing, name: 'Trial Billing', fields: { ai_model: 'billing-v2' } },
        { id: untouched, name: 'Trial Untouched', fields: { ai_model: 'live-model' } },
        { name: 'Trial New', fields: { name: 'Trial New', ai_model: 'new-model' } },
      ],
      async (route) => {
        const held = await names();
        const results = [];
        for (const s of [suite, untouchedSuite, newSuite]) {
          const target = await prepareSuite(client, s, TENANT, 'local', undefined, route.created);
          results.push(await runSuiteAt(client, s, target, {}, route));
        }
        const frontCopy = await client.get(PROMPT, route.copyOf(front), TENANT);
        return { held, results, frontNext: frontCopy.next_prompt_id, billingCopy: route.copyOf(billing) };
      },
    );
    assert.equal(value.held.length, 3, `three copies, the unchanged prompt none: ${value.held.join(', ')}`);
    assert.ok(value.held.includes(trialCopyName(outcome.tag, 'Trial Front')));
    assert.equal(value.frontNext, value.billingCopy, "the front copy hands over to billing's copy");
    const [conversation, live, created] = value.results;
    assert.deepEqual(conversation?.cases.map(caseMessages)[0], [], 'answered by the copies, named as the live prompts');
    assert.deepEqual(
      conversation?.cases[0]?.turns?.map((t) => [t.promptId, t.promptName]),
      [
        [front, 'Trial Front'],
        [billing, 'Trial Billing'],
      ],
    );
    assert.equal(live?.passed, 1, 'an unchanged prompt answers live');
    assert.equal(created?.passed, 1, 'a suite names a created prompt by its name');
    assert.deepEqual(
      outcome.copies.map((c) => [c.id, c.name]),
      [
        [billing, 'Trial Billing'],
        [front, 'Trial Front'],
        [undefined, 'Trial New'],
      ],
    );
    assert.equal(outcome.deleted, true);
    assert.deepEqual(await names(), [], 'no copy is left');
    assert.equal((await client.get(PROMPT, front, TENANT)).ai_model, 'live-model', 'the live prompt was never written');
    assert.deepEqual(await readdir(dir), [], 'the journal goes with the copies');
  });

  it('points a cycle of hand-overs at the copies, and a new prompt named by its file', async () => {
    await start();
    const a = await prompt({ name: 'Trial A' });
    const b = await prompt({ name: 'Trial B', next_prompt_id: a });
    await client.update(PROMPT, a, { next_prompt_id: b }, TENANT);
    const { value } = await trial(
      [
        { id: a, name: 'Trial A', fields: { ai_model: 'v2', exit_prompt_id: 'ai_prompts/new.json' } },
        { id: b, name: 'Trial B', fields: { ai_model: 'v2' } },
        { file: 'ai_prompts/new.json', name: 'Trial New', fields: { name: 'Trial New' } },
      ],
      async (route) => {
        const [copyA, copyB] = [
          await client.get(PROMPT, route.copyOf(a), TENANT),
          await client.get(PROMPT, route.copyOf(b), TENANT),
        ];
        const created = route.created[0]?.id;
        return { copyA, copyB, ids: [route.copyOf(a), route.copyOf(b), created] };
      },
    );
    const [copyA, copyB, created] = value.ids;
    assert.equal(value.copyA.next_prompt_id, copyB);
    assert.equal(value.copyB.next_prompt_id, copyA);
    assert.equal(value.copyA.exit_prompt_id, created);
    assert.equal((await client.get(PROMPT, a, TENANT)).next_prompt_id, b, 'the live prompts keep their links');
  });

  it('deletes the copies when the run fails and when it is cancelled', async () => {
    await start();
    const id = await prompt({ name: 'Trial Fails' });
    await assert.rejects(
      trial([{ id, name: 'Trial Fails', fields: { ai_model: 'v2' } }], async () => {
        throw new Error('the run broke');
      }),
      /the run broke/,
    );
    assert.deepEqual(await names(), []);
    const stop = new AbortController();
    await assert.rejects(
      trial(
        [{ id, name: 'Trial Fails', fields: { ai_model: 'v2' } }],
        async () => {
          stop.abort();
          stop.signal.throwIfAborted();
        },
        stop.signal,
      ),
      { name: 'AbortError' },
    );
    assert.deepEqual(await names(), [], 'a cancelled run still deletes');
    assert.deepEqual(await readdir(dir), []);
  });

  it('records each copy in its journal before its create, with its id once made', async () => {
    await start();
    const id = await prompt({ name: 'Trial Journal' });
    await trial([{ id, name: 'Trial Journal', fields: { ai_model: 'v2' } }], async (route) => {
      const [record] = await leftJournals(dir, service.url, TENANT);
      assert.deepEqual(record?.copies, [
        { name: trialCopyName(record?.tag ?? '', 'Trial Journal'), id: route.copyOf(id) },
      ]);
      assert.equal(JSON.parse(await readFile(path.join(dir, `${record?.tag}.json`), 'utf8')).service, service.url);
    });
  });

  it('finds again by name a copy whose create answer was lost, and deletes it on clean', async () => {
    await start([{ match: 'POST /api/v1/ai_prompts', loseAnswer: true }]);
    const tag = newTrialTag();
    const live = await client.get(PROMPT, 1, TENANT);
    const name = trialCopyName(tag, String(live.name));
    await assert.rejects(
      withTrialCopies(
        {
          client,
          tenantId: TENANT,
          tag,
          plan: planTrial([{ id: 1, name: String(live.name), fields: { ai_model: 'v2' } }], new Map([[1, live]])),
          journal: new TrialJournal(dir, service.url, TENANT, tag),
        },
        async () => assert.fail('a run whose copies were not all made does not run'),
      ),
    );
    assert.deepEqual(await names(), [name], 'the service made the copy; the run never learnt its id');
    const [record] = await leftJournals(dir, service.url, TENANT);
    assert.deepEqual(record?.copies, [{ name }]);
    const cleaned = await cleanTrials(client, { dir, service: service.url, tenantId: TENANT });
    assert.deepEqual(
      cleaned.deleted.map((d) => d.name),
      [name],
    );
    assert.deepEqual(cleaned.left, []);
    assert.deepEqual(await names(), []);
    assert.deepEqual(await readdir(dir), []);
  });

  it('makes a copy it cannot delete an error that names it and the way to clean it, kept for the next clean', async () => {
    await start([{ match: 'DELETE /api/v1/ai_prompts', status: 503, body: '{"error":"down"}', count: 1 }]);
    const id = await prompt({ name: 'Trial Stays' });
    const { value, trial: outcome } = await trial(
      [{ id, name: 'Trial Stays', fields: { ai_model: 'v2' } }],
      async () => 'ran',
    );
    assert.equal(value, 'ran', "the run's results stand");
    assert.equal(outcome.deleted, false);
    const message = leftText(outcome.left ?? [], TENANT);
    assert.match(message, /Trial Stays/);
    assert.match(message, /convai trials clean --tenant 1/);
    assert.equal((await names()).length, 1);
    const cleaned = await cleanTrials(client, { dir, service: service.url });
    assert.equal(cleaned.deleted.length, 1, JSON.stringify(cleaned.left));
    assert.deepEqual(await names(), []);
    assert.deepEqual(await readdir(dir), []);
  });

  it("keeps each copy's delete back from the run's request bound, so the bound never leaves a copy", async () => {
    await start();
    const id = await prompt({ name: 'Trial Bound' });
    const budget = new RequestBudget(2);
    const bounded = new ServiceClient({ baseUrl: service.url, token: () => service.adminToken, budget });
    try {
      const live = new Map([[id, await bounded.get(PROMPT, id, TENANT)]]);
      const tag = newTrialTag();
      const { trial: outcome } = await withTrialCopies(
        {
          client: bounded,
          tenantId: TENANT,
          tag,
          plan: planTrial([{ id, name: 'Trial Bound', fields: { ai_model: 'v2' } }], live),
          journal: new TrialJournal(dir, service.url, TENANT, tag),
          budget,
        },
        async () => assert.equal(budget.allows('POST'), false, 'the run itself may not spend the delete'),
      );
      assert.equal(outcome.deleted, true);
      assert.equal(budget.spent, 2, 'the create and the delete, within the bound');
      assert.deepEqual(await names(), []);
    } finally {
      await bounded.close();
    }
  });

  it('says both when a run fails and its copy cannot be deleted', async () => {
    await start([{ match: 'DELETE /api/v1/ai_prompts', status: 503, body: '{"error":"down"}', count: 1 }]);
    const id = await prompt({ name: 'Trial Both' });
    const error = await trial([{ id, name: 'Trial Both', fields: { ai_model: 'v2' } }], async () => {
      throw new Error('the run broke');
    }).then(
      () => assert.fail('a failed run fails'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof TrialCopiesLeft, String(error));
    assert.match(String((error.cause as Error).message), /the run broke/);
    assert.match(error.message, /Trial Both/);
  });

  it('with all, deletes every prompt of the tenant marked as a copy, and nothing else', async () => {
    await start();
    const before = (await client.list(PROMPT, TENANT)).length;
    await prompt({ name: trialCopyName('0123abcd', 'From another machine') });
    await prompt({ name: '[trial] Not a copy' });
    assert.equal((await client.list(PROMPT, TENANT)).length, before + 1, 'a listing of the tenant leaves copies out');
    const journalOnly = await cleanTrials(client, { dir, service: service.url, tenantId: TENANT });
    assert.deepEqual(journalOnly.deleted, [], 'without all, only what journals name');
    const all = await cleanTrials(client, { dir, service: service.url, tenantId: TENANT, all: true });
    assert.deepEqual(
      all.deleted.map((d) => d.name),
      ['[trial 0123abcd] From another machine'],
    );
    assert.equal((await client.list(PROMPT, TENANT, { trialCopies: true })).length, before + 1);
  });
});
